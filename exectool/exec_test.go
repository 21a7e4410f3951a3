package exectool

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/mcpexec/mcpexec/catalog"
)

// Proves BCAST-1, NFR-5.
func TestBCAST1_NFR5_DescriptionIsAPoolIndependentConstant(t *testing.T) {
	// D6: the search call form is taught only by a truncated catalog.
	for _, banned := range []string{"mcp__", "PARTIAL", "catalog is partial", catalog.SearchCallForm()} {
		if strings.Contains(Description(), banned) {
			t.Errorf("description contains %q", banned)
		}
	}
	if strings.IndexFunc(Description(), unicode.IsDigit) >= 0 {
		t.Error("description contains a figure (a budget, a limit, a count)")
	}
	// It names the sandbox's API surface, the reserved namespace from the
	// same constant the sandbox and the catalog use.
	for _, want := range []string{`"tools"`, "await", `tools["` + catalog.SearchNamespace + `"]`, "console.log", "return"} {
		if !strings.Contains(Description(), want) {
			t.Errorf("description lacks %q", want)
		}
	}
}

// Proves CAT-8: the description is a constant: the same bytes on every
// call, whatever pools have been rendered in between.
func TestCAT8_DescriptionDoesNotChangeWithThePool(t *testing.T) {
	before := Description()
	for _, tools := range [][]catalog.Tool{nil, {{Name: "mcp__a__b", Description: "x"}}, {{Name: "mcp__c__d", Description: "y"}, {Name: "mcp__e__f"}}} {
		catalog.Render(tools, catalog.Options{})
		if Description() != before {
			t.Fatal("description changed after rendering a pool")
		}
	}
	var schema map[string]any
	if err := json.Unmarshal(InputSchema(), &schema); err != nil {
		t.Fatalf("input schema is not JSON: %v", err)
	}
}

// Proves NFR-9.
func TestNFR9_ExecIsNotConcurrencySafe(t *testing.T) {
	if ConcurrencySafe {
		t.Error("Exec must not be marked concurrency-safe")
	}
}

// Proves EDGE-8.
func TestEDGE8_MissingOrBlankCodeIsAnArgumentError(t *testing.T) {
	for _, args := range []string{`{}`, `{"code":""}`, `{"code":"   \n\t"}`, `{"code":42}`, `{"code":null}`, `[]`, `"x"`, ``} {
		code, err := ParseArguments(json.RawMessage(args))
		if err == nil || !errors.Is(err, ErrBadArguments) {
			t.Errorf("%s: code %q err %v, want an argument error", args, code, err)
			continue
		}
		if !strings.Contains(err.Error(), "code") {
			t.Errorf("%s: message %q does not name the parameter", args, err)
		}
	}
	code, err := ParseArguments(json.RawMessage(`{"code":"return 1"}`))
	if err != nil || code != "return 1" {
		t.Errorf("valid arguments: %q, %v", code, err)
	}
}

// Proves SUM-1, SUM-2, SUM-3, SUM-5, SUM-6, EDGE-26, EDGE-28: the summary is
// presentation (count plus the two most recent calls), built from the calls
// alone. With the argument and summary tests of this package and the
// facade's wiring tests, it is the tool layer of NFR-11.
func TestSUM1_SUM2_SUM3_SUM5_SUM6_Summary(t *testing.T) {
	cases := []struct {
		calls  []string
		failed bool
		want   string
	}{
		{nil, false, "0 tool calls"},
		{[]string{"mcp__a__x"}, false, "1 tool call\nmcp__a__x"},
		{[]string{"mcp__a__x", "mcp__b__y"}, false, "2 tool calls\nmcp__a__x\nmcp__b__y"},
		{[]string{"mcp__a__x", "mcp__b__y", "mcp__c__z"}, false, "... 3 tool calls\nmcp__b__y\nmcp__c__z"},
		{[]string{"mcp__a__x", "mcp__b__y"}, true, "failed"},
	}
	for _, c := range cases {
		got := Summary(c.calls, c.failed)
		if got != c.want {
			t.Errorf("Summary(%v, %v) = %q, want %q", c.calls, c.failed, got, c.want)
		}
		if strings.Contains(got, Name) {
			t.Errorf("summary %q repeats the tool name", got)
		}
	}
}

// Proves SUM-8.
func TestSUM8_CollapsedLineIsTheToolNameAlone(t *testing.T) {
	if CollapsedLine() != "Exec" {
		t.Errorf("collapsed line %q", CollapsedLine())
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"0 tool calls":                           "0 tool calls",
		"failed":                                 "failed",
		"1 tool call\nmcp__a__x":                 "1 tool call: mcp__a__x",
		"... 3 tool calls\nmcp__a__x\nmcp__b__y": "... 3 tool calls: mcp__a__x, mcp__b__y",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
