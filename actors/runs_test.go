package actors

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// endWith adds a run to r and ends it with a whole value of n bytes.
func endWith(r *runRegistry, id RunID, n int) {
	e := r.add(id, nil)
	value := json.RawMessage(`"` + strings.Repeat("x", n-2) + `"`)
	e.end(RunReport{ID: id, State: RunCompleted, Result: sandbox.Result{OK: true}, Stored: &exectool.Stored{Value: value}})
}

func known(r *runRegistry, id RunID) bool {
	_, ended, ok := r.lookup(id)
	return ok && ended != nil
}

// Ended runs are kept within a size as well as a time and a count: the
// oldest go first, and the newest stays whatever its size, since its
// callers may not have read it yet.
func TestEndedRunsAreKeptWithinABytesBound(t *testing.T) {
	r := newRunRegistry()
	r.bytesKept = 1000
	endWith(r, "run_a", 400)
	endWith(r, "run_b", 400)
	if !known(r, "run_a") || !known(r, "run_b") {
		t.Fatal("two runs within the bound were forgotten")
	}
	endWith(r, "run_c", 400)
	if known(r, "run_a") {
		t.Error("the oldest run is still kept past the bound")
	}
	if !known(r, "run_b") || !known(r, "run_c") {
		t.Error("the newer runs within the bound were forgotten")
	}
	if r.endedBytes > r.bytesKept {
		t.Errorf("ended runs hold %d bytes, over the bound of %d", r.endedBytes, r.bytesKept)
	}

	endWith(r, "run_huge", 5000)
	if !known(r, "run_huge") {
		t.Error("the newest run, larger than the bound alone, was forgotten before its callers read it")
	}
	if known(r, "run_b") || known(r, "run_c") {
		t.Error("older runs are kept beside one that fills the bound")
	}
	if len(r.ended) != 1 || len(r.order) != 1 || r.endedBytes != reportBytes(r.ended["run_huge"].report) {
		t.Errorf("bookkeeping: %d ended, %d in order, %d bytes", len(r.ended), len(r.order), r.endedBytes)
	}
}
