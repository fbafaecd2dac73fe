package testserver

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestNativePrimaryStandbyAndCrash takes the native server through what
// the store tests rely on: a write on the primary reaches the standby, the
// standby refuses writes, and a row committed before a SIGKILL is there
// after Restart.
func TestNativePrimaryStandbyAndCrash(t *testing.T) {
	primary, err := StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	exec := func(url, sql string) error {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, sql)
		return err
	}
	count := func(url string) (int, error) {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return 0, err
		}
		defer c.Close(ctx)
		var n int
		err = c.QueryRow(ctx, "select count(*) from t").Scan(&n)
		return n, err
	}
	if err := exec(primary.URL, "create table t (id int); insert into t values (1); create extension if not exists vector; create extension if not exists pg_textsearch"); err != nil {
		t.Fatal(err)
	}
	standby, err := primary.StartStandby("")
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Stop()
	if err := exec(primary.URL, "insert into t values (2)"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := count(standby.URL)
		if err == nil && n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("standby has %d rows (err %v), want 2", n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := exec(standby.URL, "insert into t values (3)"); err == nil {
		t.Fatal("a write on the standby succeeded")
	}
	if err := primary.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := count(primary.URL); err == nil {
		t.Fatal("the killed primary still answers")
	}
	if err := primary.Restart(); err != nil {
		t.Fatal(err)
	}
	if n, err := count(primary.URL); err != nil || n != 2 {
		t.Fatalf("after restart: %d rows, %v; want 2", n, err)
	}
}
