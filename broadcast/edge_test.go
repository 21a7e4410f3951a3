package broadcast

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/catalog"
)

// Proves NFR-6.
func TestNFR6_DaemonsSharingAStoreAgree(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	counts := map[string]int{"a": 4, "b": 2}
	store := NewHistory(chat("hi"))

	// Daemon A broadcasts; daemon B, with its own snapshot of the same pool
	// and no memory shared with A, reads A's marker and stays silent.
	decide(t, store, snapOf(r, counts), true)
	msg, ok := decide(t, store, snapOf(&fakeRenderer{limit: partial}, counts), true)
	mustSilent(t, msg, ok)

	// Concurrent requests over the same store reach the same decision.
	counts["c"] = 1
	msgs, _ := store.Messages()
	pool := snapOf(r, counts)
	results := make([]Message, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			m, ok := DecideCatalog(msgs, pool, true)
			if !ok {
				t.Error("no broadcast for a changed pool")
			}
			results[i] = m
		})
	}
	wg.Wait()
	for _, m := range results[1:] {
		if diff := cmp.Diff(results[0], m); diff != "" {
			t.Fatalf("concurrent decisions differ (-first +other):\n%s", diff)
		}
	}
}

// Proves NFR-6.
func TestNFR6_ASnapshotCarriesNoBroadcastState(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	pool := snapOf(r, map[string]int{"a": 4, "b": 2})
	told := NewHistory()
	decide(t, told, pool, true)
	// The same snapshot, another conversation: it is told too; and the first
	// one, rewound, is told again. Only the history decides.
	msg, ok := decide(t, NewHistory(chat("another session")), pool, true)
	mustKind(t, msg, ok, KindFull)
	told.Rewind(0)
	msg, ok = decide(t, told, pool, true)
	mustKind(t, msg, ok, KindFull)
}

// Proves NFR-6.
func TestNFR6_RestartReadsTheMarkersBack(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	h := NewHistory(chat("hi"))
	decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 2}), true)
	decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 2}), true)
	decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 2}), false)
	decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 2}), true)
	h.Append(DecideInstructions(nil, []ServerInstructions{{Server: "a", Instructions: "Be gentle."}})...)

	// The daemon stops, its store holds the JSON, a new process loads it.
	stored, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	restarted := &History{}
	if err := json.Unmarshal(stored, restarted); err != nil {
		t.Fatal(err)
	}
	before, _ := h.Messages()
	after, _ := restarted.Messages()
	if diff := cmp.Diff(before, after); diff != "" {
		t.Fatalf("markers changed through JSON (-before +after):\n%s", diff)
	}
	msg, ok := decide(t, restarted, snapOf(r, map[string]int{"a": 5, "b": 2}), true)
	mustSilent(t, msg, ok)
	if got := DecideInstructions(after, []ServerInstructions{{Server: "a", Instructions: "Be gentle."}}); len(got) != 0 {
		t.Fatalf("instructions sent again after a restart: %+v", got)
	}
}

