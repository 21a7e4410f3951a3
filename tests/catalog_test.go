package tests

import (
	"regexp"
	"strings"
	"testing"
)

func catalogRun(t *testing.T, args ...string) string {
	t.Helper()
	run := runDemo(t, "", append([]string{"catalog"}, args...)...)
	if run.code != 0 {
		t.Fatalf("demo catalog %q: exit %d, stderr %s", args, run.code, run.stderr)
	}
	return run.stdout
}

// CAT-1, CAT-3, CAT-11: `demo catalog` prints every entry with its call
// form, signature and return type (unknown when no outputSchema), and no
// truncation parts when everything fits.
func TestCAT1_CAT3_CatalogCommandPrintsTheCompleteCatalog(t *testing.T) {
	out := catalogRun(t)
	for _, want := range []string{
		"// mcp__srv", "// mcp__text", "// mcp__weather",
		// A declared outputSchema is the return type; none is unknown.
		"tools.mcp__srv__fetch(args: {", "  tags: Array<string>;\n}>",
		"tools.mcp__text__echo(args: {\n  /** the text to send back */\n  text: string;\n}): Promise<unknown>",
		"days?: number;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("catalog lacks %q:\n%s", want, out)
		}
	}
	// CAT-3, CAT-11: complete, so no truncation line, summary or search.
	for _, unwanted := range []string{"PARTIAL", "(4 tools", "$codemode"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("complete catalog contains %q:\n%s", unwanted, out)
		}
	}
}

// CAT-8: the same pool renders the same bytes, run after run.
func TestCAT8_CatalogIsByteStableAcrossRuns(t *testing.T) {
	first, second := catalogRun(t), catalogRun(t)
	if first != second {
		t.Errorf("two runs over the same pool differ:\n%s\n---\n%s", first, second)
	}
}

// CAT-4, CAT-6, CAT-10, CAT-12: with --budget small, the catalog ends with
// "X of Y", names every server, shows the search call, and never the budget.
func TestCAT4_CAT10_CAT12_SmallBudgetTruncatesExplicitly(t *testing.T) {
	out := catalogRun(t, "--budget", "60")
	partial := regexp.MustCompile(`(?m)^PARTIAL: (\d+) of 11 tools shown\.$`).FindStringSubmatch(out)
	if partial == nil {
		t.Fatalf("no PARTIAL line with X of 11:\n%s", out)
	}
	// Every server is named, the ones without a seat too.
	for _, server := range []string{"srv", "text", "weather"} {
		if !regexp.MustCompile(`(?m)^- mcp__` + server + ` \(\d+ tools?(, (\d+|none) shown)?\)$`).MatchString(out) {
			t.Errorf("no summary line for %s:\n%s", server, out)
		}
	}
	if !strings.Contains(out, `tools["$codemode"].search(args: {`) {
		t.Errorf("truncated catalog does not show the search call:\n%s", out)
	}
	// CAT-6: the budget given on the command line is nowhere in the text.
	if strings.Contains(out, "60") {
		t.Errorf("the budget figure appears in the catalog:\n%s", out)
	}
}

// --servers takes the common mcpServers file.
func TestCatalogOfAUsersServersFile(t *testing.T) {
	out := catalogRun(t, "--servers", serversFile(t, "text"))
	if !strings.Contains(out, "// mcp__text") || strings.Contains(out, "mcp__srv") {
		t.Errorf("catalog for a file with the text server only:\n%s", out)
	}
}

// An empty pool has no catalog (BCAST-3): the command says so and fails.
func TestCatalogOfAnEmptyPoolFails(t *testing.T) {
	run := runDemo(t, "", "catalog", "--servers", writeFile(t, "none.json", `{"mcpServers": {}}`))
	if run.code != 1 || !strings.Contains(run.stderr, "empty") || run.stdout != "" {
		t.Errorf("empty pool: exit %d, stdout %q, stderr %q; want exit 1 and a note on stderr", run.code, run.stdout, run.stderr)
	}
}

// A server that cannot start or an entry that cannot be used is reported
// on stderr in short lines; the other servers are catalogued, and the exit
// status (3) says the pool was partial.
func TestBrokenServerEntryWarnsAndTheOthersStillServe(t *testing.T) {
	file := writeFile(t, "servers.json", `{"mcpServers": {
		"text": {"command": "`+demoBin+`", "args": ["serve-mcp", "text"]},
		"broken": {"command": "/nonexistent/mcp-server"},
		"misconfigured": {"url": "ftp://example.com/mcp"}
	}}`)
	run := runDemo(t, "", "catalog", "--servers", file)
	if run.code != 3 || !strings.Contains(run.stdout, "// mcp__text") {
		t.Fatalf("exit %d, stdout %s, stderr %s", run.code, run.stdout, run.stderr)
	}
	for _, name := range []string{"broken", "misconfigured"} {
		if !strings.Contains(run.stderr, name) {
			t.Errorf("stderr %q, want a warning naming %s", run.stderr, name)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(run.stderr), "\n") {
		if len(line) > 400 {
			t.Errorf("warning line of %d bytes, want short lines: %q", len(line), line)
		}
	}
}
