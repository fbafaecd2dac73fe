package engine

import (
	"context"
	"testing"

	"github.com/fonte-rag/fonte/retrieve"
)

// multilingualDocs are short handbooks in languages fonte has no stemmer
// for, two per language on different topics, next to an English and an
// Italian one.
var multilingualDocs = map[string]string{
	"zh-tea.md": `# 中国茶文化

中国是茶的故乡，饮茶的历史已经有几千年。绿茶主要产于浙江和安徽，龙井茶是最有名的绿茶之一。乌龙茶属于半发酵茶，福建和台湾是它的主要产地。泡茶时水温很重要，绿茶适合用八十度左右的水。普洱茶经过长时间存放，味道会变得更加醇厚。很多人认为喝茶可以帮助消化，也能让人放松心情。
`,
	"zh-metro.md": `# 城市地铁

北京地铁第一条线路于一九六九年开通，是中国最早的地铁。今天的地铁网络覆盖了城市的大部分地区，每天运送上千万名乘客。乘客可以使用交通卡或者手机扫码进站。高峰时间车厢非常拥挤，建议错峰出行。新线路的建设需要大量资金和多年的施工时间。地铁站内禁止吸烟，也不允许携带易燃物品。
`,
	"ja-sleep.md": `# 睡眠と健康

十分な睡眠は心と体の健康に欠かせません。大人は一晩に七時間から八時間眠ることが望ましいとされています。寝る前にスマートフォンを見ると、画面の光が眠りを妨げることがあります。毎日同じ時間に起きると、体内時計が整いやすくなります。昼寝は二十分程度にすると、午後の集中力が高まります。カフェインを含む飲み物は夕方以降は控えましょう。
`,
	"ja-ramen.md": `# 日本のラーメン

ラーメンは中国から伝わった麺料理で、日本各地で独自の進化を遂げました。札幌は味噌ラーメン、博多は豚骨ラーメンで知られています。スープは豚骨や鶏ガラ、煮干しなどを長時間煮込んで作ります。麺の太さや硬さは店によって大きく異なります。人気店の前には昼時になると長い行列ができます。最近では外国人観光客にもラーメンが大人気です。
`,
	"ko-kimchi.md": `# 김치 만들기

김치는 한국의 대표적인 발효 음식입니다. 배추를 소금에 절인 뒤 고춧가루, 마늘, 생강, 젓갈로 만든 양념을 버무립니다. 김장은 겨울을 앞두고 많은 양의 김치를 한꺼번에 담그는 풍습입니다. 잘 익은 김치는 찌개나 볶음밥에 넣어도 맛있습니다. 김치는 유산균이 풍부해서 장 건강에 도움이 됩니다. 보관할 때는 김치냉장고를 사용하면 오래 맛을 유지할 수 있습니다.
`,
	"ko-hiking.md": `# 등산 안전 수칙

산에 오르기 전에는 반드시 날씨를 확인해야 합니다. 초보자는 경사가 완만한 코스부터 시작하는 것이 좋습니다. 물과 간식, 여벌 옷을 배낭에 챙기세요. 해가 지기 전에 하산할 수 있도록 일정을 넉넉하게 잡아야 합니다. 등산로를 벗어나면 길을 잃을 위험이 큽니다. 무릎이 약한 사람은 등산 스틱을 사용하면 도움이 됩니다.
`,
	"th-rice.md": `# การปลูกข้าว

ประเทศไทยเป็นผู้ส่งออกข้าวรายใหญ่ของโลก ชาวนาส่วนใหญ่ปลูกข้าวในฤดูฝน ข้าวหอมมะลิเป็นพันธุ์ข้าวที่มีชื่อเสียงมากที่สุด การทำนาต้องใช้น้ำจำนวนมาก ภาคอีสานมีพื้นที่ปลูกข้าวกว้างที่สุดในประเทศ หลังเก็บเกี่ยวแล้วต้องตากข้าวให้แห้งก่อนนำไปสี
`,
	"th-temples.md": `# วัดในกรุงเทพ

กรุงเทพมหานครมีวัดมากกว่าสี่ร้อยแห่ง วัดพระแก้วตั้งอยู่ในบริเวณพระบรมมหาราชวัง นักท่องเที่ยวควรแต่งกายสุภาพเมื่อเข้าชมวัด วัดอรุณตั้งอยู่ริมแม่น้ำเจ้าพระยา ช่วงเย็นสามารถชมพระอาทิตย์ตกได้อย่างสวยงาม ควรถอดรองเท้าก่อนเข้าโบสถ์
`,
	"de-fahrrad.md": `# Fahrradpflege

Ein gut gepflegtes Fahrrad fährt leichter und sicherer. Die Kette sollte alle paar Wochen gereinigt und anschließend geölt werden. Der Reifendruck wird mit einer Luftpumpe mit Manometer geprüft. Bei Rennrädern liegt der empfohlene Druck deutlich höher als bei Stadträdern. Die Bremsbeläge nutzen sich mit der Zeit ab und müssen dann ersetzt werden. Im Winter ist es besser, das Fahrrad in einem trockenen Keller abzustellen.
`,
	"de-muell.md": `# Mülltrennung in Deutschland

In Deutschland wird der Müll sorgfältig getrennt. Papier gehört in die blaue Tonne, Verpackungen aus Kunststoff in die gelbe Tonne. Glasflaschen bringt man zum Glascontainer, getrennt nach Farben. Bioabfälle wie Obstschalen und Kaffeesatz kommen in die braune Tonne. Für Pfandflaschen bekommt man im Supermarkt Geld zurück. Sperrmüll wird nach Anmeldung bei der Stadt abgeholt.
`,
	"fr-pain.md": `# La boulangerie française

La baguette est le pain le plus vendu en France. Les boulangers commencent leur travail très tôt, souvent avant quatre heures du matin. La pâte est faite de farine, d'eau, de sel et de levure. Le croissant est né d'une viennoiserie autrichienne. Chaque année, un concours récompense la meilleure baguette de Paris. Le pain frais se conserve mal et doit être mangé le jour même.
`,
	"fr-train.md": `# Voyager en train

Le réseau ferroviaire français relie les grandes villes en quelques heures. Le TGV peut rouler à plus de trois cents kilomètres par heure. Il est conseillé de réserver ses billets à l'avance pour obtenir les meilleurs tarifs. Les cartes de réduction sont intéressantes pour les jeunes et les seniors. En cas de grève, la SNCF propose souvent le remboursement des billets. Les bagages doivent porter une étiquette avec le nom du voyageur.
`,
	"en-refunds.md": refunds,
	"it-ferie.md":   ferie,
}

