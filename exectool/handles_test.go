package exectool

import (
	"errors"
	"strings"
	"testing"
	"unicode"
)

func TestWithHandlesAddsTwoLinesWithoutNumbers(t *testing.T) {
	for _, desc := range []string{Description(), DescriptionWithCatalog("tools.mcp__a__b(args: {}): Promise<unknown>\n", nil)} {
		got := WithHandles(desc)
		if got != WithHandles(desc) || strings.Count(got, "\n")-strings.Count(desc, "\n") != 2 {
			t.Fatalf("not two stable lines more:\n%s", got)
		}
		if strings.IndexFunc(handleLines, unicode.IsDigit) >= 0 {
			t.Errorf("the lines carry a number: %q", handleLines)
		}
		if !strings.Contains(got, budgetSentence+"\n"+handleLines) {
			t.Errorf("the lines do not follow the budget sentence:\n%s", got)
		}
	}
}

func TestParseHandle(t *testing.T) {
	for args, want := range map[string]HandleRequest{
		`{"code": "return 1"}`: {},
		`{"wait": "run_ab"}`:   {Wait: "run_ab"},
		`{"cancel": "run_ab"}`: {Cancel: "run_ab"},
		`not json`:             {},
	} {
		got, err := ParseHandle([]byte(args))
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", args, got, err, want)
		}
	}
	for _, args := range []string{`{"wait": 3}`, `{"wait": ""}`, `{"wait": "run_a", "code": "x"}`, `{"cancel": "run_a", "wait": "run_a"}`} {
		if _, err := ParseHandle([]byte(args)); !errors.Is(err, ErrBadArguments) {
			t.Errorf("%s: err %v, want an argument error", args, err)
		}
	}
}
