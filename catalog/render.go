package catalog

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// DefaultBudget is the catalog budget in estimated tokens (characters / 4)
// when Options.Budget is 0. It is priced like opencode's catalog budget
// (whole entries at chars/4, summary lines outside it), sized for EDGE-13:
// opencode's 2000 holds about a third of the reference MCP servers' 100
// tools with a renderer as faithful as this one, while 4000 holds several
// dozen of them completely. Larger pools are truncated explicitly.
const DefaultBudget = 4000

// Options configure rendering.
type Options struct {
	// Budget is the token budget for catalog entries; 0 means DefaultBudget.
	// It is a tuning parameter and never appears in the output (CAT-6).
	Budget int
}

func (o Options) budget() int {
	if o.Budget <= 0 {
		return DefaultBudget
	}
	return o.Budget
}

// Render renders the catalog of a pool. It is pure: the same pool, in any
// order, gives the same bytes (CAT-8).
func Render(tools []Tool, opts Options) Catalog {
	return NewRenderer(opts).Render(tools)
}

// Renderer renders catalogs and keeps each tool's rendered block, keyed by
// the tool's content, so rebuilding after one server changes renders only
// that server's tools again. It is safe for concurrent use.
type Renderer struct {
	budget int

	mu    sync.Mutex
	cache map[string]*entry // by tool name; the entry holds the tool it rendered
}

// NewRenderer returns a Renderer with the given options.
func NewRenderer(opts Options) *Renderer {
	return &Renderer{budget: opts.budget(), cache: map[string]*entry{}}
}

// Render renders the catalog of tools (see Render).
func (r *Renderer) Render(tools []Tool) Catalog {
	return assemble(r.entries(tools), r.budget)
}

// parallelThreshold is the number of uncached tools from which rendering is
// spread over several goroutines.
const parallelThreshold = 64

// entries returns the rendered entry of every tool, from the cache where the
// tool's content is unchanged. The cache is then replaced by exactly the
// entries of this pool, so it never outgrows the pools it serves.
func (r *Renderer) entries(tools []Tool) []*entry {
	out := make([]*entry, len(tools))
	var missing []int
	r.mu.Lock()
	for i, t := range tools {
		if e, ok := r.cache[t.Name]; ok && sameTool(e.tool, t) {
			out[i] = e
		} else {
			missing = append(missing, i)
		}
	}
	r.mu.Unlock()

	renderAll(tools, missing, out)

	next := make(map[string]*entry, len(tools))
	for _, e := range out {
		next[e.tool.Name] = e
	}
	r.mu.Lock()
	r.cache = next
	r.mu.Unlock()
	return out
}

// renderAll renders tools[i] into out[i] for every i in idx, in parallel
// when there are many.
func renderAll(tools []Tool, idx []int, out []*entry) {
	workers := min(runtime.GOMAXPROCS(0), len(idx)/parallelThreshold+1)
	if workers <= 1 {
		var sc scratch
		for _, i := range idx {
			out[i] = renderEntry(tools[i], &sc)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc scratch
			for k := w; k < len(idx); k += workers {
				out[idx[k]] = renderEntry(tools[idx[k]], &sc)
			}
		}()
	}
	wg.Wait()
}

func sameTool(a, b Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Observed == b.Observed && a.Task == b.Task &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.OutputSchema, b.OutputSchema)
}

// group is one grouping key's entries, cheapest first (CAT-13).
type group struct {
	key     string
	header  string
	entries []*entry
	shown   int
	// noted is how many of the shown entries carry their observed note:
	// the first noted entries that have one.
	noted int
}

// groupEntries groups entries by Namespace, groups in key order, entries by
// block cost, then name, then bytes, so neither the pool's order nor the
// servers' listing order leaks into the output (CAT-8, CAT-13).
func groupEntries(entries []*entry) []*group {
	byKey := map[string]*group{}
	var groups []*group
	for _, e := range entries {
		key := Namespace(e.tool.Name)
		g, ok := byKey[key]
		if !ok {
			g = &group{key: key, header: "\n" + groupHeaderPrefix + "mcp__" + key + "\n"}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.entries = append(g.entries, e)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].key < groups[j].key })
	for _, g := range groups {
		sort.Slice(g.entries, func(i, j int) bool { return entryLess(g.entries[i], g.entries[j]) })
	}
	return groups
}

func entryLess(a, b *entry) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.tool.Name != b.tool.Name {
		return a.tool.Name < b.tool.Name
	}
	return a.block < b.block
}

