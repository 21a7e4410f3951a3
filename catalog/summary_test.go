package catalog

import (
	"strings"
	"testing"
	"unicode"
)

// Proves CAT-1.
func TestCAT1_SummaryIsTheFirstLineThatSaysSomething(t *testing.T) {
	for desc, want := range map[string]string{
		"Send a message.\nMore.":                              "Send a message.",
		"\n    🎯 Purpose:\n      1. Retrieves objects.\n":     "Retrieves objects.",
		"    🎯 Purpose\n      1. Authenticates the token.":    "Authenticates the token.",
		"🛡️ Guardrails:\n  - Never delete data.\n":            "Never delete data.",
		"## Overview\n\nRuns a query.":                        "Runs a query.",
		"**Usage:**\n* Lists files.":                          "Lists files.",
		"Description:\n2) Moves a page.":                      "Moves a page.",
		"---\nDeletes an epic.":                               "Deletes an epic.",
		"Reply to the sender. When using JSON format:\nmore.": "Reply to the sender. When using JSON format:",
		"Get the user\rsecond part":                           "Get the user",
		"1.5 times faster scans.":                             "1.5 times faster scans.",
		// Nothing but headings: the first of them, rather than nothing.
		"🎯 Purpose:\n\n📦 Returns:": "🎯 Purpose:",
		"   \n\t\n":                "",
	} {
		if got := summaryText(desc); got != want {
			t.Errorf("summaryText(%q) = %q, want %q", desc, got, want)
		}
	}
}

// Proves CAT-1.
func TestCAT1_EveryFixturePoolGetsSummariesThatSaySomething(t *testing.T) {
	pools := loadPools(t)
	if len(pools) != 65 {
		t.Fatalf("%d fixture pools, want 65", len(pools))
	}
	for _, p := range pools {
		body := Render(fixtureTools(p), Options{Budget: 1 << 30}).Body
		for _, tl := range p.Tools {
			line := summaryLine(tl.Description)
			if line == "" {
				if strings.TrimSpace(tl.Description) != "" {
					t.Errorf("%s/%s: a description with content gives no summary", p.File, tl.Name)
				}
				continue
			}
			// The summary is written above the tool's call form.
			if !strings.Contains(body, "/** "+line+" */\n"+toolCallee("mcp__"+p.Server+"__"+tl.Name)+"(") {
				t.Errorf("%s/%s: the catalog does not show the summary %q", p.File, tl.Name, line)
			}
			if isLabelOnly(line) {
				t.Errorf("%s/%s: the summary is only a heading: %q", p.File, tl.Name, line)
			}
			if !strings.Contains(tl.Description, strings.TrimSuffix(line, ellipsis)) {
				t.Errorf("%s/%s: the summary %q is not the description's text", p.File, tl.Name, line)
			}
		}
	}
	// HubSpot heads every description with a label line.
	hubspot := Render(fixtureTools(loadPool(t, "hubspot")), Options{Budget: 1 << 30}).Body
	for _, want := range []string{
		"/** Retrieves a paginated list of objects of a specified type from HubSpot. */\ntools[\"mcp__hubspot__hubspot-list-objects\"](",
		"/** Authenticates and analyzes the current HubSpot access token, providing context about the user's",
	} {
		if !strings.Contains(hubspot, want) {
			t.Errorf("hubspot catalog lacks %q", want)
		}
	}
}

// isLabelOnly is an independent reading of "a line that only heads what
// follows": at most three words ending in a colon, or a line that starts
// with a pictograph and has at most two words.
func isLabelOnly(line string) bool {
	words := strings.Fields(strings.TrimFunc(line, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
	if len(words) == 0 {
		return true
	}
	first := []rune(line)[0]
	return (strings.HasSuffix(line, ":") && len(words) <= 3) || (unicode.Is(unicode.So, first) && len(words) <= 2)
}
