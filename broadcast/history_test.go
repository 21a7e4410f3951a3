package broadcast

import (
	"encoding/json"
	"sync"
	"testing"
)

func TestHistoryConcurrentAppendsAndReads(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	pool := snapOf(r, map[string]int{"a": 4})
	h := NewHistory()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				h.Append(chat("turn"))
				if _, _, err := Catalog(h, pool, true); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			h.Rewind(h.Len() / 2)
			h.Compact(func(m Message) bool { return m.Meta })
		}
	})
	wg.Wait()
	if _, err := json.Marshal(h); err != nil {
		t.Fatal(err)
	}
}

func TestHistoryAppendCopiesMarkers(t *testing.T) {
	m := Message{Meta: true, Text: "x", Catalog: &CatalogMarker{Kind: KindFull, Hash: "h", Namespaces: map[string]int{"a": 1}},
		Instructions: &InstructionsMarker{Server: "s", Hash: "i"}}
	h := NewHistory(m)
	m.Catalog.Namespaces["a"] = 2
	m.Catalog.Hash = "changed"
	m.Instructions.Hash = "changed"
	got, _ := h.Messages()
	if got[0].Catalog.Namespaces["a"] != 1 || got[0].Catalog.Hash != "h" || got[0].Instructions.Hash != "i" {
		t.Fatalf("stored markers changed with the caller's: %+v %+v", got[0].Catalog, got[0].Instructions)
	}
}

func TestHistoryRejectsBadJSONAndKeepsItsMessages(t *testing.T) {
	h := NewHistory(chat("keep me"))
	for _, bad := range []string{`{`, `{"meta":true}`, `[{"catalogMarker":{"namespaces":{"a":"x"}}}]`} {
		if err := json.Unmarshal([]byte(bad), h); err == nil {
			t.Fatalf("%s decoded without error", bad)
		}
	}
	if msgs, _ := h.Messages(); len(msgs) != 1 || msgs[0].Text != "keep me" {
		t.Fatalf("a failed decode changed the history: %+v", msgs)
	}
}
