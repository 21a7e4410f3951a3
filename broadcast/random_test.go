package broadcast

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/catalog"
)

var randomSeed = flag.Uint64("broadcast.seed", 0, "master seed of TestRandomSequences (0 picks one from the clock)")

// The randomized test runs sequences of pool changes, compactions, rewinds,
// Exec flips and restarts, and after every request checks the invariants of
// both the decision and the model's view as read from the message text
// alone. Bounded: sequences x steps requests.
const (
	randomSequences     = 1200 // over the fake renderer
	randomRealSequences = 150  // over the real renderer and recorded tools
	randomSteps         = 16
)

func TestRandomSequences(t *testing.T) {
	seed := *randomSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	master := rand.New(rand.NewPCG(seed, 0))
	worlds := []struct {
		w         *world
		sequences int
	}{
		{fakeWorld(), randomSequences},
		{realWorld(t), randomRealSequences},
	}
	for _, w := range worlds {
		for range w.sequences {
			a, b := master.Uint64(), master.Uint64()
			if err := newSequence(w.w, a, b).run(randomSteps); err != nil {
				// Replay the same sequence, this time keeping its log.
				replay := newSequence(w.w, a, b)
				replay.verbose = true
				replay.run(randomSteps)
				t.Fatalf("%s renderer: rerun with -run TestRandomSequences -broadcast.seed=%d\n%v\nsteps:\n%s",
					w.w.name, seed, err, strings.Join(replay.log, "\n"))
			}
		}
		// The generator must reach every kind of message, or the
		// invariants above were checked on too little.
		t.Logf("%s renderer: sent %v", w.w.name, w.w.sent)
		for _, k := range []Kind{KindFull, KindDiff, KindEmpty, KindWithdrawn} {
			if w.w.sent[k] == 0 {
				t.Errorf("%s renderer: no %s message in %d sequences (seed %d)", w.w.name, k, w.sequences, seed)
			}
		}
	}
}

// world is a pool universe: how namespace counts become tools, and the
// renderer variants a sequence can switch between (a new release with other
// wording or another budget renders the same pool differently, EDGE-14).
// Renderings are memoized across sequences so the test spends its time on
// decisions; every sequence still takes a fresh Snapshot per request.
type world struct {
	name     string
	variants int
	tools    func(counts map[string]int) []catalog.Tool
	render   func(variant int, tools []catalog.Tool) catalog.Catalog

	pools   map[string][]catalog.Tool
	renders map[string]catalog.Catalog
	// sent counts the messages of each kind the sequences broadcast.
	sent map[Kind]int
	// rendered maps every full catalog text the test saw to its catalog:
	// the test's own memory of what a message meant, independent of the
	// markers.
	rendered map[string]catalog.Catalog
}

func newWorld(name string, variants int, tools func(map[string]int) []catalog.Tool, render func(int, []catalog.Tool) catalog.Catalog) *world {
	return &world{
		name: name, variants: variants, tools: tools, render: render,
		pools:    map[string][]catalog.Tool{},
		renders:  map[string]catalog.Catalog{},
		rendered: map[string]catalog.Catalog{},
		sent:     map[Kind]int{},
	}
}

// fakeWorld renders with the fake renderer: limits from 2 to 7 tools, two
// wordings.
func fakeWorld() *world {
	return newWorld("fake", 12, poolOf, func(variant int, tools []catalog.Tool) catalog.Catalog {
		r := &fakeRenderer{limit: 2 + variant%6, wording: "v" + strconv.Itoa(variant/6)}
		return r.Render(tools)
	})
}

