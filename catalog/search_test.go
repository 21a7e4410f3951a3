package catalog

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func searchNames(t *testing.T, ix *Index, args string) []string {
	t.Helper()
	res, err := ix.Search(json.RawMessage(args))
	if err != nil {
		t.Fatalf("Search(%s): %v", args, err)
	}
	names := make([]string, len(res))
	for i, r := range res {
		names[i] = r.Name
	}
	return names
}

// expectFirst checks that each query finds its tool first.
func expectFirst(t *testing.T, ix *Index, firsts map[string]string) {
	t.Helper()
	for query, want := range firsts {
		if got := searchNames(t, ix, `{"query":"`+query+`"}`); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", query, got, want)
		}
	}
}

// Proves SEARCH-1, SEARCH-4.
func TestSEARCH1_SEARCH4_MatchesTheWholeSnapshotNotOnlyWhatIsShown(t *testing.T) {
	tools, opts := truncatedPool()
	c := Render(tools, opts)
	shown := shownNames(c.Body)
	ix := NewIndex(tools)
	for _, tl := range tools {
		if slices.Contains(shown, tl.Name) {
			continue
		}
		// A tool the catalog left out is found, under the very name the
		// pool routes (and the sandbox calls) it by.
		got := searchNames(t, ix, `{"query":"`+tl.Name+`"}`)
		if len(got) == 0 || got[0] != tl.Name {
			t.Errorf("hidden tool %s not found first: %v", tl.Name, got)
		}
	}
}

// Proves SEARCH-2.
func TestSEARCH2_NameAndDescriptionCaseInsensitive(t *testing.T) {
	ix := NewIndex([]Tool{
		{Name: "mcp__github__create_issue", Description: "Open a new issue in a repository."},
		{Name: "mcp__jira__new_ticket", Description: "Create an ISSUE in a Jira project."},
		{Name: "mcp__slack__post", Description: "Post a message."},
	})
	if got := searchNames(t, ix, `{"query":"Issue"}`); !slices.Equal(got, []string{"mcp__github__create_issue", "mcp__jira__new_ticket"}) {
		t.Errorf("got %v", got)
	}
	if got := searchNames(t, ix, `{"query":"SLACK"}`); !slices.Equal(got, []string{"mcp__slack__post"}) {
		t.Errorf("got %v", got)
	}
	if got := searchNames(t, ix, `{"query":"nothing matches this"}`); got == nil || len(got) != 0 {
		t.Errorf("no match must be an empty array, got %#v", got)
	}
}

