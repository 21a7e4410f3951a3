package tests

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// With no --settings the built-in pool uses the demo's defaults: the
// built-in tools are allowed and mcp__srv__delete asks.
const deleteScript = `return await tools.mcp__srv__delete({ id: 4 });`

// PERM-1: a nested call no rule allows is asked about, on standard input,
// under its leaf name and arguments; "y" lets it run.
func TestPERM1_PromptAnsweredOnStdinAllowsTheCall(t *testing.T) {
	res, run := execJSON(t, deleteScript, "y\n", "--ask", "prompt")
	if !res.OK || res.Text != "deleted record 4" {
		t.Errorf("answered yes: %+v", res)
	}
	if strings.Count(run.stderr, "Allow mcp__srv__delete") != 1 || !strings.Contains(run.stderr, `{"id":4}`) {
		t.Errorf("stderr %q, want one question naming the leaf tool and its arguments", run.stderr)
	}
}

// PERM-4, SUM-7: a rejection the script does not catch fails the run with
// the person's reason, and the rejected call is still counted.
func TestPERM4_RejectOnStdinFailsTheScriptWithTheReason(t *testing.T) {
	res, _ := execJSON(t, deleteScript, "n not on a Friday\n", "--ask", "prompt")
	if res.OK || !strings.Contains(res.Text, "not on a Friday") {
		t.Errorf("rejected with a reason: %+v, want a failure carrying the reason", res)
	}
	// SUM-7: the rejected call was made, so it is counted.
	if res.Summary != "failed" || !slices.Equal(res.Calls, []string{"mcp__srv__delete"}) {
		t.Errorf("summary %q calls %q, want failed and the rejected call listed", res.Summary, res.Calls)
	}
}

// PERM-3: the reason of a rejection reaches the script as that call's error.
func TestPERM3_RejectionReachesTheScriptAsThatCallsError(t *testing.T) {
	script := `try { await tools.mcp__srv__delete({ id: 1 }); } catch (e) { return "caught: " + e.message; }`
	res, _ := execJSON(t, script, "no: keep it\n", "--ask", "prompt")
	if !res.OK || !strings.HasPrefix(res.Text, "caught: ") || !strings.Contains(res.Text, "keep it") {
		t.Errorf("got %+v, want the script to catch the rejection with its reason", res)
	}
}

// PERM-1: "always" saves an allow rule for the leaf tool's full name in
// the settings file, and the next call is not asked about.
func TestPERM1_AllowAlwaysIsSavedUnderTheLeafName(t *testing.T) {
	// No rule names delete, so it is asked; "always" must persist a rule
	// for the leaf tool, never for Exec.
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__text"]}}`)
	script := `await tools.mcp__srv__delete({ id: 2 }); return await tools.mcp__srv__delete({ id: 3 });`
	res, run := execJSON(t, script, "a\n", "--ask", "prompt", "--settings", settings)
	if !res.OK {
		t.Fatalf("allowed always: %+v (stderr %s)", res, run.stderr)
	}
	if n := strings.Count(run.stderr, "Allow mcp__srv__delete"); n != 1 {
		t.Errorf("asked %d times, want once: the second call is allowed by the saved rule", n)
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Permissions struct {
			Allow []string `json:"allow"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatalf("settings after the answer: %v\n%s", err, data)
	}
	if diff := cmp.Diff([]string{"mcp__text", "mcp__srv__delete"}, saved.Permissions.Allow); diff != "" {
		t.Errorf("allow rules after \"always\" (-want +got):\n%s", diff)
	}
}

// PERM-2: an allow rule for the leaf name runs the nested call unasked.
func TestPERM2_AllowRuleRunsWithoutAsking(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__srv__delete"]}}`)
	res, run := execJSON(t, deleteScript, "", "--ask", "prompt", "--settings", settings)
	if !res.OK || strings.Contains(run.stderr, "Allow") {
		t.Errorf("allowed by rule: %+v, stderr %q; want it to run without a question", res, run.stderr)
	}
}

// Without --ask and without a terminal, questions are denied, not read
// from a pipe that may hold anything; the person is told why no one was
// asked and how to allow the call.
func TestAskDefaultsToDenyWithoutATerminal(t *testing.T) {
	res, run := execJSON(t, deleteScript, "y\n")
	if res.OK || strings.Contains(run.stderr, "Allow") {
		t.Errorf("no terminal, no --ask: %+v, stderr %q; want a denial without a question", res, run.stderr)
	}
	if !strings.Contains(run.stderr, "standard input is not a terminal") || !strings.Contains(run.stderr, "pass --ask allow") {
		t.Errorf("stderr %q, want why no one was asked and the --ask allow hint", run.stderr)
	}
}

// PERM-4: under --ask deny a call no rule allows fails the script with a
// refusal that says how to allow it: an allow rule, or --ask allow. The
// model's text is the same on every run; the person sees the hint on
// stderr, with the settings file named.
func TestPERM4_AskDenyRefusalSaysHowToAllow(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__text"]}}`)
	want := `Error: permission to call mcp__srv__delete needs the user's approval and no one is available to give it; ` +
		`to allow it, the user can add "mcp__srv__delete" to permissions.allow in the settings file, or pass --ask allow ` +
		`(rejected by tools.mcp__srv__delete called at line 1:36)`
	for range 2 {
		res, run := execJSON(t, deleteScript, "", "--ask", "deny", "--settings", settings)
		if res.OK || res.Text != want {
			t.Errorf("--ask deny: text\n%q\nwant\n%q", res.Text, want)
		}
		if !strings.Contains(run.stderr, "--ask deny") || !strings.Contains(run.stderr, `pass --ask allow, or add "mcp__srv__delete" to permissions.allow in `+settings) {
			t.Errorf("stderr %q, want the refusal and how to allow it, naming the settings file", run.stderr)
		}
	}
}

// --ask allow answers every question with "allow once".
func TestAskAllowAnswersYes(t *testing.T) {
	res, _ := execJSON(t, deleteScript, "", "--ask", "allow")
	if !res.OK {
		t.Errorf("--ask allow: %+v", res)
	}
}

// PERM-3, EDGE-27: a denied tool is out of the pool: calling it is an
// unknown-tool error pointing to search, and it is not counted.
func TestPERM3_EDGE27_DeniedToolIsUnknownToTheScriptAndNotCounted(t *testing.T) {
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__text"], "deny": ["mcp__srv__delete"]}}`)
	script := `try { await tools.mcp__srv__delete({ id: 1 }); } catch (e) { console.log(e.message); }
return await tools.mcp__text__echo({ text: "after" });`
	res, _ := execJSON(t, script, "", "--settings", settings)
	if !res.OK || !strings.Contains(res.Text, `tools["$codemode"].search`) {
		t.Errorf("got %+v, want the call rejected as unknown, pointing to search", res)
	}
	if !slices.Equal(res.Calls, []string{"mcp__text__echo"}) {
		t.Errorf("calls = %q, want only the call that reached the host", res.Calls)
	}
}