// realWorld renders recorded tools with the real catalog renderer at
// several budgets, small enough for pools of a few servers to flip between
// complete and truncated. Namespace sN takes its tools from the N-th
// recorded server.
func realWorld(tb testing.TB) *world {
	files := strings.Fields("antv-chart azure-devops azure brave-search browsermcp chrome-devtools circleci cloudflare " +
		"datadog desktop-commander ea-playwright everything filesystem firecrawl github-go-default github-legacy-npm")
	recorded := make([][]catalog.Tool, len(files))
	for i, f := range files {
		recorded[i] = recordedTools(tb, f)
	}
	budgets := []int{150, 400, 1000, 2500}
	renderers := make([]*catalog.Renderer, len(budgets))
	for i, b := range budgets {
		renderers[i] = catalog.NewRenderer(catalog.Options{Budget: b})
	}
	return newWorld("real", len(budgets), func(counts map[string]int) []catalog.Tool {
		var tools []catalog.Tool
		for _, ns := range slices.Sorted(maps.Keys(counts)) {
			n, _ := strconv.Atoi(strings.TrimPrefix(ns, "s"))
			for _, t := range recorded[n%len(recorded)][:counts[ns]] {
				_, tool, _ := strings.Cut(strings.TrimPrefix(t.Name, "mcp__"), "__")
				t.Name = "mcp__" + ns + "__" + tool
				tools = append(tools, t)
			}
		}
		return tools
	}, func(variant int, tools []catalog.Tool) catalog.Catalog {
		return renderers[variant].Render(tools)
	})
}

// sequence is one random conversation and its pool.
type sequence struct {
	w       *world
	rng     *rand.Rand
	variant int
	history *History
	counts  map[string]int
	execOn  bool
	verbose bool
	log     []string
}

func newSequence(w *world, a, b uint64) *sequence {
	rng := rand.New(rand.NewPCG(a, b))
	return &sequence{
		w:       w,
		rng:     rng,
		variant: rng.IntN(w.variants),
		history: NewHistory(),
		counts:  map[string]int{},
		execOn:  true,
	}
}

// snapshot returns a fresh snapshot of the current pool, as the pool hands
// out a new one for every change.
func (s *sequence) snapshot() *Snapshot {
	poolKey := fmt.Sprint(s.counts) // fmt prints maps sorted by key
	tools, ok := s.w.pools[poolKey]
	if !ok {
		tools = s.w.tools(s.counts)
		s.w.pools[poolKey] = tools
	}
	key := strconv.Itoa(s.variant) + poolKey
	return NewSnapshot(tools, func(tools []catalog.Tool) catalog.Catalog {
		c, ok := s.w.renders[key]
		if !ok {
			c = s.w.render(s.variant, tools)
			s.w.renders[key] = c
		}
		c.Namespaces = maps.Clone(c.Namespaces)
		return c
	})
}

func (s *sequence) logf(format string, args ...any) {
	if !s.verbose {
		return
	}
	s.log = append(s.log, fmt.Sprintf(format, args...))
}

func (s *sequence) run(steps int) error {
	for step := range steps {
		s.mutate()
		if err := s.request(step); err != nil {
			return err
		}
	}
	return nil
}

// mutate applies one random event between two requests.
func (s *sequence) mutate() {
	switch op := s.rng.IntN(12); op {
	case 0, 1, 2: // a server connects, disconnects or changes its tools
		ns := "s" + strconv.Itoa(s.rng.IntN(8))
		if n := s.rng.IntN(7); n == 0 {
			delete(s.counts, ns)
		} else {
			s.counts[ns] = n
		}
		s.logf("pool %v", s.counts)
	case 3: // the whole pool goes away or is replaced
		s.counts = map[string]int{}
		for range s.rng.IntN(3) {
			s.counts["s"+strconv.Itoa(8+s.rng.IntN(8))] = 1 + s.rng.IntN(6)
		}
		s.logf("pool replaced %v", s.counts)
	case 4: // the switch flips, or Exec is excluded / allowed again
		s.execOn = !s.execOn
		s.logf("exec switch %v", s.execOn)
	case 5: // compaction drops a prefix
		n := s.rng.IntN(s.history.Len() + 1)
		msgs, _ := s.history.Messages()
		s.history = NewHistory(msgs[n:]...)
		s.logf("compact prefix %d", n)
	case 6: // compaction drops one catalog-channel message
		msgs, _ := s.history.Messages()
		var idx []int
		for i, m := range msgs {
			if m.Catalog != nil {
				idx = append(idx, i)
			}
		}
		if len(idx) > 0 {
			drop := idx[s.rng.IntN(len(idx))]
			s.history = NewHistory(slices.Delete(slices.Clone(msgs), drop, drop+1)...)
			s.logf("compact message %d", drop)
		}
	case 7: // rewind
		n := s.rng.IntN(s.history.Len() + 1)
		s.history.Rewind(n)
		s.logf("rewind to %d", n)
	case 8: // restart: the store is serialised and read back
		b, _ := json.Marshal(s.history)
		s.history = &History{}
		_ = json.Unmarshal(b, s.history)
		s.logf("restart")
	case 9: // a new release renders with other wording or another budget
		s.variant = s.rng.IntN(s.w.variants)
		s.logf("renderer variant %d", s.variant)
	default: // the conversation goes on
		s.history.Append(chat("turn"))
	}
}