// TestMultilingualSearch indexes the documents through the engine and
// checks each query's top hit: the Chinese, Japanese, Korean and Thai
// queries share no whole word with their documents (there are no spaces
// to make words), only character pairs; the German and French ones are
// ordinary questions. English and Italian keep their own analyses.
func TestMultilingualSearch(t *testing.T) {
	ctx := context.Background()
	src, idx := t.TempDir(), t.TempDir()
	for name, text := range multilingualDocs {
		write(t, src, name, text)
	}
	e := open(t, idx)
	if _, err := e.Index(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ query, want string }{
		{"绿茶应该用多少度的水冲泡", "zh-tea.md"},
		{"上下班高峰地铁很挤怎么办", "zh-metro.md"},
		{"昼寝は何分くらいがよいか", "ja-sleep.md"},
		{"博多の豚骨スープの作り方", "ja-ramen.md"},
		{"ﾗｰﾒﾝの麺", "ja-ramen.md"}, // half-width katakana meets full-width
		{"배추김치 담그기", "ko-kimchi.md"},
		{"초보 등산객을 위한 코스 추천", "ko-hiking.md"},
		{"พันธุ์ข้าวหอมมะลิ", "th-rice.md"},
		{"การแต่งกายเข้าวัด", "th-temples.md"},
		{"Wann müssen die Bremsbeläge ersetzt werden?", "de-fahrrad.md"},
		{"Wohin gehört der Kaffeesatz?", "de-muell.md"},
		{"Quels ingrédients pour la pâte à pain ?", "fr-pain.md"},
		{"remboursement des billets en cas de grève", "fr-train.md"},
		{"how long do international refunds take", "en-refunds.md"},
		{"ferie responsabile", "it-ferie.md"},
	} {
		for _, mode := range []retrieve.Mode{retrieve.BM25, ""} {
			hits, err := e.Search(ctx, c.query, SearchOptions{K: 3, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 || hits[0].Chunk.DocID != c.want {
				var got []string
				for _, h := range hits {
					got = append(got, h.Chunk.DocID)
				}
				t.Errorf("%q (mode %q): top hits %v, want %s first", c.query, mode, got, c.want)
			}
		}
	}

	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{ // language, analysis
		"zh-tea.md": {"zh", "cjk"}, "zh-metro.md": {"zh", "cjk"},
		"ja-sleep.md": {"ja", "cjk"}, "ja-ramen.md": {"ja", "cjk"},
		"ko-kimchi.md": {"ko", "cjk"}, "ko-hiking.md": {"ko", "cjk"},
		"th-rice.md": {"th", "cjk"}, "th-temples.md": {"th", "cjk"},
		"de-fahrrad.md": {"de", "neutral"}, "de-muell.md": {"de", "neutral"},
		"fr-pain.md": {"fr", "neutral"}, "fr-train.md": {"fr", "neutral"},
		"en-refunds.md": {"en", "en"}, "it-ferie.md": {"it", "it"},
	}
	if len(st.Docs) != len(want) {
		t.Fatalf("status lists %d documents, want %d", len(st.Docs), len(want))
	}
	for _, d := range st.Docs {
		if w := want[d.ID]; d.Language != w[0] || d.Analysis != w[1] {
			t.Errorf("%s: language %q, analysis %q; want %q, %q", d.ID, d.Language, d.Analysis, w[0], w[1])
		}
	}
	if st.Analyzer != retrieve.DefaultAnalyzers().Name() {
		t.Errorf("status analyzer %q, want %q", st.Analyzer, retrieve.DefaultAnalyzers().Name())
	}
}