// Proves SEARCH-2, EDGE-18.
func TestSEARCH2_EDGE18_ResultsCarryFullDescriptionAndCatalogSignature(t *testing.T) {
	tools := fixtureTools(loadPool(t, "desktop-commander"))
	ix := NewIndex(tools)
	res, err := ix.Search(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body := Render(tools, Options{Budget: 1 << 20}).Body
	for i, r := range res {
		var tl Tool
		for _, x := range tools {
			if x.Name == r.Name {
				tl = x
			}
		}
		if r.Description != tl.Description {
			t.Errorf("%s: description is not the full original", r.Name)
		}
		if !strings.Contains(body, r.Signature) || !strings.HasPrefix(r.Signature, toolCallee(r.Name)+"(args: ") {
			t.Errorf("%s: signature differs from the catalog's", r.Name)
		}
		if i == 0 {
			// The value is the array of entries itself, with these keys.
			raw, _ := json.Marshal(res[:1])
			var back []map[string]string
			if err := json.Unmarshal(raw, &back); err != nil || len(back[0]) != 3 ||
				back[0]["name"] != r.Name || back[0]["signature"] != r.Signature || back[0]["description"] != r.Description {
				t.Errorf("result JSON shape: %s", raw)
			}
		}
	}
	// At least one description there is longer than the catalog keeps.
	long := false
	for _, r := range res {
		long = long || len([]rune(r.Description)) > summaryWidth
	}
	if !long {
		t.Fatal("fixture no longer exercises long descriptions")
	}
}

// Proves SEARCH-2.
func TestSEARCH2_RankingAndMultiWordQueries(t *testing.T) {
	ix := NewIndex([]Tool{
		{Name: "mcp__b__list_issues", Description: "List issues of a repository."},
		{Name: "mcp__a__issue", Description: "Get one issue."},
		{Name: "mcp__c__search", Description: "Search issues and pull requests."},
		{Name: "mcp__d__issue_comments", Description: "List comments on an issue."},
		{Name: "mcp__e__list", Description: "List repositories."},
	})
	// The exact tool name comes first; a word in the name counts more than
	// the same word in the description.
	got := searchNames(t, ix, `{"query":"issue"}`)
	if len(got) != 4 || got[0] != "mcp__a__issue" || got[3] != "mcp__c__search" {
		t.Errorf("issue: got %v", got)
	}
	if got := searchNames(t, ix, `{"query":"mcp__c__search"}`); len(got) == 0 || got[0] != "mcp__c__search" {
		t.Errorf("full name: got %v", got)
	}
	// Several words: the tool matching all of them leads, in any case and
	// order; tools matching only some still come after it.
	got = searchNames(t, ix, `{"query":"  ISSUE   list "}`)
	if len(got) < 2 || got[0] != "mcp__b__list_issues" {
		t.Errorf("list issue: got %v", got)
	}
	// Words the pool never uses do not hide the ones it does.
	got = searchNames(t, ix, `{"query":"list pull requests quickly"}`)
	if !slices.Contains(got, "mcp__c__search") {
		t.Errorf("a partial match must still be found: %v", got)
	}
}

// Proves SEARCH-2.
func TestSEARCH2_NamesAreReadAsWords(t *testing.T) {
	ix := NewIndex([]Tool{
		{Name: "mcp__github__create_issue", Description: "Open one."},
		{Name: "mcp__lark__im_v1_chatMembers_get", Description: "Obtain them."},
		{Name: "mcp__lark__bitable.v1.appTableRecord.search", Description: "Query them."},
		{Name: "mcp__notion__API-post-search", Description: "Look by title."},
		{Name: "mcp__mobile__mobile_take_screenshot", Description: "A picture."},
	})
	expectFirst(t, ix, map[string]string{
		"create issue":        "mcp__github__create_issue",                   // snake_case
		"issue create":        "mcp__github__create_issue",                   // any order
		"Create-Issue":        "mcp__github__create_issue",                   // case and separators
		"chat members":        "mcp__lark__im_v1_chatMembers_get",            // camelCase
		"get chat member":     "mcp__lark__im_v1_chatMembers_get",            // plural
		"table record search": "mcp__lark__bitable.v1.appTableRecord.search", // dots
		"notion post search":  "mcp__notion__API-post-search",                // server and hyphens
		"taking screenshots":  "mcp__mobile__mobile_take_screenshot",         // -ing, plural
	})
}

// Proves SEARCH-2.
func TestSEARCH2_SynonymsFindTheServersWord(t *testing.T) {
	ix := NewIndex([]Tool{
		{Name: "mcp__gmail__delete_label", Description: "Deletes a Gmail label."},
		{Name: "mcp__gmail__search_emails", Description: "Searches for emails using Gmail search syntax."},
		{Name: "mcp__gmail__create_label", Description: "Creates a new Gmail label."},
		{Name: "mcp__slack__slack_post_message", Description: "Post a new message to a Slack channel."},
		{Name: "mcp__cloudflare__version_rollback", Description: "Rollback to a specific version."},
	})
	expectFirst(t, ix, map[string]string{
		"remove a label":                    "mcp__gmail__delete_label",
		"find mail":                         "mcp__gmail__search_emails",
		"send a slack message to a channel": "mcp__slack__slack_post_message",
		"roll back a version":               "mcp__cloudflare__version_rollback",
	})
	// The word the query used beats its synonym: delete a label with
	// "delete" in the name, not one that says "remove" somewhere.
	ix = NewIndex([]Tool{
		{Name: "mcp__a__delete_label", Description: "Deletes a label."},
		{Name: "mcp__b__remove_label", Description: "Removes a label."},
	})
	if got := searchNames(t, ix, `{"query":"delete label"}`); len(got) != 2 || got[0] != "mcp__a__delete_label" {
		t.Errorf("got %v", got)
	}
}

// Proves SEARCH-2.
func TestSEARCH2_IssueQueriesFindTheTool(t *testing.T) {
	// Queries that found nothing, or the wrong tool first, when every word
	// had to occur as a substring and ties sorted by name.
	var tools []Tool
	for _, file := range []string{"slack", "github-go-default", "gitlab", "lark", "playwright", "stripe",
		"filesystem", "gmail", "notion", "memory", "kubernetes", "heroku"} {
		tools = append(tools, fixtureTools(loadPool(t, file))...)
	}
	ix := NewIndex(tools)
	for _, c := range []struct {
		query string
		want  []string // any of them
		top   int      // within the first top hits
	}{
		{"send slack message", []string{"mcp__slack__slack_post_message"}, 1},
		{"send message", []string{"mcp__lark__im_v1_message_create", "mcp__slack__slack_post_message"}, 1},
		{"refund a payment", []string{"mcp__stripe__create_refund"}, 1},
		{"list repositories", []string{"mcp__github-go-default__search_repositories", "mcp__gitlab__search_repositories", "mcp__gitlab__list_projects"}, 3},
		{"get pull request diff", []string{"mcp__github-go-default__pull_request_read", "mcp__gitlab__get_merge_request_diffs", "mcp__gitlab__list_merge_request_diffs"}, 3},
		{"open web page", []string{"mcp__playwright__browser_navigate", "mcp__playwright__browser_tabs"}, 5},
	} {
		got := searchNames(t, ix, `{"query":"`+c.query+`"}`)
		if !slices.ContainsFunc(got[:min(c.top, len(got))], func(n string) bool { return slices.Contains(c.want, n) }) {
			t.Errorf("%q: first hits %v, want one of %v within %d", c.query, got[:min(5, len(got))], c.want, c.top)
		}
	}
}

// Proves SEARCH-2.
func TestSEARCH2_WeakPartialMatchesAreLeftOut(t *testing.T) {
	ix := NewIndex(allTools(t))
	// Hundreds of tools create something; those about issues are wanted,
	// not every tool that says "create".
	creators := searchNames(t, ix, `{"query":"create"}`)
	got := searchNames(t, ix, `{"query":"create issue"}`)
	if len(got) == 0 || !strings.HasSuffix(got[0], "__create_issue") || 4*len(got) > len(creators) {
		t.Errorf("create issue: %d hits (create alone: %d), first %v", len(got), len(creators), got[:min(3, len(got))])
	}
	// A query's rarest word alone still keeps its tool.
	if got := searchNames(t, ix, `{"query":"check the account balance"}`); !slices.Contains(got, "mcp__stripe__retrieve_balance") {
		t.Errorf("balance: the tool carrying only the rarest word was left out")
	}
}

// A script may pass a query of hundreds of thousands of distinct words:
// search reads only its start, so it ends, and finds what the start asks
// for.
func TestSearchReadsOnlyTheStartOfAHugeQuery(t *testing.T) {
	ix := NewIndex(fixtureTools(loadPool(t, "slack")))
	var b strings.Builder
	b.WriteString("post a message ")
	for i := range 200000 {
		b.WriteString("w" + strconv.Itoa(i) + " ")
	}
	args, _ := json.Marshal(map[string]string{"query": b.String()})
	res, err := ix.Search(args)
	if err != nil || len(res) == 0 || res[0].Name != "mcp__slack__slack_post_message" {
		t.Errorf("got %d results, err %v", len(res), err)
	}
}

// Proves SEARCH-3.
func TestSEARCH3_EmptyQueryListsTheWholePool(t *testing.T) {
	tools := allTools(t)
	ix := NewIndex(tools)
	for _, args := range []string{`{}`, `{"query":""}`, `{"query":"   "}`} {
		got := searchNames(t, ix, args)
		if len(got) != len(tools) || !slices.IsSorted(got) {
			t.Errorf("%s: %d results (sorted %v), want all %d by name", args, len(got), slices.IsSorted(got), len(tools))
		}
	}
}

// Proves SEARCH-7.
func TestSEARCH7_SearchSectionStatesEmptyQueryListsThePool(t *testing.T) {
	tools, opts := truncatedPool()
	body := Render(tools, opts).Body
	i := strings.Index(body, searchIntroText)
	if i < 0 {
		t.Fatal("no search section")
	}
	section := body[i:]
	for _, want := range []string{"full pool", "Omit query (or pass an empty string) to list the full pool", "same form"} {
		if !strings.Contains(section, want) {
			t.Errorf("search section lacks %q", want)
		}
	}
	for _, digit := range strings.Split("0123456789", "") {
		if strings.Contains(searchIntroText+SearchSignature(), digit) {
			t.Errorf("search section carries a number (%s)", digit)
		}
	}
}

// Proves SEARCH-8, NFR-4.
func TestSEARCH8_NFR4_OneSchemaForCallFormValidationAndShapeError(t *testing.T) {
	// The call form in the catalog is the schema rendered by the tool
	// renderer: nothing hand-written.
	var sc scratch
	want := sc.signature(`tools["$codemode"].search`, SearchSchema(), SearchOutputSchema())
	if SearchSignature() != want {
		t.Fatalf("search signature is not the rendering of its schemas:\n%s", SearchSignature())
	}
	if !strings.Contains(want, "query?: string;") || !strings.Contains(want, "): Promise<Array<{") {
		t.Errorf("unexpected rendering:\n%s", want)
	}
	// Calling it in that form succeeds.
	ix := NewIndex([]Tool{{Name: "mcp__a__b", Description: "x"}})
	if got := searchNames(t, ix, `{"query":"b"}`); !slices.Equal(got, []string{"mcp__a__b"}) {
		t.Errorf("got %v", got)
	}
	// Validation follows the same schema: changing what it declares changes
	// what is accepted. (The schema is closed: additionalProperties false.)
	var schema map[string]any
	if err := json.Unmarshal(SearchSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	if schema["additionalProperties"] != false || schema["properties"].(map[string]any)["query"] == nil {
		t.Errorf("schema: %v", schema)
	}
	// The validator reads the schema rather than knowing the fields: give
	// it a schema with another field and that field becomes acceptable.
	extended, err := parseJSON([]byte(strings.Replace(searchSchemaJSON, `"properties": {`, `"properties": {"limit": {"type": "integer"},`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	args, _ := parseJSON([]byte(`{"query":"x","limit":3}`))
	if validate(args, searchSchemaNode()) == "" || validate(args, extended) != "" {
		t.Error("validation does not follow the schema")
	}
}

// Proves SEARCH-9.
func TestSEARCH9_WrongShapeGetsAnErrorShowingTheExpectedShape(t *testing.T) {
	ix := NewIndex([]Tool{{Name: "mcp__a__b", Description: "x"}})
	cases := map[string]string{
		`{"q":"b"}`:               `unknown field "q"`,
		`{"query":5}`:             `field "query" must be of type string`,
		`{"query":null}`:          `field "query" must be of type string`,
		`{"query":"b","limit":3}`: `unknown field "limit"`,
		`{"query":["a","b"]}`:     `field "query" must be of type string`,
	}
	for args, detail := range cases {
		res, err := ix.Search(json.RawMessage(args))
		if err == nil {
			t.Errorf("%s: accepted (%d results); a wrong shape must not become an empty query", args, len(res))
			continue
		}
		if !errors.Is(err, ErrSearchArgs) || !strings.Contains(err.Error(), detail) || !strings.Contains(err.Error(), SearchSignature()) {
			t.Errorf("%s: error %q must name %q and show the expected shape", args, err, detail)
		}
	}
}

// Proves EDGE-24.
func TestEDGE24_NonObjectArgumentsAreRejected(t *testing.T) {
	ix := NewIndex(nil)
	for _, args := range []string{`"issue"`, `["issue"]`, `42`, `null`, ``, `{"query":`} {
		if _, err := ix.Search(json.RawMessage(args)); err == nil || !strings.Contains(err.Error(), "plain object") ||
			!strings.Contains(err.Error(), SearchSignature()) {
			t.Errorf("%q: %v", args, err)
		}
	}
}

// Proves SEARCH-10.
func TestSEARCH10_SearchWorksWhateverTheCatalogShowed(t *testing.T) {
	tools := []Tool{simpleTool("mcp__a__one", 2), simpleTool("mcp__b__two", 2)}
	if c := Render(tools, Options{}); c.Truncated {
		t.Fatal("pool should fit")
	}
	// Nothing about the complete catalog disables search.
	if got := searchNames(t, NewIndex(tools), `{"query":"two"}`); !slices.Equal(got, []string{"mcp__b__two"}) {
		t.Errorf("got %v", got)
	}
}

func TestIndexSharesTheRenderersBlocks(t *testing.T) {
	tools := fixtureTools(loadPool(t, "memory"))
	r := NewRenderer(Options{})
	r.Render(tools)
	cached := r.cache[tools[0].Name]
	ix := NewIndex(tools, WithRenderer(r))
	res, err := ix.Search(json.RawMessage(`{"query":"` + tools[0].Name + `"}`))
	if err != nil || len(res) == 0 {
		t.Fatal(err)
	}
	if r.cache[tools[0].Name] != cached || res[0].Signature != cached.signature {
		t.Error("the index must reuse the renderer's rendered blocks")
	}
}

// Proves SEARCH-6.
func TestSEARCH6_SearchIsTaughtOnlyUnderTheReservedPath(t *testing.T) {
	tools, opts := truncatedPool()
	body := Render(tools, opts).Body
	want := `tools["` + SearchNamespace + `"].` + SearchMethod + `(`
	if strings.Count(body, want) != 1 {
		t.Errorf("the truncated catalog must show %s once", want)
	}
	if strings.Contains(body, "tools."+SearchMethod+"(") || strings.Contains(body, "tools[\""+SearchMethod+"\"]") {
		t.Error("search must never be shown as a top-level tools entry")
	}
}
