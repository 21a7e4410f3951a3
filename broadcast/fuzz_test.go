package broadcast

import (
	"encoding/json"
	"testing"
)

// FuzzDecideOverStoredHistory feeds arbitrary stored histories (a damaged
// or hostile conversation store) to both channels: no panic, and a decision
// that stays consistent: after appending it, the next one is silent.
func FuzzDecideOverStoredHistory(f *testing.F) {
	r := &fakeRenderer{limit: partial}
	seed := NewHistory(chat("hi"))
	for _, counts := range []map[string]int{{"a": 4, "b": 1}, {"a": 5, "b": 1}} {
		msgs, _ := seed.Messages()
		if msg, ok := DecideCatalog(msgs, snapOf(r, counts), true); ok {
			seed.Append(msg)
		}
	}
	seedJSON, _ := json.Marshal(seed)
	f.Add(seedJSON, true)
	f.Add([]byte(`[{"meta":true,"catalogMarker":{"kind":"diff","base":"x"}},{"meta":true,"catalogMarker":{"kind":"withdrawn"}}]`), false)
	f.Add([]byte(`[{"meta":true,"catalogMarker":{"kind":"full","namespaces":{"a":-1}}},{"meta":true,"instructionsMarker":{}}]`), true)

	f.Fuzz(func(t *testing.T, stored []byte, declared bool) {
		h := &History{}
		if json.Unmarshal(stored, h) != nil {
			return
		}
		pool := snapOf(r, map[string]int{"a": 5, "b": 1})
		if msg, ok := decide(t, h, pool, declared); ok && msg.Catalog == nil {
			t.Fatal("a catalog message without a marker")
		}
		if msg, ok := decide(t, h, pool, declared); ok {
			t.Fatalf("decided %s twice in a row", msg.Catalog.Kind)
		}
		servers := []ServerInstructions{{Server: "a", Instructions: "hi"}}
		first, _ := Instructions(h, servers)
		h.Append(first...)
		if again, _ := Instructions(h, servers); len(again) != 0 {
			t.Fatal("instructions sent twice in a row")
		}
	})
}
