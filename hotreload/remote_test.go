package hotreload_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/messages"
)

// remoteServer serves a settings document with an ETag and can be made to
// fail or to drop connections.
type remoteServer struct {
	*httptest.Server
	mu          sync.Mutex
	body, etag  string
	mode        string // "ok", "error", "hangup"
	conditional int    // requests that carried the current ETag
	requests    int
}

func newRemoteServer(t *testing.T, body, etag string) *remoteServer {
	s := &remoteServer{body: body, etag: etag, mode: "ok"}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *remoteServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	switch s.mode {
	case "error":
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
		return
	case "hangup":
		panic(http.ErrAbortHandler)
	}
	if r.Header.Get("If-None-Match") == s.etag {
		s.conditional++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", s.etag)
	_, _ = w.Write([]byte(s.body))
}

func (s *remoteServer) set(body, etag, mode string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.etag, s.mode = body, etag, mode
}

func (s *remoteServer) counts() (requests, conditional int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.conditional
}

// Proves SWITCH-3.
func TestSWITCH3_RemoteOverrideWinsAndOutagesNeverFlipIt(t *testing.T) {
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": true}`)
	srv := newRemoteServer(t, `{"enableExec": false}`, `"v1"`)
	svc := start(t, hotreload.Options{SettingsPath: path, RemoteURL: srv.URL, RemoteInterval: time.Hour})
	ctx := context.Background()

	if svc.Current().EnableExec {
		t.Fatal("the remote enableExec: false did not win over the settings file at start")
	}
	events, initial := subscribe(t, svc)

	// Unchanged: a conditional request, answered 304, changes nothing.
	if err := svc.RefreshRemote(ctx); err != nil {
		t.Fatal(err)
	}
	if _, conditional := srv.counts(); conditional != 1 {
		t.Errorf("conditional requests = %d, want 1 (If-None-Match with the ETag)", conditional)
	}

	// A failing endpoint and an unreachable one keep the last value.
	for _, mode := range []string{"error", "hangup"} {
		srv.set(`{"enableExec": true}`, `"v2"`, mode)
		if err := svc.RefreshRemote(ctx); err == nil {
			t.Errorf("%s: RefreshRemote = nil, want the failure", mode)
		}
		if svc.Current().EnableExec {
			t.Fatalf("%s: the outage flipped the switch", mode)
		}
	}
	// Only the first failure of an outage is news.
	failed := next(t, events)
	if failed.Source != messages.SourceRemote || failed.Err == nil || failed.Seq != initial.Seq+1 || failed.Config.EnableExec {
		t.Errorf("outage event = %+v", failed)
	}

	// A local edit cannot override the remote value either.
	atomicSave(t, path, `{"enableExec": true, "disallowedTools": ["mcp__x"]}`)
	local, _ := waitFor(t, events, func(ev messages.ConfigChanged) bool { return len(ev.Config.DisallowedTools) == 1 })
	if local.Config.EnableExec {
		t.Error("the settings file overrode the remote value")
	}

	// Back online with nothing to say about enableExec: the file decides.
	srv.set(`{"permissions": {"deny": ["mcp__remote"]}}`, `"v3"`, "ok")
	if err := svc.RefreshRemote(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := svc.Current()
	if !cfg.EnableExec || len(cfg.Deny) != 1 || cfg.Deny[0] != "mcp__remote" {
		t.Errorf("Current = %+v, want the file's enableExec and the remote deny rule", cfg)
	}
}

// Proves SWITCH-3.
func TestSWITCH3_RemoteRejectedDocumentKeepsValueAndIsFetchedAgain(t *testing.T) {
	srv := newRemoteServer(t, `{"enableExec": false}`, `"v1"`)
	svc := start(t, hotreload.Options{SettingsPath: settingsPath(t), RemoteURL: srv.URL, RemoteInterval: time.Hour})
	srv.set(`{"enableExec": "yes"`, `"bad"`, "ok")
	err := svc.RefreshRemote(context.Background())
	if err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Fatalf("RefreshRemote = %v, want the parse error", err)
	}
	if svc.Current().EnableExec {
		t.Error("a malformed remote document flipped the switch")
	}
	// The rejected document's ETag was not kept: the next poll fetches it
	// in full instead of hearing 304.
	_, before := srv.counts()
	_ = svc.RefreshRemote(context.Background())
	if _, after := srv.counts(); after != before {
		t.Error("the ETag of a rejected document was sent back")
	}
}

// Proves SWITCH-3.
func TestSWITCH3_RemoteIsPolled(t *testing.T) {
	srv := newRemoteServer(t, `{}`, `"v1"`)
	svc := start(t, hotreload.Options{SettingsPath: settingsPath(t), RemoteURL: srv.URL, RemoteInterval: 5 * time.Millisecond})
	events, _ := subscribe(t, svc)
	srv.set(`{"enableExec": false}`, `"v2"`, "ok")
	ev, _ := waitFor(t, events, func(ev messages.ConfigChanged) bool { return !ev.Config.EnableExec })
	if ev.Source != messages.SourceRemote || svc.Current().EnableExec {
		t.Errorf("event = %+v", ev)
	}
}

// Proves SWITCH-3.
func TestSWITCH3_UnreachableAtStartFallsBackToTheFile(t *testing.T) {
	srv := newRemoteServer(t, `{}`, `"v1"`)
	srv.set("", "", "hangup")
	path := settingsPath(t)
	writeFile(t, path, `{"enableExec": false}`)
	svc := start(t, hotreload.Options{SettingsPath: path, RemoteURL: srv.URL, RemoteInterval: time.Hour})
	if svc.Current().EnableExec {
		t.Error("an unreachable endpoint at start changed the switch")
	}
	if err := svc.RefreshRemote(context.Background()); err == nil {
		t.Error("RefreshRemote = nil for an unreachable endpoint")
	}
}
