package catalog

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/shapes"
)

var observedTable = flag.String("observedtable", "", "write the catalog token table with and without observed notes (markdown) to this file")

// exampleOf builds a JSON value that satisfies the common parts of a
// schema (type, properties, items, the first of anyOf/oneOf), standing in
// for a result the tool returned.
func exampleOf(schema map[string]any, depth int) any {
	if depth > 8 {
		return nil
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := schema[key].([]any); ok && len(alts) > 0 {
			if first, ok := alts[0].(map[string]any); ok {
				return exampleOf(first, depth+1)
			}
		}
	}
	typ, _ := schema["type"].(string)
	if list, ok := schema["type"].([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	props, hasProps := schema["properties"].(map[string]any)
	switch {
	case typ == "object" || hasProps:
		obj := map[string]any{}
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				obj[name] = exampleOf(ps, depth+1)
			}
		}
		return obj
	case typ == "array":
		items, _ := schema["items"].(map[string]any)
		return []any{exampleOf(items, depth+1)}
	case typ == "string":
		return "s"
	case typ == "number" || typ == "integer":
		return 1
	case typ == "boolean":
		return true
	}
	return nil
}

// observedStandIn is the note a tool without an output schema is given in
// the cost table: the median-length note learned from examples of the
// fixture pools' declared output schemas, as if those tools had returned
// the examples as JSON text without declaring them. No fixture records
// what its undeclared tools return, so this stands in for it.
func observedStandIn(t *testing.T) (note string, learned int) {
	var notes []string
	for _, tool := range allTools(t) {
		if len(tool.OutputSchema) == 0 {
			continue
		}
		var schema map[string]any
		if json.Unmarshal(tool.OutputSchema, &schema) != nil {
			continue
		}
		example, err := json.Marshal(exampleOf(schema, 0))
		if err != nil {
			t.Fatal(err)
		}
		if n := shapes.Text(string(example)).String(); n != "text" {
			notes = append(notes, n)
		}
	}
	if len(notes) == 0 {
		t.Fatal("no declared output schema gave a note")
	}
	slices.SortFunc(notes, func(a, b string) int { return len(a) - len(b) })
	return notes[len(notes)/2], len(notes)
}

// TestObservedNoteCostTable prices observed notes on every fixture pool:
// the catalog at the default budget without notes, and with the stand-in
// note on every tool that declares no output schema. Signatures are
// seated before notes, so no pool shows fewer tools with notes.
func TestObservedNoteCostTable(t *testing.T) {
	standIn, learned := observedStandIn(t)
	var b strings.Builder
	fmt.Fprintf(&b, "Stand-in note (median of %d notes learned from examples of declared output schemas, %d tokens): `%s`\n\n",
		learned, estimateTokens(observedPrefix+standIn+"\n"), standIn)
	b.WriteString("| pool | tools | without output schema | catalog tokens | with notes | shown | shown with notes | notes shown |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range loadPools(t) {
		tools := fixtureTools(p)
		noted := slices.Clone(tools)
		undeclared := 0
		for i := range noted {
			if len(noted[i].OutputSchema) == 0 {
				noted[i].Observed = standIn
				undeclared++
			}
		}
		plain, with := Render(tools, Options{}), Render(noted, Options{})
		if with.Shown != plain.Shown {
			t.Errorf("%s: notes changed the tools shown from %d to %d", p.File, plain.Shown, with.Shown)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d |\n", p.File, len(tools), undeclared,
			estimateTokens(plain.Body), estimateTokens(with.Body), plain.Shown, with.Shown,
			strings.Count(with.Body, "\n"+observedPrefix))
	}
	if *observedTable != "" {
		if err := os.WriteFile(*observedTable, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
