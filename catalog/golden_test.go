package catalog

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenTools are real tools whose rendering is pinned byte for byte, each
// chosen for what is odd about its schemas.
var goldenTools = []struct{ pool, tool string }{
	{"memory", "create_entities"},                 // outputSchema, arrays of objects
	{"everything", "get-structured-content"},      // outputSchema, dashed name
	{"ms365", "create-contact-child-folder"},      // recursive $defs (reference cycle)
	{"ms365-org", "list-chats"},                   // allOf, anyOf, additionalProperties {}
	{"notion", "API-post-page"},                   // the repeated $defs block, const, oneOf
	{"gitlab-legacy-npm", "create_issue"},         // inputSchema with no type at all
	{"firecrawl", "firecrawl_interact_stop"},      // type arrays with null, outputSchema
	{"github-go-default", "issue_read"},           // method enum, non-standard x-mcp-header
	{"lark-dotnames", "bitable.v1.app.create"},    // dotted name: bracket call form
	{"mongodb", "find"},                           // real anyOf unions, 2020-12 $schema
	{"brave-search", "brave_news_search"},         // enums, const, anyOf
	{"sequential-thinking", "sequentialthinking"}, // long multi-line description, outputSchema
}

func TestGoldenEntries(t *testing.T) {
	for _, g := range goldenTools {
		t.Run(g.pool+"/"+g.tool, func(t *testing.T) {
			name := "mcp__" + loadPool(t, g.pool).Server + "__" + g.tool
			var tool *Tool
			for _, tl := range fixtureTools(loadPool(t, g.pool)) {
				if tl.Name == name {
					tool = &tl
					break
				}
			}
			if tool == nil {
				t.Fatalf("no tool %s in %s", g.tool, g.pool)
			}
			got := renderEntry(*tool, &scratch{}).block
			path := filepath.Join("testdata", "golden", g.pool+"__"+strings.ReplaceAll(g.tool, "/", "_")+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./catalog -run TestGoldenEntries -update)", err)
			}
			if got != string(want) {
				t.Errorf("rendering of %s changed; diff against %s or rerun with -update", name, path)
			}
		})
	}
}
