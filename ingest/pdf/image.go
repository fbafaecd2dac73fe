package pdf

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // registers JPEG for image.DecodeConfig
	_ "image/png"  // registers PNG for image.DecodeConfig
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fonte-rag/fonte/ingest/parse"
)

// maxImagePixels bounds the size an image may declare: an A4 page at
// 600 DPI is 35 megapixels; a larger claim is a decompression bomb or not
// a page.
const maxImagePixels = 100_000_000

// ParseImage reads the text of a PNG, JPEG or TIFF image (a scanned or
// photographed page) by OCR with DefaultOCR; see ParseImageContext.
func ParseImage(name string, raw []byte) (*parse.Parsed, error) {
	return ParseImageContext(context.Background(), name, raw, DefaultOCR)
}

// ParseImageContext reads an image by OCR: Tesseract reads the file (every
// page of a multi-page TIFF) and its paragraphs become blocks on page 1
// (and on). A file that is not the image its extension says is refused
// as unreadable; without tesseract the refusal names the packages to
// install; an image whose words are too uncertain (a photo, a diagram,
// noise) is refused as ReasonLowConfidence.
func ParseImageContext(ctx context.Context, name string, raw []byte, opts OCROptions) (*parse.Parsed, error) {
	ext := strings.ToLower(path.Ext(filepath.ToSlash(name)))
	if err := checkImage(name, ext, raw); err != nil {
		return nil, err
	}
	run, err := newOCRRun(ctx, name, opts, "it is an image")
	if err != nil {
		return nil, err
	}
	defer run.close()
	file := filepath.Join(run.dir, "image"+ext)
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "OCR: writing a temporary copy", Err: err}
	}
	pctx, cancel := context.WithTimeout(ctx, run.opts.PageTimeout)
	defer cancel()
	pages, err := run.read(pctx, file, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if pctx.Err() != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: fmt.Sprintf("OCR took longer than %v", run.opts.PageTimeout)}
	}
	if err != nil {
		return nil, &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: "OCR failed", Err: err}
	}
	if len(pages) == 0 {
		pages = []pageText{{page: 1}} // nothing on it: refused as no words below
	}
	return run.assemble(raw, "image", pages)
}

// checkImage refuses bytes that are not the image format ext names, or a
// PNG or JPEG declaring more than maxImagePixels.
func checkImage(name, ext string, raw []byte) error {
	bad := func(detail string) error {
		return &parse.Refusal{Path: name, Reason: parse.ReasonUnreadable, Detail: detail}
	}
	if ext == ".tif" || ext == ".tiff" {
		if !bytes.HasPrefix(raw, []byte("II*\x00")) && !bytes.HasPrefix(raw, []byte("MM\x00*")) {
			return bad("not a TIFF image (no II*/MM* header)")
		}
		return nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return bad(fmt.Sprintf("not a readable %s image: %v", strings.TrimPrefix(ext, "."), err))
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxImagePixels {
		return bad(fmt.Sprintf("%d×%d pixels is over the limit of %d million", cfg.Width, cfg.Height, maxImagePixels/1_000_000))
	}
	return nil
}
