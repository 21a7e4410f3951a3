package broadcast

import (
	"strings"
	"testing"
	"unicode"
)

// Every fixed string the model reads from this package: no tool name Exec
// (a notice may arrive while Exec is not declared) and no digits (no tuning
// number can hide in the wording; counts are inserted from the pool).
func TestTextNamesNoExecAndCarriesNoNumbers(t *testing.T) {
	texts := map[string]string{
		"fullLead":           fullLead,
		"diffLead":           diffLead,
		"diffAddedHeader":    diffAddedHeader,
		"diffChangedHeader":  diffChangedHeader,
		"diffRemovedHeader":  diffRemovedHeader,
		"emptyNotice":        emptyNotice,
		"withdrawnNotice":    withdrawnNotice,
		"instructionsHeader": instructionsHeader("server"),
		"diffRemovedLine":    diffRemovedLine("ns"),
	}
	for name, text := range texts {
		if strings.Contains(text, "Exec") {
			t.Errorf("%s names Exec: %q", name, text)
		}
		if strings.IndexFunc(text, unicode.IsDigit) >= 0 {
			t.Errorf("%s carries a number: %q", name, text)
		}
	}
	if hashParts(fullLead, "body") != hashText(fullText("body")) {
		t.Error("hashParts differs from hashText of the joined text")
	}
	if got := diffAddedLine("ns", 1) + diffChangedLine("ns", 3, 2); got != "- mcp__ns (1 tool)\n- mcp__ns (2 tools, was 3)\n" {
		t.Errorf("namespace lines = %q", got)
	}
}
