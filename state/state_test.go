package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustStore(t *testing.T, s *State, key, value string) {
	t.Helper()
	if err := s.Store(key, json.RawMessage(value)); err != nil {
		t.Fatalf("store %q: %v", key, err)
	}
}

func wantLoad(t *testing.T, s *State, key, want string) {
	t.Helper()
	got, ok, err := s.Load(key)
	if err != nil {
		t.Fatalf("load %q: %v", key, err)
	}
	if want == "" {
		if ok {
			t.Errorf("load %q = %s, want nothing", key, got)
		}
		return
	}
	if !ok || string(got) != want {
		t.Errorf("load %q = %s (found %v), want %s", key, got, ok, want)
	}
}

func TestStoreLoadAndRemove(t *testing.T) {
	s := NewMemory(Limits{})
	mustStore(t, s, "issues", `[{"id":1},{"id":2}]`)
	mustStore(t, s, "n", `null`)
	wantLoad(t, s, "issues", `[{"id":1},{"id":2}]`)
	wantLoad(t, s, "n", `null`)
	wantLoad(t, s, "missing", "")
	mustStore(t, s, "issues", ``) // removes
	wantLoad(t, s, "issues", "")
	if keys, _ := s.Usage(); keys != int64(len("n")+len("null")) {
		t.Errorf("usage %d after removing issues, want the bytes of n alone", keys)
	}
}

// The bound counts keys and values; a store past it fails naming the limit
// with its unit, and every key stays as it was.
func TestStorePastTheBoundFailsAndKeepsEarlierKeys(t *testing.T) {
	s := NewMemory(Limits{MaxBytes: 16 << 10})
	big := `"` + strings.Repeat("x", 10<<10) + `"`
	mustStore(t, s, "a", big)
	err := s.Store("b", json.RawMessage(big))
	var full *FullError
	if !errors.As(err, &full) {
		t.Fatalf("second 10 KiB store: %v, want a FullError", err)
	}
	if !strings.Contains(err.Error(), "16 KiB") {
		t.Errorf("error %q does not name the limit with its unit", err)
	}
	wantLoad(t, s, "a", big)
	wantLoad(t, s, "b", "")
	// Replacing a key counts only the difference.
	mustStore(t, s, "a", `"`+strings.Repeat("y", 15<<10)+`"`)
	if err := s.Store("a", json.RawMessage(`"`+strings.Repeat("z", 17<<10)+`"`)); err == nil {
		t.Error("a value larger than the whole bound was stored")
	} else if !strings.Contains(err.Error(), "larger than the 16 KiB") {
		t.Errorf("error %q does not say the value is larger than the state", err)
	}
}

func TestKeysThatCannotBeStored(t *testing.T) {
	s := NewMemory(Limits{})
	for _, key := range []string{"", URI("r1")} {
		if err := s.Store(key, json.RawMessage(`1`)); err == nil {
			t.Errorf("store %q succeeded", key)
		}
	}
}

// Results are kept under reserved ids, reached by id or URI; a new one drops
// the oldest that no longer fit, and a key of the same spelling wins over an
// id while the URI still names the result.
func TestResultsAreKeptAndTheOldestDropped(t *testing.T) {
	s := NewMemory(Limits{MaxResultBytes: 100})
	first := s.Reserve()
	if first != "r1" {
		t.Fatalf("first id %q, want r1", first)
	}
	value := json.RawMessage(`"` + strings.Repeat("a", 48) + `"`) // 50 bytes
	if dropped, err := s.Keep(first, value); err != nil || dropped != nil {
		t.Fatalf("keep r1: dropped %v, %v", dropped, err)
	}
	second := s.Reserve()
	if _, err := s.Keep(second, value); err != nil {
		t.Fatal(err)
	}
	third := s.Reserve()
	dropped, err := s.Keep(third, value)
	if err != nil || !slices.Equal(dropped, []string{"r1"}) {
		t.Fatalf("keep r3: dropped %v, %v; want r1 dropped", dropped, err)
	}
	if !s.Dropped(URI("r1")) || s.Dropped("r2") {
		t.Error("Dropped does not remember r1 alone")
	}
	wantLoad(t, s, "r1", "")
	wantLoad(t, s, "r2", string(value))
	wantLoad(t, s, URI("r3"), string(value))
	mustStore(t, s, "r2", `"mine"`)
	wantLoad(t, s, "r2", `"mine"`)
	wantLoad(t, s, URI("r2"), string(value))

	var tooLarge *TooLargeError
	if _, err := s.Keep(s.Reserve(), json.RawMessage(`"`+strings.Repeat("b", 200)+`"`)); !errors.As(err, &tooLarge) {
		t.Errorf("keeping a value larger than every result: %v, want a TooLargeError", err)
	}
}

// An id handed out for a run that kept nothing is handed out again.
func TestReleasedIDsAreReused(t *testing.T) {
	s := NewMemory(Limits{})
	id := s.Reserve()
	s.Release(id)
	if again := s.Reserve(); again != id {
		t.Errorf("after a release, Reserve = %q, want %q again", again, id)
	}
	// Two runs in flight: the first gives its id back after the second
	// reserved one; the later id is not reused.
	a, b := s.Reserve(), s.Reserve()
	s.Release(a)
	if _, err := s.Keep(b, json.RawMessage(`1`)); err != nil {
		t.Fatal(err)
	}
	if c := s.Reserve(); c == b {
		t.Errorf("id %q handed out twice", c)
	}
}

// A directory keeps the state for the next State opened on it: keys,
// results, the bound's accounting and the ids to come.
func TestDirectoryStateSurvivesReopening(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := OpenDir(dir, Limits{MaxBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	odd := "a key / with \n odd characters"
	mustStore(t, s, odd, `{"x":[1,2,3]}`)
	mustStore(t, s, "gone", `1`)
	mustStore(t, s, "gone", ``)
	id := s.Reserve()
	if _, err := s.Keep(id, json.RawMessage(`"the whole text"`)); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(dir)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("state directory mode %v, %v; want 0700", info.Mode().Perm(), err)
	}

	again, err := OpenDir(dir, Limits{MaxBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	wantLoad(t, again, odd, `{"x":[1,2,3]}`)
	wantLoad(t, again, "gone", "")
	wantLoad(t, again, URI(id), `"the whole text"`)
	if keys, results := again.Usage(); keys != int64(len(odd)+len(`{"x":[1,2,3]}`)) || results != int64(len(`"the whole text"`)) {
		t.Errorf("usage after reopening: keys %d, results %d", keys, results)
	}
	if next := again.Reserve(); next == id {
		t.Errorf("reopened state hands out %q again", next)
	}
}

func TestTextOfAKeptValue(t *testing.T) {
	text, mime := Text(json.RawMessage(`"line one\nline two é"`))
	if text != "line one\nline two é" || mime != "text/plain" {
		t.Errorf("string value: %q %s", text, mime)
	}
	if Chars(json.RawMessage(`"é"`)) != 1 {
		t.Error("Chars counts bytes, not characters")
	}
	text, mime = Text(json.RawMessage(`{"a":1}`))
	if text != `{"a":1}` || mime != "application/json" {
		t.Errorf("object value: %q %s", text, mime)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 512: "512 bytes", 1536: "1.5 KiB", 16 << 20: "16 MiB", 64 << 20: "64 MiB", 3 << 30: "3 GiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
