package redact

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// The secret every case hides; none of the outputs may hold it.
const pw = "S3cr3t-Pw"

func TestSecretsMasksEveryCredential(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// user info
		{"postgres://fonte:" + pw + "@db:5432/fonte", "postgres://fonte:xxxxx@db:5432/fonte"},
		{"redis://:" + pw + "@cache:6379", "redis://:xxxxx@cache:6379"},
		{"postgres://fonte:" + pw + "/x@db/fonte", "postgres://fonte:xxxxx@db/fonte"},
		{"postgres://fonte:a?" + pw + "@db/fonte", "postgres://fonte:xxxxx@db/fonte"},
		{"https://" + pw + "@models.example/v1", "https://xxxxx@models.example/v1"},
		{"postgres://fonte@db/fonte", "postgres://fonte@db/fonte"},
		// query parameters, any case, percent-encoded names
		{"postgres://db/fonte?password=" + pw + "&collection=hr", "postgres://db/fonte?password=xxxxx&collection=hr"},
		{"postgres://db/fonte?sslmode=verify-full&sslpassword=" + pw, "postgres://db/fonte?sslmode=verify-full&sslpassword=xxxxx"},
		{"postgres://db/fonte?sslkey=/etc/" + pw + ".key", "postgres://db/fonte?sslkey=xxxxx"},
		{"redis://h:1?PassWord=" + pw, "redis://h:1?PassWord=xxxxx"},
		{"redis://h:1?pass%77ord=" + pw, "redis://h:1?pass%77ord=xxxxx"},
		{"https://m.example/v1?api_key=" + pw + "&v=2", "https://m.example/v1?api_key=xxxxx&v=2"},
		{"https://m.example/v1?access_token=" + pw, "https://m.example/v1?access_token=xxxxx"},
		{"https://m.example/v1?X-Amz-Signature=" + pw, "https://m.example/v1?X-Amz-Signature=xxxxx"},
		{"https://m.example/v1?client_secret=" + pw, "https://m.example/v1?client_secret=xxxxx"},
		{"https://m.example/v1?pwd=" + pw, "https://m.example/v1?pwd=xxxxx"},
		{"https://m.example/v1?passwd=" + pw, "https://m.example/v1?passwd=xxxxx"},
		{"https://m.example/v1?auth=" + pw, "https://m.example/v1?auth=xxxxx"},
		{"https://m.example/v1#access_token=" + pw, "https://m.example/v1#access_token=xxxxx"},
		// key=value connection strings
		{"host=db user=fonte password=" + pw + " dbname=fonte", "host=db user=fonte password=xxxxx dbname=fonte"},
		{"host=db password = '" + pw + " x' sslpassword=" + pw, "host=db password = xxxxx sslpassword=xxxxx"},
		// messages quoting a URL
		{`opening "postgres://u:` + pw + `@db/x?sslpassword=` + pw + `": refused`, `opening "postgres://u:xxxxx@db/x?sslpassword=xxxxx": refused`},
		{"store redis://h?password=" + pw + ": want a folder", "store redis://h?password=xxxxx want a folder"}, // the colon could be the password's,
		// nothing to hide
		{"/srv/fonte/index", "/srv/fonte/index"},
		{"postgres://db/fonte?collection=hr&hnsw_m=16", "postgres://db/fonte?collection=hr&hnsw_m=16"},
	} {
		got := Secrets(c.in)
		if got != c.want {
			t.Errorf("Secrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if strings.Contains(got, pw) {
			t.Errorf("Secrets(%q) still holds the secret: %q", c.in, got)
		}
	}
}

func TestHandlerMasksMessagesAndAttributes(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	loc := "postgres://u:" + pw + "@db/x?sslpassword=" + pw
	log.With("store", loc).WithGroup("g").Error("opening "+loc, "err", errors.New("dial "+loc), "n", 3,
		slog.Group("inner", "url", loc), "cfg", struct{ URL string }{loc})
	out := buf.String()
	if strings.Contains(out, pw) {
		t.Fatalf("the log holds the secret:\n%s", out)
	}
	if !strings.Contains(out, "g.n=3") || strings.Count(out, "xxxxx") < 8 {
		t.Fatalf("the log lost its content:\n%s", out)
	}
}
