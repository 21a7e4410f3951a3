package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Only the gateway marks a request as carrying tasks: whichever handler a
// request is routed to, the mark a client sent itself is not what it sees.
func TestAClientCannotMarkItsRequestAsCarryingTasks(t *testing.T) {
	var seen []string
	heard := func(route string) http.Handler {
		return http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			seen = append(seen, route+":"+r.Header.Get(tasksCarriedHeader))
		})
	}
	v := &versionRouter{stateful: heard("stateful"), stateless: heard("stateless")}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Exec","arguments":{"code":"return 1"}}}`
	for _, session := range []string{"", "a-session"} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		if session == "" {
			r.Header.Set(protocolVersionHeader, protocol20260728)
		} else {
			r.Header.Set("Mcp-Session-Id", session)
		}
		r.Header.Set(tasksCarriedHeader, "client")
		v.ServeHTTP(httptest.NewRecorder(), r)
	}
	if want := []string{"stateless:", "stateful:1"}; strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("the handlers saw %q, want %q", seen, want)
	}
}
