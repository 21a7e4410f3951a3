package pool

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBackoffDoublesUpToTheCap(t *testing.T) {
	base, max := 100*time.Millisecond, time.Second
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := Backoff(i, base, max); got != w*time.Millisecond {
			t.Errorf("attempt %d: %v, want %v", i, got, w*time.Millisecond)
		}
	}
	if got := Backoff(1000, base, max); got != max {
		t.Errorf("attempt 1000: %v (overflow?)", got)
	}
	if got := Backoff(3, 0, max); got != 0 {
		t.Errorf("zero base: %v", got)
	}
}

func TestMergeEnvConfiguredWins(t *testing.T) {
	got := mergeEnv([]string{"PATH=/bin", "HOME=/root", "A=old", "NOEQ"}, map[string]string{"A": "new", "B": "2"})
	want := []string{"PATH=/bin", "HOME=/root", "NOEQ", "A=new", "B=2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestRawToolsKeepsEntriesAsListed(t *testing.T) {
	page := []byte(`{"tools":[{"name":"b","inputSchema":{"z":1,"a":2}},{"name":"a","description":"d","outputSchema":{"type":"object"}},{"name":"b"},5],"nextCursor":"x"}`)
	got, err := rawTools(page)
	if err != nil {
		t.Fatal(err)
	}
	if string(got["b"].InputSchema) != `{"z":1,"a":2}` || got["a"].Description != "d" || string(got["a"].OutputSchema) != `{"type":"object"}` || len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if _, err := rawTools([]byte(`{"tools":5}`)); err == nil {
		t.Fatal("malformed page accepted")
	}
}
