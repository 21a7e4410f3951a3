package catalog

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds returns real schemas from every fixture pool: the first tool's
// input schema and each pool's first output schema, plus the schemas known
// to be odd (cycles, repeated $defs, no type).
func fuzzSeeds(f *testing.F) []Tool {
	var seeds []Tool
	for _, p := range loadPools(f) {
		tools := fixtureTools(p)
		seeds = append(seeds, tools[0])
		for _, tl := range tools {
			if len(tl.OutputSchema) > 0 {
				seeds = append(seeds, tl)
				break
			}
		}
	}
	for _, g := range goldenTools {
		for _, tl := range fixtureTools(loadPool(f, g.pool)) {
			if strings.HasSuffix(tl.Name, "__"+g.tool) {
				seeds = append(seeds, tl)
			}
		}
	}
	return seeds
}

var handSeeds = []string{
	`{}`, `true`, `false`, `null`, `[]`, `"x"`, `1e400`, `{"type":[]}`, `{"type":["object","array","string"]}`,
	`{"$ref":"#"}`, `{"$ref":"#/"}`, `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`,
	`{"properties":{"a":{"$ref":"#/properties"}}}`, `{"items":[{"$ref":"#/items/0"}]}`,
	`{"anyOf":[]}`, `{"anyOf":[{},{"type":"null"}]}`, `{"allOf":[{"anyOf":[{"type":"string"},{"type":"number"}]}]}`,
	`{"enum":[]}`, `{"enum":[{"a":[1,2,{"b":null}]},"*/"]}`, `{"const":{"x":"\u2028"}}`,
	`{"type":"object","properties":{"a":{"description":"*/ /* \n * x"}},"required":[1,{}]}`,
	`{"type":"object","properties":{"a":{},"a":{"type":"string"}}}`, `{"type":"object","patternProperties":{"^x":{"type":"number"}}}`,
	`{"type":"string","description":"\ud800 lone surrogate","default":"\udfff"}`, "{\"description\":\"\xff\xfe\"}",
}

// FuzzRenderSchema renders arbitrary bytes as a schema: it must never
// panic, must terminate, and must give the same valid UTF-8 every time.
func FuzzRenderSchema(f *testing.F) {
	for _, tl := range fuzzSeeds(f) {
		f.Add([]byte(tl.InputSchema))
		if len(tl.OutputSchema) > 0 {
			f.Add([]byte(tl.OutputSchema))
		}
	}
	for _, s := range handSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		var sc scratch
		got := string(sc.schemaType(schema))
		if got == "" || !utf8.ValidString(got) {
			t.Fatalf("rendering %q gave %q", schema, got)
		}
		var fresh scratch
		if again := string(fresh.schemaType(schema)); again != got {
			t.Fatalf("rendering is not deterministic for %q", schema)
		}
		// The decoder accepts all JSON (short enough not to hit the nesting
		// bound) and agrees with encoding/json on what it decodes.
		if json.Valid(schema) && len(schema) < 2*maxNesting {
			n, err := parseJSON(schema)
			if err != nil {
				t.Fatalf("valid JSON %q was rejected: %v", schema, err)
			}
			var want, got any
			_ = json.Unmarshal(schema, &want)
			_ = json.Unmarshal([]byte(n.json()), &got)
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("decoded %q as %s", schema, n.json())
			}
		}
	})
}

// FuzzRenderTool renders a one-tool pool from arbitrary parts: the entry is
// always shown, under a call form that names the tool.
func FuzzRenderTool(f *testing.F) {
	for _, tl := range fuzzSeeds(f) {
		f.Add(tl.Name, tl.Description, []byte(tl.InputSchema), []byte(tl.OutputSchema))
	}
	f.Add(`mcp__a"b__c\d`, "*/ desc", []byte(`{}`), []byte(nil))
	f.Add("", "", []byte(nil), []byte(nil))
	f.Fuzz(func(t *testing.T, name, desc string, input, output []byte) {
		c := Render([]Tool{{Name: name, Description: desc, InputSchema: input, OutputSchema: output}}, Options{Budget: 1})
		if c.Shown != 1 || c.Total != 1 || c.Truncated {
			t.Fatalf("Shown=%d Total=%d Truncated=%v", c.Shown, c.Total, c.Truncated)
		}
		if !strings.Contains(c.Body, toolCallee(name)+"(args: ") {
			t.Fatalf("call form of %q missing", name)
		}
		if strings.Count(c.Body, "/**") != strings.Count(c.Body, "*/") {
			t.Fatalf("unbalanced comments in\n%s", c.Body)
		}
	})
}

// FuzzSearchArgs feeds arbitrary argument bytes to search: it must either
// answer or return the shape error, never panic.
func FuzzSearchArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"query":"issue"}`, `{"q":"x"}`, `{"query":null}`, `"x"`, `[{}]`, `{"query":"` + "\xff" + `"}`, `{"query":"a","query":5}`} {
		f.Add([]byte(s))
	}
	ix := NewIndex(fixtureTools(loadPool(f, "memory")))
	f.Fuzz(func(t *testing.T, args []byte) {
		res, err := ix.Search(args)
		if err != nil {
			if !strings.Contains(err.Error(), SearchSignature()) {
				t.Fatalf("error without the expected shape: %v", err)
			}
			return
		}
		if res == nil {
			t.Fatal("nil result")
		}
	})
}
