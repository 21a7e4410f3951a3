package pool

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrorKind says why a call failed.
type ErrorKind int

const (
	// KindUnknownTool: the name is not in the current pool (never listed,
	// removed, or excluded by permissions).
	KindUnknownTool ErrorKind = iota + 1
	// KindServerDown: the tool's server is not connected.
	KindServerDown
	// KindDenied: the gate refused the call.
	KindDenied
	// KindProtocol: the server answered tools/call with a JSON-RPC error.
	KindProtocol
	// KindConnectionLost: the call did not get an answer through: the
	// server went away during the call or could not be reached.
	KindConnectionLost
	// KindCancelled: the caller's context ended the call.
	KindCancelled
	// KindReplyTooLarge: the reply was over the server's reply limit; it
	// was dropped and the connection kept.
	KindReplyTooLarge
)

// CallError is a call that did not reach a reply: the funnel returns it for
// every failure except a tool's own isError reply (a *ToolError). Error() is
// the English message a caller shows to a model; Unwrap gives the cause (the
// gate's error, context.Canceled, the SDK error...).
type CallError struct {
	Tool string
	Kind ErrorKind
	msg  string
	err  error
}

func (e *CallError) Error() string { return e.msg }
func (e *CallError) Unwrap() error { return e.err }

// ToolError is a reply flagged isError. Its Error() is the tool's own text,
// passed through unchanged.
type ToolError struct {
	Tool string
	Text string
	// Reply is the result as the server sent it.
	Reply *mcp.CallToolResult
}

func (e *ToolError) Error() string {
	if e.Text == "" {
		return textToolErrorWithoutText(e.Tool)
	}
	return e.Text
}

// callError classifies an error from ClientSession.CallTool.
func callError(ctx context.Context, name, server string, ended <-chan struct{}, err error) *CallError {
	e := &CallError{Tool: name, err: err}
	wire := serverError(err)
	size, tooLarge := replyTooLarge(wire)
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.Kind, e.msg, e.err = KindCancelled, textTimedOut(name), errors.Join(ctx.Err(), err)
	case ctx.Err() != nil:
		e.Kind, e.msg, e.err = KindCancelled, textCancelled(name), errors.Join(ctx.Err(), err)
	case tooLarge:
		e.Kind, e.msg = KindReplyTooLarge, textReplyTooLarge(name, server, size)
	case wire != nil:
		e.Kind, e.msg = KindProtocol, textProtocolError(name, wire.Message)
	case isConnectionLost(err) || isClosed(ended):
		e.Kind, e.msg = KindConnectionLost, textConnectionLost(name, server)
	default:
		// No answer came back: the request did not get through.
		e.Kind, e.msg = KindConnectionLost, textUnreachable(name, server)
	}
	return e
}

// callFailed is callError with its text fit for a model: a server's
// error message is its own words, which may quote a configured secret or
// run long.
func (m *Manager) callFailed(ctx context.Context, name, server string, ended <-chan struct{}, err error) *CallError {
	ce := callError(ctx, name, server, ended, err)
	ce.msg = m.forModel(ce.msg)
	return ce
}

// transportFailed reports whether a call error says nothing about the tool
// but something about the connection.
func (e *CallError) transportFailed() bool { return e.Kind == KindConnectionLost }

// serverError finds the JSON-RPC error a server answered with in err's
// tree. The SDK's HTTP transport wraps its own failures, and servers'
// errors on non-2xx replies, in a sentinel JSON-RPC error ("rejected by
// transport", -32005) that the server never sent; it is skipped.
func serverError(err error) *jsonrpc.Error {
	switch e := err.(type) {
	case nil:
		return nil
	case *jsonrpc.Error:
		if e.Code != codeRejectedByTransport {
			return e
		}
		return nil
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			if found := serverError(inner); found != nil {
				return found
			}
		}
		return nil
	}
	return serverError(errors.Unwrap(err))
}

// codeRejectedByTransport is the code of the SDK's transport sentinel.
const codeRejectedByTransport = -32005

// isConnectionLost reports whether a call failed because the transport went
// away rather than because the server answered.
func isConnectionLost(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, os.ErrClosed)
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
