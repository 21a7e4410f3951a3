package broadcast

import (
	"testing"

	"github.com/mcpexec/mcpexec/catalog"
)

// benchHistory builds a 2,000-message history holding 50 catalog messages
// (full catalogs and diffs, as real pool changes produce them) over
// recorded servers, and returns it with the pools it went through; the last
// pool is the one the history's latest marker matches.
func benchHistory(b *testing.B, renderer *catalog.Renderer) (*History, [][]catalog.Tool) {
	b.Helper()
	all := recordedTools(b, "github-go-default", "filesystem", "firecrawl", "chrome-devtools", "datadog", "memory")
	servers := []string{"github", "filesystem", "firecrawl", "chrome-devtools", "datadog", "memory"}
	var pools [][]catalog.Tool
	for i := range 50 {
		switch {
		case i%10 == 4: // a small pool: complete, so the next is a full catalog
			pools = append(pools, recordedTools(b, "memory"))
		default: // one server away: a diff against the latest full catalog
			pools = append(pools, withoutServer(all, servers[i%len(servers)]))
		}
	}
	h := NewHistory()
	sent := 0
	for i, tools := range pools {
		for h.Len() < (i+1)*40-1 {
			h.Append(chat("a user or assistant message"))
		}
		msg, ok := DecideCatalog(mustMessages(b, h), NewSnapshot(tools, renderer.Render), true)
		if !ok {
			b.Fatalf("pool %d broadcast nothing", i)
		}
		h.Append(msg)
		sent++
	}
	if h.Len() != 2000 || sent != 50 {
		b.Fatalf("history of %d messages with %d catalog messages, want 2000 and 50", h.Len(), sent)
	}
	return h, pools
}

func mustMessages(tb testing.TB, ch Channel) []Message {
	msgs, err := ch.Messages()
	if err != nil {
		tb.Fatal(err)
	}
	return msgs
}

func BenchmarkCatalogDecision(b *testing.B) {
	renderer := catalog.NewRenderer(catalog.Options{})
	h, pools := benchHistory(b, renderer)
	current := pools[len(pools)-1]
	// rendered returns a snapshot already rendered, as the pool hands out one
	// per pool snapshot to every request assembled from it.
	rendered := func(tools []catalog.Tool) func() *Snapshot {
		s := NewSnapshot(tools, renderer.Render)
		s.Catalog()
		return func() *Snapshot { return s }
	}
	cases := []struct {
		name     string
		pool     func() *Snapshot
		declared bool
		want     Kind // "" for nothing
	}{
		{"marker-matches", rendered(current), true, ""},
		// What the memo saves: a new snapshot per request renders again.
		{"marker-matches-fresh-snapshot", func() *Snapshot { return NewSnapshot(current, renderer.Render) }, true, ""},
		{"server-left-diff", rendered(withoutServer(current, "firecrawl")), true, KindDiff},
		{"truncation-flip-full", rendered(pools[4]), true, KindFull},
		{"exec-not-declared", rendered(current), false, KindWithdrawn},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				msg, ok, _ := Catalog(h, c.pool(), c.declared)
				if got := kindOf(msg, ok); got != string(c.want) && !(c.want == "" && got == "-") {
					b.Fatalf("decided %s, want %q", got, c.want)
				}
			}
		})
	}
}

// BenchmarkReadViewWorstCase scans the whole history: the only full catalog
// is the first message and 49 diffs follow it.
func BenchmarkReadViewWorstCase(b *testing.B) {
	full := Message{Meta: true, Text: "full", Catalog: &CatalogMarker{Kind: KindFull, Hash: "base", Truncated: true}}
	msgs := []Message{full}
	for len(msgs) < 2000 {
		if len(msgs)%40 == 0 {
			msgs = append(msgs, Message{Meta: true, Text: "diff", Catalog: &CatalogMarker{Kind: KindDiff, Hash: "h", Base: "base", Truncated: true}})
		} else {
			msgs = append(msgs, chat("a user or assistant message"))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if v := readView(msgs); v.state != viewCatalog {
			b.Fatal("view not read")
		}
	}
}

func BenchmarkInstructionsDecision(b *testing.B) {
	h, _ := benchHistory(b, catalog.NewRenderer(catalog.Options{}))
	servers := recordedInstructions(b, "github-go-all", "context7", "firecrawl", "supabase", "nx", "azure")
	msgs, _ := Instructions(h, servers)
	h.Append(msgs...)
	b.ReportAllocs()
	for b.Loop() {
		if got, _ := Instructions(h, servers); len(got) != 0 {
			b.Fatal("instructions repeated")
		}
	}
}
