package analysis

import "testing"

func TestDetectLanguageBeyondEnglishItalian(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"中国是茶的故乡，饮茶的历史已经有几千年。", "zh"},
		{"绿茶 Docker 容器的配置", "zh"},
		{"十分な睡眠は心と体の健康に欠かせません。", "ja"},
		{"김치는 한국의 대표적인 발효 음식입니다.", "ko"},
		{"ประเทศไทยเป็นผู้ส่งออกข้าวรายใหญ่ของโลก", "th"},
		{"Ein gut gepflegtes Fahrrad fährt leichter und sicherer. Die Kette sollte alle paar Wochen gereinigt werden.", "de"},
		{"La baguette est le pain le plus vendu en France. Les boulangers commencent leur travail très tôt.", "fr"},
		{"El tren sale de la estación a las ocho y llega a Madrid por la tarde con los pasajeros.", "es"},
		{"Поезд отправляется с вокзала в восемь часов", "und"},
		{"Το τρένο αναχωρεί από τον σταθμό στις οκτώ", "el"},
		{"The TNF-α level in the Chinese cohort (中国) was higher than expected for the patients.", "en"},
	} {
		if got := DetectLanguage(c.text); got != c.want {
			t.Errorf("DetectLanguage(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
