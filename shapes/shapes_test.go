package shapes

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTextJSONShape(t *testing.T) {
	n := Text(`{"total_count": 2, "items": [{"html_url": "https://x/1", "id": 7}, {"html_url": "https://x/2", "id": 8, "draft": true}]}`)
	got := n.String()
	want := "text, JSON { items: { draft?: boolean; html_url: string; id: number }[]; total_count: number }"
	if got != want {
		t.Fatalf("note:\n got %s\nwant %s", got, want)
	}
	for _, value := range []string{"https", "x/1", "7", "8"} {
		if strings.Contains(got, value) {
			t.Errorf("note carries the value %q: %s", value, got)
		}
	}
}

func TestStructuredAndPlainText(t *testing.T) {
	if got := Structured([]byte(`{"sum": 3}`)).String(); got != "{ sum: number }" {
		t.Errorf("structured: %s", got)
	}
	if got := Text("hello, world").String(); got != "text" {
		t.Errorf("plain text: %s", got)
	}
	if got := Text("42").String(); got != "text" {
		t.Errorf("a JSON scalar in text is text: %s", got)
	}
	n := Text(`[1, "a", null]`)
	n.Merge(Text("not json"))
	if got := n.String(); got != "text, JSON (string | number | null)[] or other text" {
		t.Errorf("merged text forms: %s", got)
	}
}

func TestMergeOptionalAndUnion(t *testing.T) {
	n := Structured([]byte(`{"a": 1, "b": "x"}`))
	n.Merge(Structured([]byte(`{"a": "one", "c": null}`)))
	want := "{ a: string | number; b?: string; c?: null }"
	if got := n.String(); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

func TestKeysThatAreValuesBecomeAMap(t *testing.T) {
	n := Structured([]byte(`{"user@example.com": {"n": 1}, "2026-01-01": {"n": 2}}`))
	got := n.String()
	if got != "{ [key: string]: { n: number } }" {
		t.Fatalf("got %s", got)
	}
	n = Structured([]byte(`{"id12345": 1}`))
	if got := n.String(); strings.Contains(got, "12345") {
		t.Fatalf("an id-like key was shown: %s", got)
	}
}

func TestDepthBound(t *testing.T) {
	n := Structured([]byte(`{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`))
	if got := n.String(); got != "{ a: { b: { c: { d: { ... } } } } }" {
		t.Fatalf("got %s", got)
	}
}

// randomValue builds an irregular JSON value: random names from a large
// set, random kinds, random nesting.
func randomValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(7); {
	case depth > 6 || k == 0:
		return r.IntN(100)
	case k == 1:
		return "s"
	case k == 2:
		return r.IntN(2) == 0
	case k == 3:
		return nil
	case k == 4:
		a := make([]any, r.IntN(5))
		for i := range a {
			a[i] = randomValue(r, depth+1)
		}
		return a
	default:
		o := map[string]any{}
		for range r.IntN(8) {
			o[fmt.Sprintf("f%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26))] = randomValue(r, depth+1)
		}
		return o
	}
}

// TestAnnouncementsAreBounded feeds a tool's note many irregular results
// and counts how often its rendering changes: every change is growth in a
// bounded lattice (fields up to the note's budget, each with a kind set of
// six, an optional flag and a more marker per object), so the changes stop
// long before the calls do, and the note stays short.
func TestAnnouncementsAreBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := NewStore()
	k := Key{Server: "s", Tool: "mcp__s__t"}
	changes, calls := 0, 5000
	for range calls {
		doc, _ := json.Marshal(randomValue(r, 0))
		if s.Observe(k, Text(string(doc))) {
			changes++
		}
	}
	// The bound the lattice allows: per field, six kinds, optional and more.
	bound := (maxNoteFields + 1) * 8
	if changes > bound {
		t.Fatalf("%d changes over %d calls, bound %d", changes, calls, bound)
	}
	if got := s.Note(k); len(got) > 4000 {
		t.Errorf("note is %d bytes: %s", len(got), got)
	}
	t.Logf("%d changes over %d calls; note is %d bytes", changes, calls, len(s.Note(k)))
}

func TestSameObservationChangesNothing(t *testing.T) {
	s := NewStore()
	k := Key{Server: "s", Tool: "mcp__s__t"}
	o := Text(`{"a": [1, 2], "b": {"c": "d"}}`)
	if !s.Observe(k, o) {
		t.Fatal("the first observation was not a change")
	}
	before := s.Note(k)
	if s.Observe(k, Text(`{"a": [3], "b": {"c": "e"}}`)) || s.Note(k) != before {
		t.Fatalf("the same shape changed the note: %s -> %s", before, s.Note(k))
	}
}

func TestStorePersistsAndKeysByServerVersion(t *testing.T) {
	dir := t.TempDir()
	k := Key{Server: "gh", Tool: "mcp__gh__search", Implementation: "github 1.0", InputSchema: []byte(`{"type":"object"}`)}
	s := Open(dir, func(err error) { t.Errorf("warning: %v", err) })
	s.Observe(k, Text(`{"total_count": 1}`))
	reopened := Open(dir, func(err error) { t.Errorf("warning: %v", err) })
	if got := reopened.Note(k); got != "text, JSON { total_count: number }" {
		t.Fatalf("after reopening: %q", got)
	}
	upgraded := k
	upgraded.Implementation = "github 1.1"
	if got := reopened.Note(upgraded); got != "" {
		t.Fatalf("a new server version kept the note: %q", got)
	}
	changed := k
	changed.InputSchema = []byte(`{"type":"object","properties":{}}`)
	if got := reopened.Note(changed); got != "" {
		t.Fatalf("a new input schema kept the note: %q", got)
	}
}

func TestCorruptStoreIsIgnoredWithAWarning(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fileName), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var warnings []error
	s := Open(dir, func(err error) { warnings = append(warnings, err) })
	if len(warnings) != 1 {
		t.Fatalf("warnings: %v", warnings)
	}
	k := Key{Server: "s", Tool: "mcp__s__t"}
	s.Observe(k, Text("x"))
	if got := Open(dir, nil).Note(k); got != "text" {
		t.Fatalf("the store was not rebuilt: %q", got)
	}
}

