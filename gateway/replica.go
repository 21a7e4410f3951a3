package gateway

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base32"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/replicas"
)

// From 2026-07-28 a gateway can run as replicas behind a load balancer:
// the protocol keeps no session, so a client's retry of a call that
// returned input_required may reach another replica than the one whose
// run parked. The run stays where it parked (its worker holds the script's
// state), so the retry goes to it: the requestState names the replica that
// holds the run (the holder: this process's incarnation and its replica
// address), every replica verifies it under the key they share, and the
// replica the client reached forwards the retry to the holder over the
// replica mesh (package replicas: protoactor remote under mutual TLS). The
// holder serves it as it would a retry from its own client, sending the
// live summaries back as it goes, and its answer (the result, or the next
// input_required with a requestState naming it again) is what the client
// gets from the replica it reached.
//
// A replica's death takes its parked runs with it: a retry naming it fails
// saying so, and calls those runs made before they parked stay made.

// ReplicaOptions join a gateway to the other replicas of the same
// gateway, so that a retry reaching this one resumes a run parked on
// another.
type ReplicaOptions struct {
	// Listen is where this replica takes the requests the others forward,
	// host:port, and the name it goes by in the requestStates it issues:
	// an address the others can dial.
	Listen string
	// Peers are the other replicas' Listen addresses; a retry naming a
	// replica that is not among them is refused.
	Peers []string
	// TLS is this replica's side of the mutual TLS between the replicas
	// (nodes.TLSFiles makes one); required.
	TLS *tls.Config
}

// errNoSharedKey refuses replicas that would not verify each other's
// requestStates.
var errNoSharedKey = errors.New("gateway: replicas need a shared requestState key (Options.StateKey): " +
	"without it a replica cannot verify what another issued")

// JoinReplicas joins the gateway to its replicas. Call it before serving;
// the gateway must have been made with Options.StateKey, the same on every
// replica. Close leaves the mesh.
func (g *Gateway) JoinReplicas(opts ReplicaOptions) error {
	if !g.sharedKey {
		return errNoSharedKey
	}
	mesh, err := replicas.Start(replicas.Options{Listen: opts.Listen, Peers: opts.Peers, TLS: opts.TLS,
		Serve: g.serveForwarded, Logger: &g.logger})
	if err != nil {
		return err
	}
	g.mesh = mesh
	return nil
}

// newIncarnation names this process among the holders of parked runs: a
// replica restarted on the same address is another holder.
func newIncarnation() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("gateway: no randomness for the incarnation: " + err.Error())
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// replica is this replica's address, "" without replicas.
func (g *Gateway) replica() string {
	if g.mesh == nil {
		return ""
	}
	return g.mesh.Self()
}

// holder names this process as the holder of the runs it parks.
func (g *Gateway) holder() string { return g.incarnation + "@" + g.replica() }

// holds returns the replica a holder names, and whether it is this one.
func (g *Gateway) holds(holder string) (replica string, here bool) {
	_, replica, _ = strings.Cut(holder, "@")
	return replica, replica == g.replica()
}

// forwardedRetry is the payload of a retry forwarded to the replica that
// holds its run: what that replica needs to serve it as its own.
type forwardedRetry struct {
	State     string               `json:"state"`
	Client    string               `json:"client"`
	Responses mcp.InputResponseMap `json:"responses,omitempty"`
	// Progress asks for the live summaries (the client sent a progress
	// token).
	Progress bool `json:"progress,omitempty"`
}

// forwardedAnswer is the holder's answer: the tool result, or the
// invalid-params refusal of a requestState that does not verify.
type forwardedAnswer struct {
	Result  json.RawMessage `json:"result,omitempty"`
	Invalid string          `json:"invalid,omitempty"`
}

// forwardRetry passes a retry whose run another replica holds to it and
// returns its answer.
func (g *Gateway) forwardRetry(ctx context.Context, replica, state, identity string, responses mcp.InputResponseMap, onProgress func(string)) (*mcp.CallToolResult, error) {
	if g.mesh == nil || !g.mesh.Knows(replica) {
		return toolResult(false, textReplicaUnknown(replica), nil), nil
	}
	payload, err := json.Marshal(forwardedRetry{State: state, Client: identity, Responses: responses, Progress: onProgress != nil})
	if err != nil {
		return toolResult(false, textForwardFailed(replica, err), nil), nil
	}
	out, err := g.mesh.Forward(ctx, replica, payload, onProgress)
	switch {
	case errors.Is(err, replicas.ErrReplicaGone):
		g.logger.Warn().Str("replica", replica).Msg("gateway: a retry named a replica that is gone; its run is lost")
		return toolResult(false, textRunLost(replica), nil), nil
	case err != nil:
		return toolResult(false, textForwardFailed(replica, err), nil), nil
	}
	var answer forwardedAnswer
	if err := json.Unmarshal(out, &answer); err != nil {
		return toolResult(false, textForwardFailed(replica, errors.New("its answer could not be read")), nil), nil
	}
	if answer.Invalid != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: answer.Invalid}
	}
	res := &mcp.CallToolResult{}
	if err := json.Unmarshal(answer.Result, res); err != nil {
		return toolResult(false, textForwardFailed(replica, errors.New("its answer could not be read")), nil), nil
	}
	return res, nil
}

// serveForwarded serves a retry another replica forwarded here, as the
// retry of this replica's own client would be served.
func (g *Gateway) serveForwarded(ctx context.Context, payload []byte, onProgress func(string)) []byte {
	ctx, cancel := g.bound(ctx)
	defer cancel()
	var answer forwardedAnswer
	var req forwardedRetry
	if err := json.Unmarshal(payload, &req); err != nil {
		answer.Invalid = "the forwarded retry could not be read: " + err.Error()
		return encodeAnswer(answer)
	}
	holder, run, err := g.requestStates.open(req.State, req.Client)
	if err != nil {
		answer.Invalid = err.Error()
		return encodeAnswer(answer)
	}
	if !req.Progress {
		onProgress = nil
	}
	var res *mcp.CallToolResult
	if replica, here := g.holds(holder); here {
		res = g.retryHere(ctx, holder, run, req.Client, req.Responses, onProgress)
	} else {
		// Never forwarded on: a retry takes one hop, to its holder.
		res = toolResult(false, textReplicaUnknown(replica), nil)
	}
	if answer.Result, err = json.Marshal(res); err != nil {
		answer.Result, _ = json.Marshal(toolResult(false, textForwardFailed(g.replica(), err), nil))
	}
	return encodeAnswer(answer)
}

func encodeAnswer(a forwardedAnswer) []byte {
	out, _ := json.Marshal(a) // a RawMessage and a string
	return out
}