// request assembles one request: decide, check, append, check again.
func (s *sequence) request(step int) error {
	pool := s.snapshot()
	declared := s.execOn && len(s.counts) > 0
	before, _ := s.history.Messages()
	kept := cloneMessages(before)
	prev := lastCatalogMessage(before)

	msg, ok, err := Catalog(s.history, pool, declared)
	if err != nil {
		return err
	}
	s.logf("request %d: declared=%v sent=%v %s", step, declared, ok, kindOf(msg, ok))
	if !equalMessages(before, kept) {
		return fmt.Errorf("BCAST-4: deciding modified the history")
	}
	var cur catalog.Catalog
	if !pool.Empty() {
		cur = pool.Catalog()
		s.w.rendered[fullText(cur.Body)] = cur
	}
	if ok {
		if !msg.Meta {
			return fmt.Errorf("broadcast a non-meta message")
		}
		if msg.Catalog.Kind != KindFull && msg.Catalog.Kind != KindDiff && strings.Contains(msg.Text, "Exec") {
			return fmt.Errorf("EDGE-6: a notice names Exec: %q", msg.Text)
		}
		if msg.Catalog.Kind == KindDiff {
			if full := fullText(cur.Body); len(msg.Text) >= len(full) {
				return fmt.Errorf("BCAST-8: a diff of %d bytes instead of the full catalog of %d", len(msg.Text), len(full))
			}
		}
		s.history.Append(msg)
		s.w.sent[msg.Catalog.Kind]++
	}
	after, _ := s.history.Messages()
	if !equalMessages(after[:len(before)], kept) {
		return fmt.Errorf("BCAST-4: earlier messages changed")
	}

	switch {
	case prev == nil && pool.Empty() && ok:
		return fmt.Errorf("BCAST-3: a session without a catalog was told about an empty pool: %q", msg.Text)
	case prev != nil && isCatalogText(prev.Text) && !declared && !ok:
		return fmt.Errorf("BCAST-10/11: a catalog the model holds was not withdrawn")
	}
	if err := s.checkView(after, cur, declared); err != nil {
		return err
	}
	// BCAST-5: the state just reached is not broadcast again.
	if again, ok, _ := Catalog(s.history, pool, declared); ok {
		return fmt.Errorf("BCAST-5: repeated %s right after it was sent: %q", kindOf(again, ok), again.Text)
	}
	return nil
}

