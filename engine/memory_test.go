package engine

import "testing"

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{
		"6GiB": 6 << 30, "512MiB": 512 << 20, "2G": 2 << 30, "800m": 800 << 20,
		"1.5 GB": 3 << 29, "4096": 4096, "64KiB": 64 << 10, "1T": 1 << 40,
	} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1G", "0", "lots", "1X", "99999999T", "NaN"} {
		if got, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", bad, got)
		}
	}
}

func TestDefaultMemory(t *testing.T) {
	total := physicalMemory()
	if total <= 0 {
		t.Fatal("no MemTotal in /proc/meminfo")
	}
	if got := DefaultMemory(); got != max(total/4, 512<<20) {
		t.Errorf("DefaultMemory = %d with %d bytes of memory", got, total)
	}
	if txMemory(8<<30) != 256<<20 || txMemory(0) != DefaultMemory()/32 {
		t.Error("txMemory is not a thirty-second of the budget")
	}
}
