package catalog

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// simpleTool is a tool with one string parameter whose description has n
// words, so its block cost grows with n.
func simpleTool(name string, n int) Tool {
	desc := strings.TrimSpace(strings.Repeat("word ", n))
	return Tool{
		Name:        name,
		Description: "Tool " + name,
		InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string","description":"` + desc + `"}},"required":["q"]}`),
	}
}

// blockCost is the catalog cost of one tool's entry.
func blockCost(t Tool) int { return renderEntry(t, &scratch{}).cost }

// shownNames lists the tool names whose call form appears in a body, in
// order of appearance.
func shownNames(body string) []string {
	re := regexp.MustCompile(`(?m)^tools(?:\.([A-Za-z0-9_$]+)|\["([^"]+)"\])\(`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// headerCost is what a group's header line costs with its first entry.
func headerCost(key string) int {
	return estimateTokens("\n" + groupHeaderPrefix + "mcp__" + key + "\n")
}

func lastLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// Proves CAT-1.
func TestCAT1_CallFormsAndEntryLayout(t *testing.T) {
	tools := []Tool{
		{Name: "mcp__srv__fetch", Description: "Fetch a thing.\nMore detail.", InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"number","description":"The id"}},"required":["id"]}`)},
		{Name: "mcp__ms-365__list-mail", Description: "List mail"},
		{Name: "mcp__lark__bitable.v1.app.create", Description: "Create an app", OutputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
	}
	body := Render(tools, Options{}).Body
	for _, want := range []string{
		"/** Fetch a thing. */\ntools.mcp__srv__fetch(args: {\n  /** The id */\n  id: number;\n}): Promise<unknown>",
		"/** List mail */\ntools[\"mcp__ms-365__list-mail\"](args: {}): Promise<unknown>\n",
		"/** Create an app */\ntools[\"mcp__lark__bitable.v1.app.create\"](args: {}): Promise<{\n  id: string;\n}>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks\n%s\nbody:\n%s", want, body)
		}
	}
	if strings.Contains(body, "More detail") {
		t.Error("only the first line of a tool description belongs in the catalog")
	}
}

// Proves CAT-1.
func TestCAT1_ToolDescriptionIsCutToAFixedWidth(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30)
	line := summaryLine("\n  " + long + "\nsecond line")
	if want := long[:summaryWidth] + ellipsis; line != want {
		t.Errorf("got %q want %q", line, want)
	}
	if got := summaryLine("Short one.\nSecond."); got != "Short one." {
		t.Errorf("got %q", got)
	}
	// Width counts characters, not bytes.
	wide := strings.Repeat("é", summaryWidth+5)
	if got := summaryLine(wide); got != strings.Repeat("é", summaryWidth)+ellipsis {
		t.Errorf("got %q", got)
	}
}

// Proves CAT-3, CAT-11.
func TestCAT3_CAT11_PoolWithinBudgetRendersCompletely(t *testing.T) {
	tools := []Tool{simpleTool("mcp__a__one", 3), simpleTool("mcp__a__two", 3), simpleTool("mcp__b__three", 3)}
	c := Render(tools, Options{})
	if c.Truncated || c.Shown != 3 || c.Total != 3 {
		t.Fatalf("Truncated=%v Shown=%d Total=%d", c.Truncated, c.Shown, c.Total)
	}
	if got := shownNames(c.Body); len(got) != 3 {
		t.Errorf("entries shown: %v", got)
	}
	for _, absent := range []string{"PARTIAL", "- mcp__a (", summaryIntroText, searchIntroText, SearchNamespace} {
		if strings.Contains(c.Body, absent) {
			t.Errorf("a complete catalog must not contain %q:\n%s", absent, c.Body)
		}
	}
	if !reflectEqual(c.Namespaces, map[string]int{"a": 2, "b": 1}) {
		t.Errorf("Namespaces = %v", c.Namespaces)
	}
}

func reflectEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// truncatedPool is ten tools from two servers with a budget that holds
// only some of them.
func truncatedPool() ([]Tool, Options) {
	var tools []Tool
	for i := range 6 {
		tools = append(tools, simpleTool(fmt.Sprintf("mcp__alpha__t%d", i), 10+i))
	}
	for i := range 4 {
		tools = append(tools, simpleTool(fmt.Sprintf("mcp__beta__t%d", i), 10+i))
	}
	budget := 0
	for _, name := range []string{"mcp__alpha__t0", "mcp__beta__t0", "mcp__alpha__t1"} {
		for _, t := range tools {
			if t.Name == name {
				budget += blockCost(t)
			}
		}
	}
	budget += headerCost("alpha") + headerCost("beta")
	return tools, Options{Budget: budget}
}

// Proves CAT-4.
func TestCAT4_PartialLineStatesXOfYAtTheEnd(t *testing.T) {
	tools, opts := truncatedPool()
	c := Render(tools, opts)
	if !c.Truncated || c.Shown != 3 || c.Total != 10 {
		t.Fatalf("Truncated=%v Shown=%d Total=%d\n%s", c.Truncated, c.Shown, c.Total, c.Body)
	}
	last := lastLine(c.Body)
	if !strings.Contains(last, "PARTIAL") || !strings.Contains(last, "3 of 10") {
		t.Errorf("last line %q must be the PARTIAL line with 3 of 10", last)
	}
	if strings.Contains(last, "search") || strings.Contains(last, SearchNamespace) {
		t.Errorf("the PARTIAL line must not carry the search call form: %q", last)
	}
	if strings.Count(c.Body, "PARTIAL") != 1 {
		t.Error("exactly one PARTIAL line")
	}
}

// Proves CAT-5.
func TestCAT5_RotationGivesEveryServerASeatFirst(t *testing.T) {
	// Server "aaa" has many cheap tools, "zzz" (later in every order) has
	// one expensive tool; a budget for three entries must seat zzz.
	var tools []Tool
	for i := range 20 {
		tools = append(tools, simpleTool(fmt.Sprintf("mcp__aaa__t%02d", i), 2))
	}
	late := simpleTool("mcp__zzz__late", 40)
	tools = append(tools, late)
	budget := 2*blockCost(tools[0]) + blockCost(late) + headerCost("aaa") + headerCost("zzz")
	c := Render(tools, Options{Budget: budget})
	names := shownNames(c.Body)
	if !slices.Contains(names, late.Name) {
		t.Fatalf("the later server got no seat: %v", names)
	}
	if len(names) != 3 {
		t.Errorf("shown %v, want two of aaa and zzz's one", names)
	}

	// With equal costs, rounds alternate: seats differ by at most one.
	var even []Tool
	for _, srv := range []string{"a", "b", "c"} {
		for i := range 5 {
			even = append(even, simpleTool(fmt.Sprintf("mcp__%s__t%d", srv, i), 5))
		}
	}
	perEntry := blockCost(even[0])
	for seats := 1; seats <= 15; seats++ {
		budget := seats*perEntry + 3*headerCost("a")
		c := Render(even, Options{Budget: budget})
		counts := map[string]int{}
		for _, n := range shownNames(c.Body) {
			counts[Namespace(n)]++
		}
		lo, hi := 99, 0
		for _, srv := range []string{"a", "b", "c"} {
			lo, hi = min(lo, counts[srv]), max(hi, counts[srv])
		}
		if c.Shown != seats || hi-lo > 1 {
			t.Errorf("budget for %d seats: shown %d, per server %v", seats, c.Shown, counts)
		}
	}
}

// Proves CAT-6.
func TestCAT6_NoBudgetNumberInOutput(t *testing.T) {
	tools, opts := truncatedPool()
	a := Render(tools, opts)
	// One more token of budget does not fit another entry, so the output
	// must not change at all: nothing in it depends on the budget itself.
	b := Render(tools, Options{Budget: opts.Budget + 1})
	if a.Body != b.Body {
		t.Fatalf("bodies differ for budgets %d and %d", opts.Budget, opts.Budget+1)
	}
	for _, n := range []int{opts.Budget, DefaultBudget} {
		if strings.Contains(a.Body, strconv.Itoa(n)) {
			t.Errorf("the budget %d appears in the body", n)
		}
	}
}

// Proves CAT-7, EDGE-22.
func TestCAT7_EDGE22_OneEntryEvenWhenItAloneExceedsTheBudget(t *testing.T) {
	wide := simpleTool("mcp__big__wide", 5000)
	c := Render([]Tool{wide}, Options{Budget: 10})
	if c.Shown != 1 || c.Truncated || !strings.Contains(c.Body, strings.Repeat("word ", 4999)+"word") {
		t.Fatalf("the single over-budget entry must be shown complete: Shown=%d", c.Shown)
	}
	// Among several over-budget entries, the cheapest is kept.
	c = Render([]Tool{simpleTool("mcp__x__bigger", 6000), wide, simpleTool("mcp__y__big", 5500)}, Options{Budget: 10})
	if got := shownNames(c.Body); !slices.Equal(got, []string{"mcp__big__wide"}) || !c.Truncated {
		t.Errorf("shown %v", got)
	}
}

// Proves CAT-8, NFR-5.
func TestCAT8_NFR5_ByteIdenticalForTheSamePool(t *testing.T) {
	tools := fixtureTools(loadPool(t, "github-go-default"))
	tools = append(tools, fixtureTools(loadPool(t, "notion"))...)
	for _, opts := range []Options{{}, {Budget: 500}} {
		want := Render(tools, opts)
		r := NewRenderer(opts)
		rng := rand.New(rand.NewPCG(1, 2))
		for range 5 {
			shuffled := slices.Clone(tools)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for _, got := range []Catalog{Render(shuffled, opts), r.Render(shuffled)} {
				if got.Body != want.Body || got.Shown != want.Shown {
					t.Fatal("rendering depends on pool order or on the cache")
				}
			}
		}
	}
}

// Proves CAT-9.
func TestCAT9_EmptyPoolBody(t *testing.T) {
	for _, tools := range [][]Tool{nil, {}} {
		c := Render(tools, Options{})
		if c.Body != emptyBodyText || c.Truncated || c.Shown != 0 || c.Total != 0 || len(c.Namespaces) != 0 {
			t.Fatalf("%+v", c)
		}
	}
	body := strings.ToLower(emptyBodyText)
	for _, want := range []string{"no mcp tools", "currently available", "add or remove"} {
		if !strings.Contains(body, want) {
			t.Errorf("empty body lacks %q", want)
		}
	}
	if strings.Contains(emptyBodyText, "Exec") {
		t.Error("the empty body must not name Exec")
	}
}

// Proves CAT-10.
func TestCAT10_SummaryLinesWhenTruncated(t *testing.T) {
	var tools []Tool
	for i := range 3 {
		tools = append(tools, simpleTool(fmt.Sprintf("mcp__github__t%d", i), 2+30*i))
	}
	tools = append(tools, simpleTool("mcp__playwright__a", 2), simpleTool("mcp__playwright__b", 2))
	tools = append(tools, simpleTool("mcp__ddg-search__huge", 3000))
	tools = append(tools, simpleTool("mcp__solo__only", 2))
	budget := headerCost("github") + headerCost("playwright") + headerCost("solo")
	for _, tl := range tools {
		if tl.Name == "mcp__github__t0" || strings.HasPrefix(tl.Name, "mcp__playwright__") || tl.Name == "mcp__solo__only" {
			budget += blockCost(tl)
		}
	}
	c := Render(tools, Options{Budget: budget})
	for _, want := range []string{
		"- mcp__ddg-search (1 tool, none shown)\n",
		"- mcp__github (3 tools, 1 shown)\n",
		"- mcp__playwright (2 tools)\n",
		"- mcp__solo (1 tool)\n",
	} {
		if !strings.Contains(c.Body, want) {
			t.Errorf("missing summary line %q in\n%s", want, c.Body)
		}
	}
	// The summary lines are outside the budget: the entries alone fill it.
	if c.Shown != 4 {
		t.Errorf("Shown = %d, want the 4 entries the budget pays for", c.Shown)
	}
	// They come from the same snapshot as the entries: no other server.
	if got := strings.Count(c.Body, "\n- mcp__"); got != 4 {
		t.Errorf("%d summary lines for 4 servers", got)
	}
	if !reflectEqual(c.Namespaces, map[string]int{"github": 3, "playwright": 2, "ddg-search": 1, "solo": 1}) {
		t.Errorf("Namespaces = %v", c.Namespaces)
	}
}

// Proves CAT-12.
func TestCAT12_SearchSectionOnlyWhenTruncated(t *testing.T) {
	tools, opts := truncatedPool()
	truncated := Render(tools, opts).Body
	section := searchIntroText + "\n" + SearchSignature() + "\n"
	if !strings.Contains(truncated, section) {
		t.Fatalf("truncated catalog lacks the search section:\n%s", truncated)
	}
	if !strings.HasPrefix(SearchSignature(), `tools["$codemode"].search(args: {`) {
		t.Errorf("search call form: %s", SearchSignature())
	}
	if !strings.Contains(SearchSignature(), "Omit query (or pass an empty string) to list the full pool.") {
		t.Error("the search signature must carry the query field's description")
	}
	complete := Render(tools, Options{Budget: 1 << 20}).Body
	if strings.Contains(complete, SearchNamespace) || strings.Contains(complete, searchIntroText) {
		t.Error("a complete catalog must not advertise search")
	}
}

// Proves CAT-13.
func TestCAT13_EntriesOrderedByBlockCostThenName(t *testing.T) {
	tools := []Tool{
		simpleTool("mcp__s__expensive", 40),
		simpleTool("mcp__s__cheap_b", 2),
		simpleTool("mcp__s__cheap_a", 2),
		simpleTool("mcp__s__middle", 10),
	}
	got := shownNames(Render(tools, Options{}).Body)
	want := []string{"mcp__s__cheap_a", "mcp__s__cheap_b", "mcp__s__middle", "mcp__s__expensive"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// Proves NFR-7.
func TestNFR7_TokensAreWholeBlockCharactersOverFour(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"", 0}, {"a", 1}, {"abcd", 1}, {"abcde", 2},
		{"ab\ncd\n", 2},               // newlines count
		{"    x", 2},                  // indentation counts
		{"€€€€", 1},                   // one UTF-16 unit each
		{"😀😀", 1},                     // two UTF-16 units each
		{strings.Repeat("a\n", 6), 3}, // 12 chars: the block, not 6 lines of 1
	}
	for _, c := range cases {
		if got := estimateTokens(c.text); got != c.want {
			t.Errorf("estimateTokens(%q) = %d, want %d", c.text, got, c.want)
		}
	}
	e := renderEntry(simpleTool("mcp__a__b", 7), &scratch{})
	if e.cost != estimateTokens(e.block) || !strings.HasSuffix(e.block, "\n") {
		t.Errorf("an entry is priced as its whole block")
	}
}

// Proves EDGE-13.
func TestEDGE13_DefaultBudgetHoldsSeveralDozenTypicalTools(t *testing.T) {
	// The reference MCP servers are the typical density: short tool
	// descriptions, a few documented parameters each.
	var tools []Tool
	for _, f := range []string{"filesystem", "memory", "everything", "puppeteer", "slack", "google-maps",
		"brave-search-legacy", "postgres", "sequential-thinking", "github-legacy-npm", "gitlab-legacy-npm"} {
		tools = append(tools, fixtureTools(loadPool(t, f))...)
	}
	c := Render(tools, Options{})
	if c.Shown < 36 {
		t.Errorf("the default budget shows %d of %d typical tools, want several dozen", c.Shown, c.Total)
	}
	if c.Truncated && !strings.Contains(lastLine(c.Body), fmt.Sprintf("%d of %d", c.Shown, c.Total)) {
		t.Error("beyond the budget the catalog must be truncated explicitly")
	}
}

// Proves EDGE-17.
func TestEDGE17_NamesWithDoubleUnderscoreGroupBySecondSegment(t *testing.T) {
	cases := map[string]string{
		"mcp__github__create_issue":  "github",
		"mcp__my__server__tool":      "my",
		"mcp__my__server__tool__x":   "my",
		"mcp____tool":                "",
		"no_separator":               "",
		"mcp__solo":                  "solo",
		"mcp__ms-365__list-mail-xyz": "ms-365",
	}
	for name, want := range cases {
		if got := Namespace(name); got != want {
			t.Errorf("Namespace(%q) = %q, want %q (strings.Split(name, \"__\")[1])", name, got, want)
		}
		if parts := strings.Split(name, "__"); len(parts) > 1 && parts[1] != want {
			t.Errorf("case %q disagrees with the split", name)
		}
	}
	tools := []Tool{simpleTool("mcp__my__server__tool", 2), simpleTool("mcp__my__other", 2)}
	c := Render(tools, Options{})
	if c.Namespaces["my"] != 2 || strings.Count(c.Body, "// mcp__my\n") != 1 {
		t.Errorf("both tools route to server my and share its group:\n%s", c.Body)
	}
}

func TestRendererReusesUnchangedBlocks(t *testing.T) {
	a := fixtureTools(loadPool(t, "memory"))
	b := fixtureTools(loadPool(t, "filesystem"))
	r := NewRenderer(Options{})
	r.Render(append(slices.Clone(a), b...))
	before := map[string]*entry{}
	for k, v := range r.cache {
		before[k] = v
	}
	changed := slices.Clone(b)
	changed[0].Description += " (changed)"
	r.Render(append(slices.Clone(a), changed...))
	for _, tl := range a {
		if r.cache[tl.Name] != before[tl.Name] {
			t.Errorf("%s was rendered again though unchanged", tl.Name)
		}
	}
	if r.cache[changed[0].Name] == before[changed[0].Name] {
		t.Error("a changed tool must be rendered again")
	}
	// Tools that left the pool leave the cache.
	r.Render(a)
	if len(r.cache) != len(a) {
		t.Errorf("cache holds %d entries for a pool of %d", len(r.cache), len(a))
	}
}

func TestRendererIsSafeForConcurrentUse(t *testing.T) {
	pools := [][]Tool{fixtureTools(loadPool(t, "memory")), fixtureTools(loadPool(t, "notion")), fixtureTools(loadPool(t, "slack"))}
	want := make([]string, len(pools))
	for i, p := range pools {
		want[i] = Render(p, Options{}).Body
	}
	r := NewRenderer(Options{})
	done := make(chan error)
	for g := range 6 {
		go func() {
			for i := range 20 {
				p := (g + i) % len(pools)
				if got := r.Render(pools[p]).Body; got != want[p] {
					done <- fmt.Errorf("pool %d rendered differently", p)
					return
				}
			}
			done <- nil
		}()
	}
	for range 6 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// Proves CAT-1.
func TestCAT1_ExportedCallForms(t *testing.T) {
	cases := map[string]string{
		"mcp__srv__fetch":         "tools.mcp__srv__fetch",
		"mcp__ms-365__list-mail":  `tools["mcp__ms-365__list-mail"]`,
		"mcp__lark__im.v1.chat":   `tools["mcp__lark__im.v1.chat"]`,
		"mcp__x__get$value":       "tools.mcp__x__get$value",
		"mcp__x__9lives":          "tools.mcp__x__9lives",
		"9mcp":                    `tools["9mcp"]`,
		`mcp__q__say "hi"`:        `tools["mcp__q__say \"hi\""]`,
		"mcp__unicode__caf\u00e9": `tools["mcp__unicode__café"]`,
	}
	for name, want := range cases {
		if got := CallForm(name); got != want {
			t.Errorf("CallForm(%q) = %s, want %s", name, got, want)
		}
	}
	if got := SearchCallForm(); got != `tools["$codemode"].search` {
		t.Errorf("SearchCallForm() = %s", got)
	}
}

func TestRendererIsNotFooledByReusedSchemaBuffers(t *testing.T) {
	buf := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	tool := Tool{Name: "mcp__s__t", Description: "d", InputSchema: buf}
	r := NewRenderer(Options{})
	first := r.Render([]Tool{tool}).Body
	copy(buf, `{"type":"object","properties":{"b":{"type":"number"}}}`)
	second := r.Render([]Tool{tool}).Body
	if first == second || !strings.Contains(second, "b?: number;") {
		t.Errorf("a schema changed in place must be rendered again:\n%s", second)
	}
}