// checkView reads the model's view from the message texts, as the model
// does: the latest full catalog plus the latest update after it, reset by a
// notice. With Exec declared it must equal the current catalog; without,
// the model must hold no catalog.
func (s *sequence) checkView(history []Message, cur catalog.Catalog, declared bool) error {
	last := lastCatalogMessage(history)
	if !declared {
		if last != nil && isCatalogText(last.Text) {
			return fmt.Errorf("Exec not declared, yet the model's last word is a catalog: %.80q", last.Text)
		}
		return nil
	}
	if last == nil {
		return fmt.Errorf("BCAST-2/6: Exec declared and no catalog in the history")
	}
	want := fullText(cur.Body)
	if strings.HasPrefix(last.Text, fullLead) {
		if last.Text != want {
			return fmt.Errorf("the latest full catalog is not the current one:\n got %q\nwant %q", last.Text, want)
		}
		return nil
	}
	if !strings.HasPrefix(last.Text, diffLead) {
		return fmt.Errorf("Exec declared and the model's last word is a notice: %q", last.Text)
	}
	base := baseOfDiff(history)
	if base == nil {
		return fmt.Errorf("BCAST-7/EDGE-16: a diff is the model's view but no full catalog precedes it")
	}
	baseCat, known := s.w.rendered[base.Text]
	if !known {
		return fmt.Errorf("the base full catalog is not one the test rendered")
	}
	if !baseCat.Truncated || !cur.Truncated {
		return fmt.Errorf("BCAST-9: a diff across complete catalogs (base truncated %v, now %v)", baseCat.Truncated, cur.Truncated)
	}
	got, err := applyDiffText(baseCat.Namespaces, last.Text)
	if err != nil {
		return err
	}
	if diff := cmp.Diff(cur.Namespaces, got); diff != "" {
		return fmt.Errorf("the model's view differs from the pool (-pool +view):\n%s", diff)
	}
	return nil
}

// lastCatalogMessage returns the latest catalog-channel message, classified
// by its text.
func lastCatalogMessage(history []Message) *Message {
	for i := len(history) - 1; i >= 0; i-- {
		if m := history[i]; m.Meta && (isCatalogText(m.Text) || isNoticeText(m.Text)) {
			return &history[i]
		}
	}
	return nil
}

func isCatalogText(text string) bool {
	return strings.HasPrefix(text, fullLead) || strings.HasPrefix(text, diffLead)
}

func isNoticeText(text string) bool { return text == emptyNotice || text == withdrawnNotice }

// baseOfDiff returns the full catalog the model applies the last diff to:
// the latest full catalog, provided no notice comes after it.
func baseOfDiff(history []Message) *Message {
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		switch {
		case !m.Meta:
		case strings.HasPrefix(m.Text, fullLead):
			return &history[i]
		case isNoticeText(m.Text):
			return nil
		}
	}
	return nil
}

// applyDiffText applies an update's text to base, as the model reads it.
func applyDiffText(base map[string]int, text string) (map[string]int, error) {
	out := maps.Clone(base)
	section := ""
	for _, line := range strings.Split(strings.TrimPrefix(text, diffLead), "\n") {
		if !strings.HasPrefix(line, "- mcp__") {
			section = line + "\n"
			continue
		}
		ns, rest, _ := strings.Cut(strings.TrimPrefix(line, "- mcp__"), " ")
		switch section {
		case diffRemovedHeader:
			if _, ok := out[ns]; !ok {
				return nil, fmt.Errorf("diff removes %q, which the base does not have", ns)
			}
			delete(out, ns)
		case diffAddedHeader, diffChangedHeader:
			var n int
			if _, err := fmt.Sscanf(rest, "(%d", &n); err != nil {
				return nil, fmt.Errorf("unreadable diff line %q", line)
			}
			if _, had := out[ns]; had != (section == diffChangedHeader) {
				return nil, fmt.Errorf("diff line %q under %q contradicts the base", line, section)
			}
			out[ns] = n
		default:
			return nil, fmt.Errorf("diff line %q outside a section", line)
		}
	}
	return out, nil
}

func kindOf(m Message, ok bool) string {
	if !ok {
		return "-"
	}
	return string(m.Catalog.Kind)
}

// cloneMessages deep-copies msgs, markers included.
func cloneMessages(msgs []Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		out[i] = copyMessage(m)
	}
	return out
}

func equalMessages(a, b []Message) bool {
	return slices.EqualFunc(a, b, func(x, y Message) bool {
		return x.Meta == y.Meta && x.Text == y.Text &&
			equalMarkers(x.Catalog, y.Catalog) && equalPtr(x.Instructions, y.Instructions)
	})
}

func equalMarkers(a, b *CatalogMarker) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Hash == b.Hash && a.Base == b.Base &&
		a.Truncated == b.Truncated && maps.Equal(a.Namespaces, b.Namespaces)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