func TestStoreRejectsValuesSmuggledIntoTheFile(t *testing.T) {
	dir := t.TempDir()
	k := Key{Server: "s", Tool: "mcp__s__t"}
	file := fmt.Sprintf(`{"format":1,"records":{%q:{"tool":"mcp__s__t","note":{"structured":{"k":16,"f":[{"n":"secret value 1234","s":{"k":8}}]}},"seq":1}}}`, k.id())
	if err := os.WriteFile(filepath.Join(dir, fileName), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := Open(dir, nil).Note(k); got != "" {
		t.Fatalf("a value-like name from the file reached the note: %q", got)
	}
}

// Sample reads a kept value's shape: a string as text, anything else as
// structured content, a large one from a bounded prefix with the same shape
// a whole reading gives.
func TestSampleOfAKeptValue(t *testing.T) {
	if got := Sample([]byte(`"plain words"`)).String(); got != "text" {
		t.Errorf("string: %q", got)
	}
	if got := Sample([]byte(`"{\"a\":1}"`)).String(); got != "text, JSON { a: number }" {
		t.Errorf("string holding JSON: %q", got)
	}
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 200000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"issue %d","labels":["bug","ui"]}`, i, i)
	}
	b.WriteString("]")
	big := []byte(b.String())
	if len(big) <= maxJSONText {
		t.Fatalf("the large value is only %d bytes", len(big))
	}
	small := []byte(`[{"id":1,"title":"issue 1","labels":["bug","ui"]}]`)
	if got, want := Sample(big).String(), Structured(small).String(); got != want || want == "" {
		t.Errorf("large value: %q, want %q as a whole reading gives", got, want)
	}
}
