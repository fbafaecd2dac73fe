package analysis

import (
	"slices"
	"strings"
	"testing"
)

func TestAmerican(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// -our
		{"colour", "color"}, {"coloured", "colored"}, {"behavioural", "behavioral"},
		{"tumours", "tumors"}, {"favourite", "favorite"}, {"neighbourhood", "neighborhood"},
		{"anti-tumour", "anti-tumor"}, {"tumour-associated", "tumor-associated"},
		// digraphs
		{"haemoglobin", "hemoglobin"}, {"carboxyhaemoglobin", "carboxyhemoglobin"},
		{"anaemia", "anemia"}, {"hyperglycaemic", "hyperglycemic"}, {"leukaemia", "leukemia"},
		{"ischaemia", "ischemia"}, {"polycythaemia", "polycythemia"}, {"paediatric", "pediatric"},
		{"orthopaedic", "orthopedic"}, {"encyclopaedia", "encyclopedia"}, {"aetiology", "etiology"},
		{"anaesthesia", "anesthesia"}, {"oedema", "edema"}, {"lymphoedema", "lymphedema"},
		{"faecal", "fecal"}, {"diarrhoea", "diarrhea"}, {"oestrogen", "estrogen"},
		{"oesophageal", "esophageal"}, {"gastro-oesophageal", "gastro-esophageal"},
		{"foetal", "fetal"}, {"gynaecology", "gynecology"}, {"coeliac", "celiac"},
		{"caesarean", "cesarean"}, {"palaeolithic", "paleolithic"}, {"mediaeval", "medieval"},
		// -ise, -lyse
		{"randomised", "randomized"}, {"organisation", "organization"}, {"organisations", "organizations"},
		{"characterise", "characterize"}, {"minimising", "minimizing"}, {"emphasises", "emphasizes"},
		{"criticised", "criticized"}, {"stabilisers", "stabilizers"}, {"well-characterised", "well-characterized"},
		{"analyse", "analyze"}, {"analysed", "analyzed"}, {"analysing", "analyzing"},
		{"catalysed", "catalyzed"}, {"hydrolyse", "hydrolyze"}, {"paralysed", "paralyzed"},
		// -re
		{"centre", "center"}, {"centres", "centers"}, {"centred", "centered"}, {"centring", "centering"},
		{"kilometres", "kilometers"}, {"millilitre", "milliliter"}, {"fibre", "fiber"},
		{"theatre", "theater"}, {"titres", "titers"}, {"epicentre", "epicenter"}, {"meagre", "meager"},
		// single words
		{"practise", "practice"}, {"practised", "practiced"}, {"practising", "practicing"},
		{"licence", "license"}, {"licences", "licenses"}, {"defence", "defense"}, {"offences", "offenses"},
		{"catalogue", "catalog"}, {"catalogued", "cataloged"}, {"analogues", "analogs"}, {"homologue", "homolog"},
		{"programme", "program"}, {"programmes", "programs"}, {"sulphate", "sulfate"},
		{"disulphide", "disulfide"}, {"grey", "gray"}, {"mould", "mold"}, {"judgement", "judgment"},
		{"acknowledgements", "acknowledgments"}, {"aluminium", "aluminum"}, {"artefacts", "artifacts"},
		{"sceptical", "skeptical"}, {"enquiry", "inquiry"}, {"jewellery", "jewelry"}, {"plough", "plow"},
	} {
		if got := American(c.in); got != c.want {
			t.Errorf("American(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// americanWords are American spellings, and words that only look British:
// all must come out unchanged.
var americanWords = strings.Fields(`
color tumor behavior four hour hours tour your yours contour devour flour pour sour detour
troubadour glamorous humoral laboratory labor
hemoglobin anemia pediatric estrogen esophageal gastroesophageal phytoestrogen proestrus
xenoestrogen fetal edema diarrhea celiac aerobic aerosol aesthetic archaeology israel
randomized organization analyze analyzed analysis analyses lyse lysed lysing crises
exercise exercised exercising advise advised adviser advisers supervise unsupervised
promise promising compromise immunocompromised surprise unsurprising enterprise comprise
comprised expertise franchise merchandise otherwise likewise clockwise stepwise pairwise
noise raise raised fundraising praise appraise appraised precise imprecise concise excise
incise circumcise revise devise televise improvise despise disguise chastise advertise
premise premises surmise demise paradise treatise malaise tortoise porpoise turquoise
cruise bruise poise rise arise uprising wise vise guise anise reprise liaise braise
abscise mortise valise cerise chemise
center centered centering meter meters theater fiber titer meager acre massacre mediocre
genre ogre lucre cadre theatre_ id ok
practice practiced license defense offense catalog program programmed programming
sulfate gray mold judgment aluminum artifact skeptic inquiry jewelry plow
travelled modelling ageing enrolment fulfil
`)

func TestAmericanKeeps(t *testing.T) {
	for _, w := range americanWords {
		if w == "theatre_" {
			continue
		}
		if got := American(w); got != w {
			t.Errorf("American(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestAmericanIdempotent(t *testing.T) {
	words := slices.Concat(americanWords, strings.Fields(`colour haemoglobin randomised centred
		analysed practising licence catalogued sulphate anti-tumour kilometres oesophageal`))
	for _, w := range words {
		once := American(w)
		if twice := American(once); twice != once {
			t.Errorf("American(%q) = %q, then %q", w, once, twice)
		}
	}
}

func TestAmericanSpellingFilter(t *testing.T) {
	got := AmericanSpelling{}.Filter([]string{"colour", "sop-014", "x", "randomised"})
	if want := []string{"color", "sop-014", "x", "randomized"}; !slices.Equal(got, want) {
		t.Errorf("Filter = %q, want %q", got, want)
	}
}

func FuzzAmerican(f *testing.F) {
	for _, s := range []string{"", "colour", "a-b.c/d", "-", "lyse", "ise", "centre", "é-haem"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := American(s)
		if twice := American(once); twice != once {
			t.Fatalf("American(%q) = %q, then %q", s, once, twice)
		}
	})
}
