package sandbox

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpexec/mcpexec/state"
)

// RemoteRun is the host's half of a run whose worker is on another machine
// (a sandbox node): what the host keeps of the run itself, because it does
// not take the node's word for it. It checks each nested call against the
// run's tool set and call cap, keeps the images and a copy of the console
// output, counts the calls for the live summary, and holds a budget of its
// own, so that a node that stops answering cannot hold the run open.
//
// Its methods may be called from any goroutine.
type RemoteRun struct {
	req    Request
	limits Limits
	clock  *budgetClock
	// queued holds the clock while the run waits for a worker on its node.
	queued func()

	console consoleLog

	mu     sync.Mutex
	served int // nested calls the node asked the host to make
	calls  []string
	images []Image
	// returned counts the bytes of the return value the node passed on,
	// returnedOver that it went past MaxKeptBytes.
	returned     int64
	returnedOver bool
}

// remoteGrace is how long past the worker's own hard deadline a node may
// take to report a run before the host gives up on it: the round trip and a
// node under load.
const remoteGrace = 2 * time.Second

// NewRemoteRun starts the host's half of req's run.
func NewRemoteRun(req Request) *RemoteRun {
	limits := req.Limits.withDefaults()
	r := &RemoteRun{req: req, limits: limits}
	r.console.keep = limits.MaxLogChars
	r.clock = newBudgetClock(limits.Timeout+killGrace+remoteGrace, nil)
	// The host cannot see whether the script is idle; its clock stops
	// whenever a person wait of its own is open. The node's worker keeps
	// the exact budget; this one only ends a run the node does not.
	r.clock.setIdle(true)
	r.queued = r.clock.Pause()
	return r
}

// Started starts the host's budget: the node has a worker for the run.
// Until then the run waits for a worker as a run on this machine would,
// bounded by its caller.
func (r *RemoteRun) Started() { r.queued() }

// Limits are the run's limits, defaults filled in: what the node is told.
func (r *RemoteRun) Limits() Limits { return r.limits }

// Expired is closed when the host's budget for the run is spent.
func (r *RemoteRun) Expired() <-chan struct{} { return r.clock.expired }

// Pause stops the host's budget while a person is asked (pause.Clock).
func (r *RemoteRun) Pause() (resume func()) { return r.clock.Pause() }

// Called records a nested call the script made, as the node reports it.
func (r *RemoteRun) Called(name string) {
	r.mu.Lock()
	r.calls = append(r.calls, name)
	r.mu.Unlock()
	if r.req.OnCall != nil {
		r.req.OnCall(name)
	}
}

// Log records console output as the node reports it.
func (r *RemoteRun) Log(text string) {
	if kept := r.console.append(text); kept != "" && r.req.OnLog != nil {
		r.req.OnLog(kept)
	}
}

// Admit checks a nested call the node asks for against what the run
// allows and returns the refusal the script gets, or "" when the call may
// go ahead.
func (r *RemoteRun) Admit(search bool, name string) string {
	r.mu.Lock()
	r.served++
	served := r.served
	r.mu.Unlock()
	kind := callKindTool
	if search {
		kind = callKindSearch
	}
	return admission(r.req.Tools, r.limits, served, kind, name)
}

// KeepImages keeps a call's images for the result, as far as the cap
// allows, and returns how many the call returned (what the node is told).
func (r *RemoteRun) KeepImages(images []Image) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, img := range images {
		if len(r.images) < r.limits.MaxImages {
			r.images = append(r.images, img)
		}
	}
	return len(images)
}

// HasState reports whether the run has a state for the script's store and
// load; Keep whether it asks for a return value too long for the text, and
// KeepID the id that names it there.
func (r *RemoteRun) HasState() bool { return r.req.State != nil }
func (r *RemoteRun) Keep() bool     { return r.req.Reference != nil }
func (r *RemoteRun) KeepID() string {
	if r.req.Reference == nil {
		return ""
	}
	return r.req.Reference.ID
}

// ServeState serves a store (value; empty removes the key) or a load of
// the run's state for the node; the node's word is not taken for the
// state's bound.
func (r *RemoteRun) ServeState(store bool, key string, value json.RawMessage) (json.RawMessage, bool, error) {
	kind := callKindLoad
	if store {
		kind = callKindStore
	}
	switch {
	case r.req.State == nil:
		return nil, false, plainError(msgNoState(kind))
	case !store:
		return r.req.State.Load(key)
	case int64(len(value)) > r.limits.MaxStateBytes:
		return nil, false, &state.FullError{Limit: r.limits.MaxStateBytes}
	case len(value) > 0 && !json.Valid(value):
		return nil, false, plainError(msgCrashed + ": the value to store did not arrive whole.")
	}
	return nil, false, r.req.State.Store(key, value)
}

// Part passes the next piece of the return value on to the run's
// Reference, as far as MaxKeptBytes allows.
func (r *RemoteRun) Part(data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref := r.req.Reference
	switch {
	case ref == nil || ref.Sink == nil || r.returnedOver:
	case r.returned+int64(len(data)) > r.limits.MaxKeptBytes:
		r.returnedOver = true
	default:
		r.returned += int64(len(data))
		if _, err := ref.Sink.Write(data); err != nil {
			r.returnedOver = true
		}
	}
}

// Finish ends the run with the node's Result, carrying the images the host
// kept.
func (r *RemoteRun) Finish(res Result) Result {
	r.clock.finish()
	r.mu.Lock()
	defer r.mu.Unlock()
	res.Images = r.images
	if res.Whole != nil && res.Whole.Kept && (r.returnedOver || r.returned != res.Whole.Bytes) {
		res.wholeLost() // the host does not take the node's word for it
	}
	return res
}

// Lost ends the run because its node went away mid-run.
func (r *RemoteRun) Lost() Result { return r.fail(MsgMachineLost) }

// Silent ends the run because its node did not report it in time.
func (r *RemoteRun) Silent() Result { return r.fail(MsgMachineSilent) }

// Aborted ends the run because its caller cancelled it and the node did
// not report the run in time.
func (r *RemoteRun) Aborted() Result { return r.fail(msgAborted) }

// Crashed ends the run because its sandbox actor on the node stopped
// without reporting it.
func (r *RemoteRun) Crashed() Result { return r.fail(msgRunCrashed) }

func (r *RemoteRun) fail(reason string) Result {
	r.clock.finish()
	r.mu.Lock()
	defer r.mu.Unlock()
	return hostFailure(&r.console, reason, r.images, r.calls)
}

// NoMachineResult is the failure Result of a run that found no sandbox
// node to run on: aborted if ctx ended, otherwise none was available.
func NoMachineResult(aborted bool) Result {
	if aborted {
		return failure(msgAborted)
	}
	return failure(MsgNoMachine)
}

// admission is the host's check of a nested call a worker asks for: the
// worker (or the node) is where an escape from the sandbox would run, so
// the host does not take its word for the reachable set or the call cap.
// served counts the calls asked for so far, this one included.
func admission(tools *ToolSet, limits Limits, served int, kind, name string) string {
	switch {
	case served > limits.MaxCalls:
		return msgCallLimit
	case kind == callKindSearch:
		return ""
	case kind != callKindTool || !tools.Has(name):
		return tools.refusal(name)
	}
	return ""
}

// Precheck settles the requests that never reach a worker (an empty
// script, a call already cancelled): ok is false with their Result.
func Precheck(ctx context.Context, req Request) (res Result, ok bool) {
	return precheck(ctx, req)
}
