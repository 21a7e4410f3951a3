package pool

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/elicit"
)

// A question in url mode sends the person to a page (a sign-in, a payment)
// and the server says later, in notifications/elicitation/complete, that
// the interaction there finished. The pool declares url mode beside forms
// when it has an Elicitor, and passes the notice on to the Elicitor that
// accepted the question, by its elicitation id.

// elicitationCapabilities are the pool's: forms and url mode, with the
// rest of base (the SDK's default when nil) kept.
func elicitationCapabilities(base *mcp.ClientCapabilities) *mcp.ClientCapabilities {
	var caps mcp.ClientCapabilities
	if base != nil {
		caps = *base
	} else {
		// The SDK's default, which setting Capabilities replaces.
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}
	return &caps
}

// urlAsksKept bounds the url-mode questions awaiting their completion
// notice per server; the oldest is forgotten first (its notice, if it
// ever comes, is then dropped).
const urlAsksKept = 256

// urlAsks are a server's url-mode questions accepted and not yet
// completed: who to tell, by elicitation id.
type urlAsks struct {
	mu    sync.Mutex
	by    map[string]elicit.Completer
	order []string
}

// accepted records that e accepted the url-mode question id.
func (u *urlAsks) accepted(id string, e elicit.Elicitor) {
	c, ok := e.(elicit.Completer)
	if !ok || id == "" {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.by == nil {
		u.by = map[string]elicit.Completer{}
	}
	if _, known := u.by[id]; !known {
		u.order = append(u.order, id)
	}
	u.by[id] = c
	if len(u.order) > urlAsksKept {
		delete(u.by, u.order[0])
		u.order = u.order[1:]
	}
}

// completed returns who to tell that id finished, and forgets it.
func (u *urlAsks) completed(id string) elicit.Completer {
	u.mu.Lock()
	defer u.mu.Unlock()
	c := u.by[id]
	if c != nil {
		delete(u.by, id)
		for i, known := range u.order {
			if known == id {
				u.order = append(u.order[:i], u.order[i+1:]...)
				break
			}
		}
	}
	return c
}

// elicitationComplete passes a server's completion notice on to the
// Elicitor that accepted the question.
func (s *server) elicitationComplete(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if req.Params == nil {
		return
	}
	c := s.urlAsks.completed(req.Params.ElicitationID)
	if c == nil {
		s.m.log.Debug().Str("server", s.cfg.Name).Str("elicitation", req.Params.ElicitationID).
			Msg("a server said a url-mode question finished that no one here is waiting on")
		return
	}
	c.ElicitationComplete(ctx, s.cfg.Name, req.Params.ElicitationID)
}
