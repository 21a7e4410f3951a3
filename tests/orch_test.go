package tests

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// orch1Script is ORCH-1's script exactly as the specification writes it.
const orch1Script = `const a = await tools.mcp__srv__fetch({ id: 1 }); return await tools.mcp__srv__store({ value: a });`

// ORCH-1: the specification's script, unchanged, makes both calls for real
// and passes the first call's value to the second.
func TestORCH1_ScriptRunsAsWrittenThroughTheBinary(t *testing.T) {
	res, _ := execJSON(t, orch1Script, "")
	if !res.OK {
		t.Fatalf("ORCH-1 failed: %s", res.Text)
	}
	// Both calls happened, in order...
	if diff := cmp.Diff([]string{"mcp__srv__fetch", "mcp__srv__store"}, res.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	// ...and store received fetch's value: it hands back what it stored.
	var stored struct {
		Key    string `json:"key"`
		Stored struct {
			ID    int      `json:"id"`
			Title string   `json:"title"`
			Owner string   `json:"owner"`
			Tags  []string `json:"tags"`
		} `json:"stored"`
	}
	if err := json.Unmarshal([]byte(res.Text), &stored); err != nil {
		t.Fatalf("the model received %q, want store's JSON reply: %v", res.Text, err)
	}
	if stored.Key == "" || stored.Stored.ID != 1 || stored.Stored.Title != "Quarterly report" || len(stored.Stored.Tags) != 2 {
		t.Errorf("store received %+v, want record 1 as fetch returned it", stored)
	}
}

// SUM-1, SUM-2: the count first, then one leaf name per line, no Exec.
func TestSUM1_SUM2_SummaryCountsAndListsTheCalls(t *testing.T) {
	res, _ := execJSON(t, orch1Script, "")
	if want := "2 tool calls\nmcp__srv__fetch\nmcp__srv__store"; res.Summary != want {
		t.Errorf("summary = %q, want %q", res.Summary, want)
	}
}

// The three value shapes of ORCH-2, plus the image-only reply of EDGE-20:
// the script sees an object, a string, and null twice; the image still
// reaches the model.
func TestORCH2_ThreeValueShapesThroughTheBinary(t *testing.T) {
	script := `
const structured = await tools.mcp__srv__fetch({ id: 2 });
const text = await tools.mcp__text__echo({ text: "hello" });
const nothing = await tools.mcp__text__nothing({});
const image = await tools.mcp__text__image({});
return {
  structured: [typeof structured, structured.title, Object.keys(structured).sort().join(",")],
  text: [typeof text, text],
  nothing: nothing === null,
  image: image === null,
};`
	res, _ := execJSON(t, script, "")
	if !res.OK {
		t.Fatalf("script failed: %s", res.Text)
	}
	var got struct {
		Structured []string `json:"structured"`
		Text       []string `json:"text"`
		Nothing    bool     `json:"nothing"`
		Image      bool     `json:"image"`
	}
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("result %q: %v", res.Text, err)
	}
	// No envelope: the object is the structuredContent itself.
	if diff := cmp.Diff([]string{"object", "Release checklist", "id,owner,tags,title"}, got.Structured); diff != "" {
		t.Errorf("structured value (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"string", "hello"}, got.Text); diff != "" {
		t.Errorf("text value (-want +got):\n%s", diff)
	}
	if !got.Nothing || !got.Image {
		t.Errorf("nothing=%v image=%v, want both values null", got.Nothing, got.Image)
	}
	if res.Images != 1 || len(res.ImageData) != 1 || res.ImageData[0].MIMEType != "image/png" || !bytes.HasPrefix(res.ImageData[0].Data, []byte("\x89PNG")) {
		t.Errorf("images = %d %+v, want the one PNG attached for the model, its data with it", res.Images, res.ImageData)
	}
}

// SUM-3: over two calls, the last two are listed after "... N tool calls".
func TestSUM3_MoreThanTwoCallsListTheLastTwo(t *testing.T) {
	script := `for (const text of ["a", "b", "c"]) await tools.mcp__text__echo({ text });
return await tools.mcp__text__nothing({});`
	res, _ := execJSON(t, script, "")
	if want := "... 4 tool calls\nmcp__text__echo\nmcp__text__nothing"; res.Summary != want {
		t.Errorf("summary = %q, want %q", res.Summary, want)
	}
	if len(res.Calls) != 4 {
		t.Errorf("calls = %q, want all four", res.Calls)
	}
}

// SUM-5: a script without nested calls summarizes as "0 tool calls".
func TestSUM5_NoCallsIsZeroToolCalls(t *testing.T) {
	res, _ := execJSON(t, `console.log("only a log line");`, "")
	if !res.OK || res.Summary != "0 tool calls" || !strings.Contains(res.Text, "only a log line") {
		t.Errorf("got %+v, want ok, summary %q and the log line", res, "0 tool calls")
	}
}

// SUM-6, EDGE-9: a script that throws fails with its message and the log
// written before the throw; the summary is "failed".
func TestSUM6_EDGE9_FailedScriptKeepsItsLogAndSummarizesAsFailed(t *testing.T) {
	script := `await tools.mcp__text__echo({ text: "x" });
console.log("before the throw");
throw new Error("boom");`
	res, _ := execJSON(t, script, "")
	if res.OK || res.Summary != "failed" {
		t.Errorf("ok=%v summary=%q, want a failure summarized as failed", res.OK, res.Summary)
	}
	for _, want := range []string{"boom", "before the throw"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("the model received %q, want it to contain %q", res.Text, want)
		}
	}
	if diff := cmp.Diff([]string{"mcp__text__echo"}, res.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// ORCH-5: an isError reply rejects that call only; try/catch goes on.
func TestORCH5_FailedCallIsCaughtAndTheScriptGoesOn(t *testing.T) {
	script := `let caught = "";
try { await tools.mcp__text__fail({ message: "quota exceeded" }); } catch (e) { caught = e.message; }
const r = await tools.mcp__srv__fetch({ id: 5 });
return { caught, title: r.title };`
	res, _ := execJSON(t, script, "")
	if !res.OK || !strings.Contains(res.Text, "quota exceeded") || !strings.Contains(res.Text, "Roadmap draft") {
		t.Errorf("got %+v, want ok with the caught error and the later call's value", res)
	}
}

// A caught rejection says which call failed: of three calls in a
// Promise.all, the one that failed is named in e.message, as it is when the
// rejection goes uncaught.
func TestCaughtToolRejectionNamesTheTool(t *testing.T) {
	script := `try {
  await Promise.all([
    tools.mcp__text__echo({ text: "a" }),
    tools.mcp__text__fail({ message: "disk full" }),
    tools.mcp__srv__fetch({ id: 5 }),
  ]);
  return "no failure";
} catch (e) {
  return "batch failed: " + e.message;
}`
	res, _ := execJSON(t, script, "")
	if want := "batch failed: mcp__text__fail: disk full"; !res.OK || res.Text != want {
		t.Errorf("got ok=%v %q, want ok with %q", res.OK, res.Text, want)
	}
}

// `demo exec -` reads the script from standard input.
func TestScriptFromStandardInput(t *testing.T) {
	run := runDemo(t, orch1Script, "exec", "--json", "-")
	res := decodeExecJSON(t, run)
	if !res.OK || len(res.Calls) != 2 {
		t.Errorf("script from stdin: %+v", res)
	}
}

// SUM-8: without --json and off a terminal, the output is the tool block
// (the collapsed line is the name Exec alone, no script text) with its
// summary, and the result exactly as the model receives it, without colours
// and without a line per call (the live summary, SUM-4, is for a person
// watching a terminal).
func TestHumanOutputShowsTheSummaryAndTheModelText(t *testing.T) {
	run := runDemo(t, "", "exec", "--script", writeFile(t, "s.js", orch1Script))
	if run.code != 0 {
		t.Fatalf("exit %d, stderr %s", run.code, run.stderr)
	}
	if strings.Contains(run.stdout+run.stderr, "live:") {
		t.Errorf("a line per call off a terminal:\n%s", run.stdout)
	}
	for _, want := range []string{
		"✓ Exec\n  2 tool calls\n  mcp__srv__fetch\n  mcp__srv__store\n", "What the model receives", `"title":"Quarterly report"`,
	} {
		if !strings.Contains(run.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, run.stdout)
		}
	}
	if strings.Contains(run.stdout, "\x1b[") {
		t.Errorf("colours in output that is not a terminal:\n%q", run.stdout)
	}
	if strings.Contains(run.stdout, "const a") {
		t.Errorf("the script's text appears in the output:\n%s", run.stdout)
	}
}

// EDGE-8: a blank script is an argument error; no sandbox runs, no call.
func TestEDGE8_BlankScriptIsAnArgumentError(t *testing.T) {
	res, _ := execJSON(t, "  \n\t", "")
	if res.OK || res.Summary != "failed" || len(res.Calls) != 0 || !strings.Contains(res.Text, "code") {
		t.Errorf("blank script: %+v, want a failure about the missing code", res)
	}
}

// ORCH-7, EDGE-10: no return value and no output is said in words, never
// an empty text.
func TestORCH7_EDGE10_NothingReturnedIsSaidExplicitly(t *testing.T) {
	res, _ := execJSON(t, `const x = 1;`, "")
	if !res.OK || strings.TrimSpace(res.Text) == "" || res.Summary != "0 tool calls" {
		t.Errorf("script without result: %+v, want ok with an explicit text", res)
	}
}
