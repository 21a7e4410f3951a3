package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFixtureCatalogInvariants checks, over every recorded pool and several
// budgets, what must hold of any catalog: the budget is respected (but for
// the single-entry case), X and Y are right, every server is named when
// truncated, entries are ordered by cost, and the output does not depend on
// the pool's order.
func TestFixtureCatalogInvariants(t *testing.T) {
	pools := loadPools(t)
	budgets := []int{DefaultBudget, 500, 60}
	for _, p := range pools {
		t.Run(p.File, func(t *testing.T) {
			tools := fixtureTools(p)
			r := NewRenderer(Options{})
			entries := r.entries(tools)
			byName := map[string]*entry{}
			for _, e := range entries {
				byName[e.tool.Name] = e
			}
			for _, budget := range budgets {
				c := assemble(entries, budget)
				checkCatalog(t, c, tools, byName, budget)
			}
			// Byte-stable across runs and pool orders (CAT-8).
			want := Render(tools, Options{Budget: 500}).Body
			reversed := slices.Clone(tools)
			slices.Reverse(reversed)
			if Render(reversed, Options{Budget: 500}).Body != want || Render(tools, Options{Budget: 500}).Body != want {
				t.Error("catalog is not byte-stable across runs and orderings")
			}
		})
	}
	t.Run("all pools together", func(t *testing.T) {
		tools := allTools(t)
		byName := map[string]*entry{}
		for _, e := range NewRenderer(Options{}).entries(tools) {
			byName[e.tool.Name] = e
		}
		for _, budget := range budgets {
			checkCatalog(t, Render(tools, Options{Budget: budget}), tools, byName, budget)
		}
	})
}

func checkCatalog(t *testing.T, c Catalog, tools []Tool, byName map[string]*entry, budget int) {
	t.Helper()
	if c.Total != len(tools) {
		t.Fatalf("budget %d: Total %d for %d tools", budget, c.Total, len(tools))
	}
	counts := map[string]int{}
	for _, tl := range tools {
		counts[Namespace(tl.Name)]++
	}
	if !reflectEqual(c.Namespaces, counts) {
		t.Errorf("budget %d: Namespaces %v, want %v", budget, c.Namespaces, counts)
	}
	var shown []string
	for _, n := range shownNames(c.Body) {
		if !strings.Contains(n, SearchNamespace) {
			shown = append(shown, n)
		}
	}
	if len(shown) != c.Shown || c.Shown == 0 {
		t.Fatalf("budget %d: %d call forms in the body, Shown = %d", budget, len(shown), c.Shown)
	}

	// The budget holds the shown entries and their group headers, unless
	// a single entry is shown (CAT-7).
	used := 0
	perGroup := map[string][]*entry{}
	for _, n := range shown {
		e := byName[n]
		if e == nil {
			t.Fatalf("shown name %q is not in the pool", n)
		}
		key := Namespace(n)
		if len(perGroup[key]) == 0 {
			used += headerCost(key)
		}
		perGroup[key] = append(perGroup[key], e)
		used += e.cost
	}
	if used > budget && c.Shown != 1 {
		t.Errorf("budget %d exceeded: %d", budget, used)
	}
	// Within a group, cheapest first, then by name (CAT-13).
	for key, es := range perGroup {
		if !slices.IsSortedFunc(es, func(a, b *entry) int {
			if entryLess(a, b) {
				return -1
			}
			if entryLess(b, a) {
				return 1
			}
			return 0
		}) {
			t.Errorf("budget %d: group %s out of cost order", budget, key)
		}
	}

	partial := fmt.Sprintf("PARTIAL: %d of %d tools shown.", c.Shown, c.Total)
	if c.Truncated != (c.Shown < c.Total) {
		t.Fatalf("budget %d: Truncated=%v with %d of %d", budget, c.Truncated, c.Shown, c.Total)
	}
	if !c.Truncated {
		if strings.Contains(c.Body, "PARTIAL") || strings.Contains(c.Body, searchIntroText) {
			t.Errorf("budget %d: complete catalog carries truncation text", budget)
		}
		return
	}
	if lastLine(c.Body) != partial {
		t.Errorf("budget %d: last line %q, want %q", budget, lastLine(c.Body), partial)
	}
	if !strings.Contains(c.Body, SearchSignature()) {
		t.Errorf("budget %d: no search section", budget)
	}
	// Every server is named, with its own counts (CAT-10).
	for key, total := range counts {
		n := len(perGroup[key])
		count := fmt.Sprintf("%d tools", total)
		if total == 1 {
			count = "1 tool"
		}
		line := fmt.Sprintf("- mcp__%s (%s, %d shown)\n", key, count, n)
		switch n {
		case 0:
			line = fmt.Sprintf("- mcp__%s (%s, none shown)\n", key, count)
		case total:
			line = fmt.Sprintf("- mcp__%s (%s)\n", key, count)
		}
		if !strings.Contains(c.Body, line) {
			t.Errorf("budget %d: missing summary line %q", budget, line)
		}
	}
}

// TestFixtureSchemasStayFarFromTheVisitValve backs maxVisits' claim: it is a
// guard against hostile schemas, and no real schema comes near it, so it
// never trims a real signature.
func TestFixtureSchemasStayFarFromTheVisitValve(t *testing.T) {
	most, where := 0, ""
	var sc scratch
	for _, tl := range allTools(t) {
		for _, doc := range [][]byte{tl.InputSchema, tl.OutputSchema} {
			if len(doc) == 0 {
				continue
			}
			sc.schemaType(doc)
			if sc.r.visits > most {
				most, where = sc.r.visits, tl.Name
			}
		}
	}
	if most > maxVisits/8 {
		t.Errorf("%s visits %d schema nodes, too close to the valve at %d", where, most, maxVisits)
	}
	t.Logf("most schema nodes visited by one fixture schema: %d (%s)", most, where)
}

// Proves CAT-2: a schema written out in full is never cut, however wide:
// the visit valve counts only nodes reached through a $ref.
func TestCAT2_WideLiteralSchemaIsNeverCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"object","properties":{"q":{"type":"string"}}}`, i)
	}
	b.WriteString(`}}`)
	var sc scratch
	out := string(sc.schemaType([]byte(b.String())))
	if sc.r.visits != 0 {
		t.Errorf("a schema without $ref counted %d visits", sc.r.visits)
	}
	if !strings.Contains(out, "p4999?: {") || strings.Contains(out, "unknown") {
		t.Errorf("wide schema not rendered in full (%d bytes)", len(out))
	}
}