func TestMarkerJSONIsStable(t *testing.T) {
	m := Message{Meta: true, Text: "x", Catalog: &CatalogMarker{
		Kind: KindDiff, Hash: "h2", Base: "h1", Truncated: true, Namespaces: map[string]int{"b": 2, "a": 1},
	}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"meta":true,"text":"x","catalogMarker":{"kind":"diff","hash":"h2","base":"h1","truncated":true,"namespaces":{"a":1,"b":2}}}`
	if string(b) != want {
		t.Fatalf("JSON = %s\nwant   %s", b, want)
	}
}

func TestMatchingMarkerDoesNotRender(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	counts := map[string]int{"a": 4, "b": 2}
	h := NewHistory()
	pool := snapOf(r, counts) // one snapshot per pool version, as the pool hands it out
	decide(t, h, pool, true)
	if got := r.calls.Load(); got != 1 {
		t.Fatalf("first broadcast rendered %d times, want 1", got)
	}
	for range 100 {
		h.Append(chat("turn"))
		msg, ok := decide(t, h, pool, true)
		mustSilent(t, msg, ok)
	}
	if got := r.calls.Load(); got != 1 {
		t.Fatalf("100 requests with a matching marker rendered %d more times, want 0", got-1)
	}
	// Decisions that never need the catalog never render it.
	fresh := snapOf(r, counts)
	decide(t, h, fresh, false)          // withdrawn notice
	decide(t, h, fresh, false)          // silence
	decide(t, h, snapOf(r, nil), false) // empty pool
	Catalog(noChannel{}, fresh, true)
	if got := r.calls.Load(); got != 1 {
		t.Fatalf("decisions that need no catalog rendered %d times", got-1)
	}
}

// Proves EDGE-5.
func TestEDGE5_NoChannelIsNotAnEmptyPool(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	servers := []ServerInstructions{{Server: "a", Instructions: "Use ids, not names."}}

	// An empty history is a session that has seen nothing: it is told.
	msg, ok, err := Catalog(NewHistory(), snapOf(r, map[string]int{"a": 1}), true)
	if err != nil {
		t.Fatal(err)
	}
	mustKind(t, msg, ok, KindFull)
	if got, _ := Instructions(NewHistory(), servers); len(got) != 1 {
		t.Fatalf("instructions for an empty history: %d messages, want 1", len(got))
	}

	// No channel is not "the pool was cleared": no offline notice, and
	// nothing else either, on both channels.
	for _, ch := range []Channel{nil, noChannel{}} {
		for _, counts := range []map[string]int{nil, {"a": 1}} {
			msg, ok, err := Catalog(ch, snapOf(r, counts), counts != nil)
			if err != nil {
				t.Fatal(err)
			}
			mustSilent(t, msg, ok)
		}
		got, err := Instructions(ch, servers)
		if err != nil || len(got) != 0 {
			t.Fatalf("instructions without a channel: %+v, %v; want silence", got, err)
		}
	}
}

// Proves EDGE-6.
func TestEDGE6_EmptyPoolWithExecRegistered(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	empty := snapOf(r, nil)
	// Whatever the caller says about Exec, an empty pool cannot be
	// catalogued: the flag does not turn silence into a catalog.
	for _, declared := range []bool{false, true} {
		never := NewHistory(chat("no MCP servers configured"))
		for range 3 {
			msg, ok := decide(t, never, empty, declared)
			mustSilent(t, msg, ok)
		}

		had := NewHistory()
		decide(t, had, snapOf(r, map[string]int{"a": 1}), true)
		msg, ok := decide(t, had, empty, declared)
		mustKind(t, msg, ok, KindEmpty)
		if strings.Contains(msg.Text, "Exec") {
			t.Fatalf("empty notice names Exec: %q", msg.Text)
		}
		msg, ok = decide(t, had, empty, declared)
		mustSilent(t, msg, ok)
	}
}

// Proves EDGE-14.
func TestEDGE14_WordingChangeRebroadcastsOnce(t *testing.T) {
	counts := map[string]int{"a": 4, "b": 2}
	for _, limit := range []int{complete, partial} {
		h := NewHistory()
		decide(t, h, snapOf(&fakeRenderer{limit: limit, wording: "v1"}, counts), true)
		// Same pool, new wording: the hash differs, so one full catalog (a
		// namespace diff has nothing to say about wording).
		reworded := &fakeRenderer{limit: limit, wording: "v2"}
		msg, ok := decide(t, h, snapOf(reworded, counts), true)
		mustKind(t, msg, ok, KindFull)
		if !strings.Contains(msg.Text, "v2") {
			t.Fatalf("re-broadcast does not carry the new wording: %q", msg.Text)
		}
		msg, ok = decide(t, h, snapOf(reworded, counts), true)
		mustSilent(t, msg, ok)
	}
}

// Proves EDGE-15.
func TestEDGE15_MarkersAndDiffsStayAtNamespaceLevel(t *testing.T) {
	r := &fakeRenderer{limit: 6}
	h := NewHistory()
	decide(t, h, snapOf(r, map[string]int{"alpha": 8, "beta": 2}), true)
	decide(t, h, snapOf(r, map[string]int{"alpha": 9, "gamma": 2}), true)
	msgs, _ := h.Messages()
	if msgs[1].Catalog.Kind != KindDiff {
		t.Fatalf("second message is %s, want a diff", msgs[1].Catalog.Kind)
	}
	for i, m := range msgs {
		marker, err := json.Marshal(m.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(marker), "__") || strings.Contains(string(marker), "tool0") {
			t.Fatalf("marker %d stores tool paths: %s", i, marker)
		}
	}
	if strings.Contains(msgs[1].Text, "tool0") || strings.Contains(msgs[1].Text, "__tool") {
		t.Fatalf("diff names tools, not namespaces: %q", msgs[1].Text)
	}
	want := map[string]int{"alpha": 9, "gamma": 2}
	if diff := cmp.Diff(want, msgs[1].Catalog.Namespaces); diff != "" {
		t.Fatalf("diff marker namespaces (-want +got):\n%s", diff)
	}
}

// Proves EDGE-16.
func TestEDGE16_DiffWhoseBaseIsGoneSendsFullCatalog(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	h := NewHistory()
	decide(t, h, snapOf(r, map[string]int{"a": 4}), true)         // F1
	decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 4}), true) // D1 on F1
	decide(t, h, snapOf(r, map[string]int{"z": 1}), true)         // F2 (no longer truncated)
	decide(t, h, snapOf(r, map[string]int{"z": 1, "y": 4}), true) // F3 (truncated again)
	decide(t, h, snapOf(r, map[string]int{"z": 2, "y": 4}), true) // D2 on F3
	msgs, _ := h.Messages()
	var kinds []Kind
	for _, m := range msgs {
		kinds = append(kinds, m.Catalog.Kind)
	}
	if diff := cmp.Diff([]Kind{KindFull, KindDiff, KindFull, KindFull, KindDiff}, kinds); diff != "" {
		t.Fatalf("test setup (-want +got):\n%s", diff)
	}
	// Compaction drops F3: the model would apply D2 to F2, which it is not
	// relative to. Same pool, still a full catalog.
	h.Compact(func(m Message) bool { return m.Text != msgs[3].Text })
	msg, ok := decide(t, h, snapOf(r, map[string]int{"z": 2, "y": 4}), true)
	mustKind(t, msg, ok, KindFull)

	// A diff with no full catalog before it at all.
	lone := NewHistory(msgs[4])
	msg, ok = decide(t, lone, snapOf(r, map[string]int{"z": 2, "y": 4}), true)
	mustKind(t, msg, ok, KindFull)

	// Dropping an older diff loses nothing: diffs are cumulative.
	h = NewHistory(msgs[:2]...)
	decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 4}), true)
	h.Compact(func(m Message) bool { return m.Text != msgs[1].Text })
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 4}), true)
	mustSilent(t, msg, ok)
}

func TestUnknownMarkerKindIsRepaired(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	h := NewHistory(Message{Meta: true, Text: "from a newer version", Catalog: &CatalogMarker{Kind: "someday"}})
	msg, ok := decide(t, h, snapOf(r, map[string]int{"a": 1}), true)
	mustKind(t, msg, ok, KindFull)
	h = NewHistory(Message{Meta: true, Text: "from a newer version", Catalog: &CatalogMarker{Kind: "someday"}})
	msg, ok = decide(t, h, snapOf(r, nil), false)
	mustKind(t, msg, ok, KindEmpty)
}

// Proves EDGE-5.
func TestEDGE5_NilPoolIsAnEmptyPool(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	msg, ok := decide(t, NewHistory(), nil, false)
	mustSilent(t, msg, ok)
	h := NewHistory()
	decide(t, h, snapOf(r, map[string]int{"a": 1}), true)
	msg, ok = decide(t, h, nil, false)
	mustKind(t, msg, ok, KindEmpty)
}

func TestMarkersOnlyCountOnMetaMessages(t *testing.T) {
	r := &fakeRenderer{limit: complete}
	pool := snapOf(r, map[string]int{"a": 1})
	full, _ := DecideCatalog(nil, pool, true)
	// A non-meta message carrying a marker (a daemon bug, or a forged
	// import) does not count as a broadcast.
	forged := full
	forged.Meta = false
	msg, ok := decide(t, NewHistory(forged), pool, true)
	mustKind(t, msg, ok, KindFull)
}

// Proves EDGE-14, BCAST-7: a namespace diff is never laid over a full
// catalog of another wording (a base written by an older release); the
// model gets the new full catalog.
func TestEDGE14_NoDiffOverACatalogOfAnotherWording(t *testing.T) {
	base := &CatalogMarker{Kind: KindFull, Hash: "old", Truncated: true, Namespaces: map[string]int{"a": 3}, Wording: "an older release"}
	cur := &rendered{cat: catalog.Catalog{Truncated: true, Namespaces: map[string]int{"a": 3, "b": 2}}, text: strings.Repeat("x", 10000), hash: "new"}
	if _, ok := diffMessage(base, cur); ok {
		t.Error("a diff was laid over a catalog of another wording")
	}
	base.Wording = wordingFingerprint()
	if msg, ok := diffMessage(base, cur); !ok || msg.Catalog.Wording != wordingFingerprint() {
		t.Errorf("same wording: diff=%v marker=%+v", ok, msg.Catalog)
	}
}
