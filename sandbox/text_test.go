package sandbox

import (
	"strings"
	"testing"
	"unicode"

	"github.com/mcpexec/mcpexec/jsplatform"
)

// The fixed model-visible strings carry no figures at all: a limit or budget
// in them would make tuning change the prompt.
func TestModelVisibleTextCarriesNoNumbers(t *testing.T) {
	fixed := []string{
		msgNotPlainObject, msgCallLimit, msgOverBudget, msgAborted, msgNeverSettles, msgImport,
		msgImportStatement, msgCodeGeneration, msgNoOutput, msgEmptyCode, msgCrashed, msgHostCallCrashed,
		msgUnknownTool("mcp__a__b"), msgSearchNotTopLevel(), searchCallForm,
		msgWorkerOutOfMemory, msgWorkerStackOverflow, msgWorkerCrashed, msgWorkerUnavailable, msgResultTooLarge,
		msgExportStatement, msgImportMeta, msgRequire, msgTimerCallback, msgTooManyTimers, msgEngineSyntax,
		msgScriptTooLong, jsplatform.ConversionText,
	}
	for _, s := range fixed {
		if strings.IndexFunc(s, unicode.IsDigit) >= 0 {
			t.Errorf("model-visible text contains a figure: %q", s)
		}
		if strings.IndexFunc(s, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
			t.Errorf("model-visible text is not plain English ASCII: %q", s)
		}
	}
}

func TestModelVisibleTextNeverStatesALimit(t *testing.T) {
	limits := Limits{MaxLogChars: 137, MaxResultChars: 4321}
	res := run(newFakeHost(), `for (let i = 0; i < 500; i++) console.log("xx"); return "y".repeat(5000);`, limits)
	wantOK(t, res)
	for _, figure := range []string{"137", "4321"} {
		if strings.Contains(res.Text, figure) {
			t.Errorf("text states the limit %s:\n%s", figure, res.Text)
		}
	}
}

func TestResultTextIsByteStable(t *testing.T) {
	h := newFakeHost().value("mcp__s__t", `{"b":1,"a":[true,null,"x"]}`)
	code := `const v = await tools.mcp__s__t({}); console.log(v); try { await tools.mcp__s__zz(); } catch (e) { console.log(e.message); } return v;`
	first := run(h, code)
	for i := 0; i < 20; i++ {
		if again := run(h, code); again.Text != first.Text {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, again.Text, first.Text)
		}
	}
}