// seat chooses the shown entries by rotation (CAT-5): each round offers
// every group its next entry, cheapest first; an entry is taken when it fits
// in what is left of the budget, together with its group header when it is
// the group's first. A group whose next entry does not fit is done, since
// its later entries cost at least as much. When nothing fits at all, the
// cheapest entry of the pool is shown anyway (CAT-7). It returns the budget
// used.
func seat(groups []*group, budget int) int {
	used := rotate(groups, budget, 0, func(g *group) (int, bool) {
		if g.shown == len(g.entries) {
			return 0, false
		}
		cost := g.entries[g.shown].cost
		if g.shown == 0 {
			cost += estimateTokens(g.header)
		}
		return cost, true
	}, func(g *group) { g.shown++ })
	if used > 0 {
		return used
	}
	var best *group
	for _, g := range groups {
		if best == nil || entryLess(g.entries[0], best.entries[0]) {
			best = g
		}
	}
	if best != nil {
		best.shown = 1
	}
	return budget
}

// seatNotes gives shown entries their observed notes with what the
// signatures left of the budget, by the same rotation: signatures come
// before notes, so learning what tools return never pushes a tool out of
// the catalog. A group's notes stop at the first that does not fit.
func seatNotes(groups []*group, budget, used int) {
	rotate(groups, budget, used, func(g *group) (int, bool) {
		for g.noted < g.shown && g.entries[g.noted].note == "" {
			g.noted++
		}
		if g.noted == g.shown {
			return 0, false
		}
		return g.entries[g.noted].noteCost, true
	}, func(g *group) { g.noted++ })
}

// rotate seats items one group at a time, round after round, while they fit
// the budget: a group drops out when it has nothing left (next reports
// false) or at its first item that does not fit. next gives the cost of a
// group's next item, take seats it. It returns the budget used.
func rotate(groups []*group, budget, used int, next func(*group) (int, bool), take func(*group)) int {
	open := make([]bool, len(groups))
	for i := range open {
		open[i] = true
	}
	for progress := true; progress; {
		progress = false
		for i, g := range groups {
			if !open[i] {
				continue
			}
			cost, ok := next(g)
			if !ok || used+cost > budget {
				open[i] = false
				continue
			}
			used += cost
			take(g)
			progress = true
		}
	}
	return used
}

// assemble lays out the catalog body from rendered entries.
func assemble(entries []*entry, budget int) Catalog {
	cat := Catalog{Total: len(entries), Namespaces: map[string]int{}}
	if len(entries) == 0 {
		cat.Body = emptyBodyText
		return cat
	}
	groups := groupEntries(entries)
	seatNotes(groups, budget, seat(groups, budget))

	var b strings.Builder
	b.WriteString(leadText)
	b.WriteByte('\n')
	for _, g := range groups {
		cat.Namespaces[g.key] = len(g.entries)
		cat.Shown += g.shown
		if g.shown == 0 {
			continue
		}
		b.WriteString(g.header)
		for i, e := range g.entries[:g.shown] {
			b.WriteString(e.block)
			if i < g.noted {
				b.WriteString(e.note)
			}
		}
	}
	cat.Truncated = cat.Shown < cat.Total
	if cat.Truncated {
		writeTruncationTail(&b, groups, cat.Shown, cat.Total)
	}
	cat.Body = strings.TrimRight(b.String(), "\n")
	return cat
}

// writeTruncationTail writes what only a truncated catalog carries: one
// summary line per server (CAT-10), the search section (CAT-12) and the
// PARTIAL line (CAT-4). None of it is charged to the budget.
func writeTruncationTail(b *strings.Builder, groups []*group, shown, total int) {
	b.WriteString("\n")
	b.WriteString(summaryIntroText)
	b.WriteByte('\n')
	for _, g := range groups {
		b.WriteString(summaryLineFor(g))
		b.WriteByte('\n')
	}
	b.WriteString("\n")
	b.WriteString(searchIntroText)
	b.WriteByte('\n')
	b.WriteString(searchSignature())
	b.WriteString("\n\n")
	fmt.Fprintf(b, partialFormat, shown, total)
}

func summaryLineFor(g *group) string {
	count := fmt.Sprintf(toolCountFormat, len(g.entries))
	if len(g.entries) == 1 {
		count = toolCountOne
	}
	switch g.shown {
	case len(g.entries):
		return fmt.Sprintf(summaryAllFormat, g.key, count)
	case 0:
		return fmt.Sprintf(summaryNoneFormat, g.key, count)
	default:
		return fmt.Sprintf(summarySomeFormat, g.key, count, g.shown)
	}
}
