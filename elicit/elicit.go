// Package elicit is how a server's question reaches the person: during a
// tool call an MCP server may send elicitation/create to ask for input (a
// form described by a JSON Schema, or a URL to visit). The pool hands the
// question to the host's [Elicitor], the place questions to the person go,
// beside the permission Prompter; its answer goes back to the server.
//
// An Elicitor is the host's callback. A terminal shows the form (see
// [Fields] for the fields in the server's order, with their defaults); a
// gateway forwards the question to its own client as MCP elicitation; a
// host with no person answers with [Unattended]. The pool stops the budget
// clock of the calls waiting meanwhile and cancels the question (through
// the context) when those calls end, for example because the Exec that
// made them was aborted.
//
// The package is plain Go and the standard library.
package elicit

import (
	"context"
	"encoding/json"
)

// Request is one question from a server.
type Request struct {
	// Server is the configured name of the server asking.
	Server string
	// Tools are the full names of that server's calls in flight when it
	// asked: the call that asked is among them (MCP does not say which).
	Tools []string
	// Message is the server's question, for the person.
	Message string
	// Mode is "form" (answer with Content matching Schema) or "url" (visit
	// URL, then accept).
	Mode string
	// Schema is the requested schema of a form, as the server sent it: a
	// flat object of primitive properties, possibly with defaults.
	Schema json.RawMessage
	// URL and ElicitationID belong to url mode.
	URL           string
	ElicitationID string
}

// Action is the person's choice.
type Action string

// The actions of MCP elicitation.
const (
	// Accept: the person answered (Content holds a form's values).
	Accept Action = "accept"
	// Decline: the person, or the host for them, said no.
	Decline Action = "decline"
	// Cancel: the question was dismissed without an answer.
	Cancel Action = "cancel"
)

// Response is the answer to a Request.
type Response struct {
	Action Action
	// Content holds an accepted form's values. Fields the person left out
	// take the schema's defaults (ApplyDefaults) before the server sees
	// them.
	Content map[string]any
	// Reason says why a question was declined or cancelled, for the host's
	// log (MCP gives it no place in the reply).
	Reason string
}

// Elicitor puts a server's question to the person. Elicit must return soon
// after ctx is done (the calls waiting for it ended); the question is then
// cancelled whatever it returns. An error cancels the question too.
type Elicitor interface {
	Elicit(ctx context.Context, r Request) (Response, error)
}

// Completer is an Elicitor that can also tell the person that an
// interaction it passed on in url mode has finished (MCP's
// notifications/elicitation/complete), so a client waiting on the page
// can move on. The pool tells the Elicitor that accepted the question; one
// that is no Completer is not told.
type Completer interface {
	ElicitationComplete(ctx context.Context, server, elicitationID string)
}

// Func adapts a function to Elicitor.
type Func func(ctx context.Context, r Request) (Response, error)

// Elicit calls f.
func (f Func) Elicit(ctx context.Context, r Request) (Response, error) { return f(ctx, r) }

// route holds the Elicitor WithElicitor put in a context; its address tells
// two routes apart without comparing Elicitors.
type route struct{ e Elicitor }

type routeKey struct{}

// WithElicitor returns ctx carrying e: the questions a server asks about
// the calls made under ctx go to e instead of the pool's own Elicitor. A
// gateway with several clients uses it to ask the client whose request made
// the call; a run that parks uses it to hold the questions until an answer
// arrives in a later request.
func WithElicitor(ctx context.Context, e Elicitor) context.Context {
	return context.WithValue(ctx, routeKey{}, &route{e: e})
}

// Route is who answers the questions about the calls made under a context,
// as WithElicitor set it; two calls made under the same WithElicitor have
// equal Routes.
type Route struct{ r *route }

// RouteOf is the route of ctx; its Elicitor is nil when ctx has none.
func RouteOf(ctx context.Context) Route {
	r, _ := ctx.Value(routeKey{}).(*route)
	return Route{r: r}
}

// Elicitor is the route's Elicitor, or nil.
func (r Route) Elicitor() Elicitor {
	if r.r == nil {
		return nil
	}
	return r.r.e
}

// Unattended is the Elicitor of a host with no one to ask: it declines
// every question with reason.
func Unattended(reason string) Elicitor {
	return Func(func(context.Context, Request) (Response, error) {
		return Response{Action: Decline, Reason: reason}, nil
	})
}
