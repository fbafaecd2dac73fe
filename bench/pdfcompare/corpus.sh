#!/usr/bin/env bash
# Builds the PDF corpus of bench/pdfcompare from Debian documentation
# packages (apt-get download + dpkg-deb -x, nothing installed) into a
# cache directory, default /work/cache/pdfcorpus; it is not committed.
# Needs apt (after apt-get update), qpdf and poppler-utils (pdftotext is
# the reference the comparison measures against).
#
#   bench/pdfcompare/corpus.sh [DIR]
#
# The corpus: large manuals (gnuplot 311 pages with Type 3 fonts, R's
# "Writing R Extensions" 236, babel 224 with a CID TrueType font,
# Asymptote 196, the Italian lshort 184), two-column articles (LaTeX News,
# a TUGboat article, ftnright, multicol), table-heavy manuals (longtable,
# tabularx, array, dcolumn, colortbl, R Data Import/Export), Italian guides,
# CID and Type 3 fonts, one copy encrypted with AES-256 and an empty user
# password, and one truncated file.
set -euo pipefail
dir=${1:-/work/cache/pdfcorpus}
mkdir -p "$dir/debs" "$dir/x" "$dir/pdf"
cd "$dir/debs"
pkgs=(r-doc-pdf gnuplot-doc asymptote-doc texlive-lang-italian texlive-fonts-recommended-doc texlive-latex-base-doc)
for p in "${pkgs[@]}"; do
  ls "$p"_*.deb >/dev/null 2>&1 || apt-get download "$p"
done
for d in *.deb; do dpkg-deb -x "$d" "$dir/x"; done

t=$dir/x/usr/share/doc/texlive-doc
r=$dir/x/usr/share/R/doc/manual
files=(
  "$dir/x/usr/share/doc/gnuplot/gnuplot.pdf"
  "$r/R-exts.pdf" "$r/R-intro.pdf" "$r/R-data.pdf" "$r/R-FAQ.pdf"
  "$t/latex/babel/babel.pdf"
  "$dir/x/usr/share/doc/asymptote/asymptote.pdf"
  "$t/latex/lshort-italian/it-lshort.pdf"
  "$t/latex/base/ltnews34.pdf" "$t/latex/base/ltnews33.pdf" "$t/latex/base/ltnews26.pdf" "$t/latex/base/ltnews20.pdf"
  "$t/bibtex/babelbib/tugboat-babelbib.pdf" "$t/latex/tools/ftnright.pdf" "$t/latex/tools/multicol.pdf"
  "$t/latex/tools/longtable.pdf" "$t/latex/tools/tabularx.pdf" "$t/latex/tools/array.pdf" "$t/latex/tools/dcolumn.pdf"
  "$t/latex/colortbl/colortbl-DE.pdf"
  "$t/latex/l2tabu-italian/l2tabuit.pdf" "$t/latex/amsldoc-it/itamsldoc.pdf" "$t/latex/fancyhdr-it/itfancyhdr.pdf"
  "$t/texlive/texlive-it/texlive-it.pdf" "$t/latex/amsthdoc-it/amsthdoc_it.pdf" "$t/latex/latex4wp-it/latex4wp-it.pdf"
  "$t/latex/codicefiscaleitaliano/codicefiscaleitaliano.pdf" "$t/latex/verifica/verifica.pdf" "$t/latex/frontespizio/frontespizio.pdf"
  "$t/latex/frontespizio/exampleasuf.pdf" "$t/latex/hyperref/hyperref-doc.pdf" "$t/latex/base/encguide.pdf"
  "$t/latex/l3kernel/l3news10.pdf" "$t/fonts/wasy/wasydoc.pdf" "$t/latex/mfnfss/pandora.pdf"
  "$t/latex/base/usrguide.pdf" "$t/latex/base/fntguide.pdf"
)
for f in "${files[@]}"; do cp -L "$f" "$dir/pdf/"; done
# Permissions-only AES-256: opens in any viewer, no password to type.
qpdf --encrypt "" owner-secret 256 --print=none -- "$r/R-FAQ.pdf" "$dir/pdf/R-FAQ-aes256.pdf"
# A download cut short.
head -c 150000 "$t/latex/tools/tabularx.pdf" > "$dir/pdf/tabularx-truncated.pdf"
ls "$dir/pdf" | wc -l
