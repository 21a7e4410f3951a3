package broadcast

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
)

// recordedInstructions returns the initialize instructions of real servers.
func recordedInstructions(t testing.TB, files ...string) []ServerInstructions {
	t.Helper()
	var out []ServerInstructions
	for _, f := range files {
		p, err := fixtures.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if p.Instructions == nil {
			t.Fatalf("fixture %s has no instructions", f)
		}
		out = append(out, ServerInstructions{Server: p.Server, Instructions: *p.Instructions})
	}
	return out
}

// Proves EDGE-25.
func TestEDGE25_InstructionsSentVerbatimWhenServerBecomesAvailable(t *testing.T) {
	servers := recordedInstructions(t, "github-go-all", "context7", "firecrawl")
	h := NewHistory(chat("hi"))

	got, err := Instructions(h, servers[:1])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d messages for one available server, want 1", len(got))
	}
	m := got[0]
	if !m.Meta || m.Catalog != nil || m.Instructions == nil || m.Instructions.Server != servers[0].Server {
		t.Fatalf("message = %+v, want a meta message with its own marker only", m)
	}
	// Never trimmed: the longest recorded instructions arrive whole.
	if !strings.HasSuffix(m.Text, servers[0].Instructions) || len(servers[0].Instructions) < 6000 {
		t.Fatalf("instructions not carried verbatim (%d of %d bytes)", len(m.Text), len(servers[0].Instructions))
	}
	if !strings.Contains(m.Text, `"`+servers[0].Server+`"`) {
		t.Fatalf("message does not name its server: %q", m.Text[:80])
	}
	h.Append(got...)

	// Two more servers connect: one message each, in name order; the first
	// is not repeated.
	got, _ = Instructions(h, []ServerInstructions{servers[2], servers[0], servers[1]})
	if len(got) != 2 || got[0].Instructions.Server != "context7" || got[1].Instructions.Server != "firecrawl" {
		t.Fatalf("got %d messages %+v, want context7 then firecrawl", len(got), got)
	}
	h.Append(got...)
	if again, _ := Instructions(h, servers); len(again) != 0 {
		t.Fatalf("instructions repeated: %d messages", len(again))
	}
	// A server that goes away is not announced on this channel, and when it
	// comes back its instructions are still in the history.
	if again, _ := Instructions(h, servers[1:]); len(again) != 0 {
		t.Fatalf("a server going away produced %d messages", len(again))
	}
	if again, _ := Instructions(h, servers); len(again) != 0 {
		t.Fatalf("a returning server's unchanged instructions were repeated")
	}
}

// Proves EDGE-25.
func TestEDGE25_InstructionsSelfHeal(t *testing.T) {
	servers := recordedInstructions(t, "supabase", "nx")
	h := NewHistory()
	first, _ := Instructions(h, servers)
	h.Append(first...)

	// Compaction drops one of them: only that one is sent again.
	h.Compact(func(m Message) bool { return m.Instructions == nil || m.Instructions.Server != "nx" })
	got, _ := Instructions(h, servers)
	if len(got) != 1 || got[0].Instructions.Server != "nx" || got[0].Text != first[0].Text {
		t.Fatalf("after compaction got %+v, want nx's message again", got)
	}
	h.Append(got...)

	// The server changes its instructions: the new ones are sent.
	changed := []ServerInstructions{servers[0], {Server: servers[1].Server, Instructions: servers[1].Instructions + "\nNew caveat."}}
	got, _ = Instructions(h, changed)
	if len(got) != 1 || !strings.HasSuffix(got[0].Text, "New caveat.") {
		t.Fatalf("changed instructions: got %+v", got)
	}
}

// Proves EDGE-25.
func TestEDGE25_ChannelsDoNotReadEachOthersMarkers(t *testing.T) {
	r := &fakeRenderer{limit: complete}
	pool := snapOf(r, map[string]int{"supabase": 2})
	servers := recordedInstructions(t, "supabase")

	// Instructions in history do not count as a catalog...
	h := NewHistory()
	instr, _ := Instructions(h, servers)
	h.Append(instr...)
	msg, ok := decide(t, h, pool, true)
	mustKind(t, msg, ok, KindFull)
	// ...and a catalog does not count as instructions, even when a daemon
	// stores both markers on one message.
	both := msg
	both.Instructions = &InstructionsMarker{Server: "other", Hash: "x"}
	h2 := NewHistory(both)
	if got, _ := Instructions(h2, servers); len(got) != 1 {
		t.Fatalf("a catalog message suppressed the instructions: %d messages", len(got))
	}
	// Removing every instructions message leaves the catalog state alone.
	h.Compact(func(m Message) bool { return m.Instructions == nil })
	msg, ok = decide(t, h, pool, true)
	mustSilent(t, msg, ok)
}

// Proves EDGE-25.
func TestEDGE25_NothingToSayIsSilence(t *testing.T) {
	h := NewHistory()
	for _, s := range []ServerInstructions{{Server: "a"}, {Server: "b", Instructions: " \n\t"}} {
		if got, _ := Instructions(h, []ServerInstructions{s}); len(got) != 0 {
			t.Fatalf("empty instructions of %q produced %+v", s.Server, got)
		}
	}
	readErr := errors.New("disk gone")
	got, err := Instructions(failingChannel{readErr}, recordedInstructions(t, "nx"))
	if len(got) != 0 || !errors.Is(err, readErr) {
		t.Fatalf("unreadable channel: %+v, %v; want silence and the read error", got, err)
	}
	// The same server listed twice is sent once.
	dup := recordedInstructions(t, "nx", "nx")
	if got, _ := Instructions(h, dup); len(got) != 1 {
		t.Fatalf("duplicate server: %d messages, want 1", len(got))
	}
}

// Proves EDGE-25: each instructions message replaces the server's earlier
// ones, so instructions that change and change back are sent again.
func TestEDGE25_InstructionsChangedBackAreSentAgain(t *testing.T) {
	h := NewHistory()
	for i, text := range []string{"Use A.", "Use B.", "Use A."} {
		msgs, _ := Instructions(h, []ServerInstructions{{Server: "srv", Instructions: text}})
		if len(msgs) != 1 || !strings.HasSuffix(msgs[0].Text, text) {
			t.Fatalf("step %d (%q): %d messages", i, text, len(msgs))
		}
		h.Append(msgs...)
	}
	if msgs, _ := Instructions(h, []ServerInstructions{{Server: "srv", Instructions: "Use A."}}); len(msgs) != 0 {
		t.Errorf("unchanged instructions sent again: %v", msgs)
	}
}
