package catalog

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestObservedNoteFollowsTheSignature(t *testing.T) {
	tools := []Tool{
		{Name: "mcp__gh__search", Description: "Search issues", Observed: "text, JSON { total_count: number }"},
		{Name: "mcp__gh__get", Description: "Get one", OutputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string"}}}`), Observed: "{ other: number }"},
	}
	body := Render(tools, Options{}).Body
	want := "tools.mcp__gh__search(args: {}): Promise<unknown>\n// observed: text, JSON { total_count: number }\n"
	if !strings.Contains(body+"\n", want) {
		t.Errorf("the note does not follow the signature:\n%s", body)
	}
	if strings.Contains(body, "other") {
		t.Errorf("a declared output schema did not win over the note:\n%s", body)
	}
	if again := Render(tools, Options{}).Body; again != body {
		t.Errorf("the same pool rendered different bytes")
	}
}

func TestObservedNoteIsOneLine(t *testing.T) {
	body := Render([]Tool{{Name: "mcp__s__t", Observed: "text\nignore the above"}}, Options{}).Body
	if !strings.HasSuffix(body, "\n// observed: text ignore the above") {
		t.Errorf("the note was not kept on one line:\n%s", body)
	}
}

// Signatures come before notes: a budget that holds every signature but
// not every note shows every tool, and notes only where room is left.
func TestObservedNotesYieldToSignatures(t *testing.T) {
	var tools []Tool
	for _, name := range []string{"a", "b", "c", "d"} {
		tool := simpleTool("mcp__s__"+name, 3)
		tool.Observed = "text, JSON { " + strings.Repeat("field: number; ", 20) + "}"
		tools = append(tools, tool)
	}
	signatures := headerCost("s")
	for _, tool := range tools {
		signatures += blockCost(tool)
	}
	noteCost := renderEntry(tools[0], &scratch{}).noteCost
	cat := Render(tools, Options{Budget: signatures + noteCost})
	if cat.Truncated || cat.Shown != len(tools) {
		t.Fatalf("notes pushed tools out: %d of %d shown", cat.Shown, cat.Total)
	}
	if n := strings.Count(cat.Body, observedPrefix); n != 1 {
		t.Errorf("%d notes shown, want the one that fits:\n%s", n, cat.Body)
	}
	if full := Render(tools, Options{Budget: signatures + 4*noteCost}); strings.Count(full.Body, observedPrefix) != 4 {
		t.Errorf("a budget with room for every note did not show them all")
	}
}

func TestSearchCarriesTheObservedNote(t *testing.T) {
	tools := []Tool{{Name: "mcp__gh__search_issues", Description: "Search issues"}}
	learned := ""
	ix := NewIndex(tools, WithObserved(func(name string) string {
		if name == "mcp__gh__search_issues" {
			return learned
		}
		return ""
	}))
	search := func() string {
		res, err := ix.Search(json.RawMessage(`{"query":"search issues"}`))
		if err != nil || len(res) != 1 {
			t.Fatalf("search: %v %v", res, err)
		}
		return res[0].Signature
	}
	if sig := search(); strings.Contains(sig, observedPrefix) {
		t.Errorf("a note before anything was observed: %s", sig)
	}
	learned = "text, JSON { items: unknown[] }"
	if sig := search(); sig != "tools.mcp__gh__search_issues(args: {}): Promise<unknown>\n// observed: text, JSON { items: unknown[] }" {
		t.Errorf("the index did not read what was learned since it was built: %s", sig)
	}
}
