package catalog

import (
	"strconv"
	"strings"
	"testing"
)

// tsOf renders one schema document as a TypeScript type.
func tsOf(t *testing.T, schema string) string {
	t.Helper()
	var sc scratch
	return string(sc.schemaType([]byte(schema)))
}

// Proves CAT-1.
func TestCAT1_TypeScriptShapes(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"primitives", `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"z":{"type":"null"}},"required":["s","n","i","b","z"]}`,
			"{\n  s: string;\n  n: number;\n  i: number;\n  b: boolean;\n  z: null;\n}"},
		{"optional fields get ?", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"]}`,
			"{\n  a?: string;\n  b: string;\n}"},
		{"arrays are Array<T>", `{"type":"array","items":{"type":"string"}}`, "Array<string>"},
		{"nested arrays", `{"type":"array","items":{"type":"array","items":{"type":"number"}}}`, "Array<Array<number>>"},
		{"items missing is unknown", `{"type":"array"}`, "Array<unknown>"},
		{"items {} is unknown", `{"type":"array","items":{}}`, "Array<unknown>"},
		{"tuple items", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}`, "[string, number]"},
		{"enum is a union of literals", `{"type":"string","enum":["a","b","c"]}`, `"a" | "b" | "c"`},
		{"const is a literal", `{"const":"image"}`, `"image"`},
		{"type list with null", `{"type":["string","null"]}`, "string | null"},
		{"anyOf with null", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, "string | null"},
		{"real union", `{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}`, "string | Array<string>"},
		{"oneOf objects", `{"oneOf":[{"type":"object","properties":{"a":{"const":1}},"required":["a"]},{"type":"object","properties":{"b":{"const":2}},"required":["b"]}]}`,
			"{\n  a: 1;\n} | {\n  b: 2;\n}"},
		{"allOf is an intersection", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]}`,
			"{\n  a: string;\n} & {\n  b: number;\n}"},
		{"unions inside intersections are parenthesized", `{"allOf":[{"type":["string","number"]},{"enum":["x",1]}]}`, `(string | number) & ("x" | 1)`},
		{"bare object is {}", `{"type":"object"}`, "{}"},
		{"additionalProperties schema is an index signature", `{"type":"object","additionalProperties":{"type":"number"}}`,
			"{\n  [key: string]: number;\n}"},
		{"additionalProperties {} is unknown values", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":{}}`,
			"{\n  a: string;\n  [key: string]: unknown;\n}"},
		{"additionalProperties false adds nothing", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
			"{\n  a?: string;\n}"},
		{"properties without type are an object", `{"properties":{"a":{"type":"string"}}}`, "{\n  a?: string;\n}"},
		{"property without type is unknown", `{"type":"object","properties":{"a":{"description":"anything"}},"required":["a"]}`,
			"{\n  /** anything */\n  a: unknown;\n}"},
		{"non-identifier keys are quoted", `{"type":"object","properties":{"$select":{"type":"string"},"odata.type":{"type":"string"},"x-y":{"type":"string"}}}`,
			"{\n  $select?: string;\n  \"odata.type\"?: string;\n  \"x-y\"?: string;\n}"},
		{"schema keys are ignored", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}},"x-mcp-header":"A"}`,
			"{\n  a?: string;\n}"},
		{"no type at all", `{"$schema":"http://json-schema.org/draft-07/schema#"}`, "unknown"},
		{"true schema", `true`, "unknown"},
		{"false schema", `false`, "never"},
		{"not JSON", `{"type":`, "unknown"},
		{"nullable (OpenAPI)", `{"type":"string","nullable":true}`, "string | null"},
		{"integer and number merge", `{"type":["integer","number"]}`, "number"},
		{"literal strings are JSON-quoted", `{"enum":["say \"hi\"","a\nb"]}`, `"say \"hi\"" | "a\nb"`},
		{"constraint-only variants beside a base type", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`,
			"{\n  a?: string;\n  b?: string;\n}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tsOf(t, c.schema); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Proves CAT-1.
func TestCAT1_JSDocCarriesDescriptionsAndTags(t *testing.T) {
	schema := `{"type":"object","properties":{
		"id":{"type":"number","description":"The id"},
		"limit":{"type":"integer","description":"How many","default":10,"minimum":1,"maximum":100},
		"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":5,"description":"Labels"},
		"when":{"type":"string","format":"date-time"},
		"old":{"type":"string","deprecated":true,"description":"Use when instead"},
		"notes":{"type":"string","description":"First line\n  indented second line\n\nafter a blank line"}
	},"required":["id"]}`
	want := `{
  /** The id */
  id: number;
  /** How many @default 10 @minimum 1 @maximum 100 */
  limit?: number;
  /** Labels @minItems 1 @maxItems 5 */
  tags?: Array<string>;
  /** @format date-time */
  when?: string;
  /** Use when instead @deprecated */
  old?: string;
  /**
   * First line
   *   indented second line
   *
   * after a blank line
   */
  notes?: string;
}`
	if got := tsOf(t, schema); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Proves CAT-1.
func TestCAT1_LongDescriptionTagsGoOnTheirOwnLines(t *testing.T) {
	long := strings.Repeat("word ", 30)
	schema := `{"type":"object","properties":{"a":{"type":"string","description":"` + long + `","default":"x"}}}`
	want := "{\n  /**\n   * " + strings.TrimSpace(long) + "\n   * @default \"x\"\n   */\n  a?: string;\n}"
	if got := tsOf(t, schema); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Proves CAT-1.
func TestCAT1_CommentTerminatorInTextCannotCloseTheComment(t *testing.T) {
	got := tsOf(t, `{"type":"object","properties":{"a":{"type":"string","description":"glob like src/**/*.go"}}}`)
	if strings.Count(got, "*/") != 1 || !strings.Contains(got, `src/**\/*.go`) {
		t.Errorf("comment not neutralized:\n%s", got)
	}
}

// Proves CAT-1.
func TestCAT1_DescriptionFollowsRefAndNullableVariant(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"$ref":"#/$defs/A"},
		"b":{"anyOf":[{"type":"string","description":"B text","format":"uri"},{"type":"null"}]}
	},"$defs":{"A":{"type":"string","description":"A text"}}}`
	want := "{\n  /** A text */\n  a?: string;\n  /** B text @format uri */\n  b?: string | null;\n}"
	if got := tsOf(t, schema); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRefsResolveLocallyAndCyclesStop(t *testing.T) {
	cases := []struct{ name, schema, want string }{
		{"$defs", `{"type":"object","properties":{"p":{"$ref":"#/$defs/P"}},"required":["p"],"$defs":{"P":{"type":"string"}}}`,
			"{\n  p: string;\n}"},
		{"definitions", `{"type":"object","properties":{"p":{"$ref":"#/definitions/P"}},"required":["p"],"definitions":{"P":{"type":"number"}}}`,
			"{\n  p: number;\n}"},
		{"pointer escapes", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a~1b"}},"required":["p"],"$defs":{"a/b":{"type":"boolean"}}}`,
			"{\n  p: boolean;\n}"},
		{"remote refs are unknown", `{"type":"object","properties":{"p":{"$ref":"https://example.com/s.json"}},"required":["p"]}`,
			"{\n  p: unknown;\n}"},
		{"missing target is unknown", `{"type":"object","properties":{"p":{"$ref":"#/$defs/nope"}},"required":["p"]}`,
			"{\n  p: unknown;\n}"},
		{"cycle renders unknown where it recurs", `{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"}},"required":["child"]}}}`,
			"{\n  child: unknown;\n}"},
		{"self reference through #", `{"type":"object","properties":{"self":{"$ref":"#"}},"required":["self"]}`,
			"{\n  self: {\n    self: unknown;\n  };\n}"},
		{"mutual cycle", `{"$ref":"#/$defs/A","$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}},"required":["b"]},"B":{"type":"array","items":{"$ref":"#/$defs/A"}}}}`,
			"{\n  b: Array<unknown>;\n}"},
		{"ref-only loop", `{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`, "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tsOf(t, c.schema); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// nestedObject returns a schema of depth levels of objects, each holding the
// next under "next", the innermost holding a string "leaf".
func nestedObject(depth int) string {
	s := `{"type":"object","properties":{"leaf":{"type":"string"}},"required":["leaf"]}`
	for range depth - 1 {
		s = `{"type":"object","properties":{"next":` + s + `},"required":["next"]}`
	}
	return s
}

// Proves CAT-2.
func TestCAT2_DepthLimitIsTheOnlyGuard(t *testing.T) {
	within := tsOf(t, nestedObject(maxDepth))
	if !strings.Contains(within, "leaf: string;") || strings.Contains(within, "unknown") {
		t.Errorf("a schema %d levels deep must render completely:\n%s", maxDepth, within)
	}
	beyond := tsOf(t, nestedObject(maxDepth+1))
	if strings.Contains(beyond, "leaf") || strings.Count(beyond, "next: unknown;") != 1 {
		t.Errorf("the level beyond the limit must be unknown:\n%s", beyond)
	}
	// Arrays count as levels too.
	arr := `{"type":"string"}`
	for range maxDepth + 1 {
		arr = `{"type":"array","items":` + arr + `}`
	}
	if got, want := tsOf(t, arr), strings.Repeat("Array<", maxDepth)+"unknown"+strings.Repeat(">", maxDepth); got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

// Proves CAT-2, EDGE-22.
func TestCAT2_EDGE22_WideSchemasAndLongEnumsRenderCompletely(t *testing.T) {
	var props, enum []string
	for i := range 300 {
		props = append(props, `"field`+strconv.Itoa(i)+`":{"type":"string","description":"Field `+strconv.Itoa(i)+`"}`)
		enum = append(enum, `"v`+strconv.Itoa(i)+`"`)
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") +
		`,"choice":{"enum":[` + strings.Join(enum, ",") + `]}}}`
	got := tsOf(t, schema)
	for i := range 300 {
		if !strings.Contains(got, "/** Field "+strconv.Itoa(i)+" */\n  field"+strconv.Itoa(i)+"?: string;") {
			t.Fatalf("field%d missing", i)
		}
		if !strings.Contains(got, `"v`+strconv.Itoa(i)+`"`) {
			t.Fatalf("enum value v%d missing", i)
		}
	}
}

// Proves EDGE-23.
func TestEDGE23_LongFieldDescriptionsAreKeptVerbatim(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, "Line "+strconv.Itoa(i)+": "+strings.Repeat("criterion ", 20))
	}
	text := strings.Join(lines, "\n")
	schema := `{"type":"object","properties":{"mode":{"type":"string","description":` + quoted(text) + `}}}`
	got := tsOf(t, schema)
	for _, l := range lines {
		if !strings.Contains(got, "   * "+strings.TrimRight(l, " ")+"\n") {
			t.Fatalf("line %q not kept verbatim in\n%s", l, got)
		}
	}
}

// Proves EDGE-21.
func TestEDGE21_EmptyOutputSchemaIsEmptyObject(t *testing.T) {
	var sc scratch
	sig := sc.signature("tools.x", []byte(`{"type":"object"}`), []byte(`{"type":"object"}`))
	if sig != "tools.x(args: {}): Promise<{}>" {
		t.Errorf("got %s", sig)
	}
}

// Proves CAT-1, EDGE-19.
func TestCAT1_EDGE19_ReturnTypeComesFromOutputSchema(t *testing.T) {
	var sc scratch
	in := []byte(`{"type":"object","properties":{"id":{"type":"number"}},"required":["id"]}`)
	if got := sc.signature("tools.a", in, nil); got != "tools.a(args: {\n  id: number;\n}): Promise<unknown>" {
		t.Errorf("without outputSchema: %s", got)
	}
	out := []byte(`{"type":"object","properties":{"ok":{"type":"boolean","description":"Done"}},"required":["ok"]}`)
	if got := sc.signature("tools.a", in, out); got != "tools.a(args: {\n  id: number;\n}): Promise<{\n  /** Done */\n  ok: boolean;\n}>" {
		t.Errorf("with outputSchema: %s", got)
	}
}

func TestHostileSchemasTerminate(t *testing.T) {
	// A DAG of definitions that doubles at every level expands within the
	// depth limit but stays bounded by the visit valve.
	var defs []string
	for i := range 40 {
		next := `{"type":"string"}`
		if i < 39 {
			next = `{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"}`
		}
		defs = append(defs, `"d`+strconv.Itoa(i)+`":{"anyOf":[`+next+`,{"allOf":[`+next+`,`+next+`]}]}`)
	}
	got := tsOf(t, `{"$ref":"#/$defs/d0","$defs":{`+strings.Join(defs, ",")+`}}`)
	if got == "" {
		t.Fatal("empty rendering")
	}
	deep := strings.Repeat("[", maxNesting+10) + strings.Repeat("]", maxNesting+10)
	if got := tsOf(t, deep); got != "unknown" {
		t.Errorf("over-nested JSON: %s", got)
	}
}

// Proves CAT-1.
func TestCAT1_TagsFromAllOfMembers(t *testing.T) {
	schema := `{"type":"object","properties":{"top":{"allOf":[{"type":"integer","minimum":0,"description":"inner"},{"type":"number","maximum":50}],"description":"Page size"}}}`
	want := "{\n  /** Page size @minimum 0 @maximum 50 */\n  top?: number;\n}"
	if got := tsOf(t, schema); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
