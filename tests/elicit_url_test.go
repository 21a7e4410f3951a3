package tests

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/internal/testservers"
)

// urlModeClient declares forms and url mode.
var urlModeClient = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
	Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
}}

// visit calls the ledger's visit tool, which asks in url mode.
const visit = `return await tools.mcp__ledger__visit({})`

// A server that sends the person to a page (url-mode elicitation) asks
// through the gateway: the pool declares url mode to its servers, the
// question reaches a client of 2025-11-25 within the call with its URL and
// elicitation id, the acceptance goes back to the server, and the server's
// notice that the page's business finished reaches the client too.
func TestGatewayPassesAServersURLModeQuestionWithinTheCall(t *testing.T) {
	g := startLedgerGateway(t, "http")
	var mu sync.Mutex
	var asked []*mcp.ElicitParams
	completed := make(chan string, 1)
	cs := g.connect(t, "2025-11-25", &mcp.ClientOptions{
		Capabilities: urlModeClient,
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode != "url" {
				return answer("allow once"), nil // the approval of the visit
			}
			mu.Lock()
			asked = append(asked, req.Params)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			select {
			case completed <- req.Params.ElicitationID:
			default:
			}
		},
	})
	res, err := callExec(t, cs, visit, nil, "")
	if err != nil || res.IsError || !strings.Contains(contentText(res), "visit: accept") {
		t.Fatalf("Exec: %v %+v, want the visit accepted", err, res)
	}
	mu.Lock()
	if len(asked) != 1 || asked[0].URL != testservers.VisitURL || asked[0].ElicitationID != testservers.VisitElicitationID ||
		!strings.Contains(asked[0].Message, testservers.VisitMessage) || !strings.Contains(asked[0].Message, `"ledger"`) {
		t.Errorf("the url-mode questions the client got: %+v", asked)
	}
	mu.Unlock()
	select {
	case id := <-completed:
		if id != testservers.VisitElicitationID {
			t.Errorf("the completion named %q, want %q", id, testservers.VisitElicitationID)
		}
	case <-time.After(runLimit):
		t.Error("the server's completion notice never reached the client")
	}
}

// A client of 2026-07-28 gets the url-mode question among its run's
// input requests, URL and id intact, and its acceptance reaches the server.
func TestGatewayPassesAServersURLModeQuestionAsAnInputRequest(t *testing.T) {
	g := startLedgerGateway(t, "http")
	cs := g.connect(t, "", &mcp.ClientOptions{Capabilities: urlModeClient,
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: noElicitation(t)})
	res, err := callExec(t, cs, visit, nil, "")
	for round := 0; err == nil && res.NeedsInput() && round < 3; round++ {
		answers := mcp.InputResponseMap{}
		for id, ir := range res.InputRequests {
			q, _ := ir.(*mcp.ElicitParams)
			switch {
			case q == nil:
				t.Fatalf("input request %s: %+v", id, ir)
			case q.Mode == "url":
				if q.URL != testservers.VisitURL || q.ElicitationID != testservers.VisitElicitationID {
					t.Errorf("the url-mode question: %+v", q)
				}
				answers[id] = &mcp.ElicitResult{Action: "accept"}
			default:
				answers[id] = answer("allow once")
			}
		}
		res, err = callExec(t, cs, visit, answers, res.RequestState)
	}
	if err != nil || res.IsError || !strings.Contains(contentText(res), "visit: accept") {
		t.Fatalf("Exec: %v %+v, want the visit accepted", err, res)
	}
}
