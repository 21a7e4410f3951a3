package gateway

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/mcpexec/mcpexec"
)

// A requestState is what a 2026-07-28 client echoes when it retries an Exec
// call that returned input_required: it names the parked run the answers
// are for, and the gateway process that holds it. The client holds it
// between requests, so it must not be able to make one up: it carries an
// HMAC-SHA256 over the holder, the run id and the client it was issued to,
// under a key this process drew at random, or, for replicas behind a load
// balancer, the key they share (Options.StateKey). A state altered,
// forged, or replayed by another client fails to verify, and the retry is
// refused before anything runs. Under a per-process key, so does one
// issued before the process restarted (whose runs are gone with it); under
// a shared key such a state verifies, and the holder's incarnation in it
// tells that its run was lost.
//
// The layout is "v2." + base64url(holder) + "." + run id + "." +
// base64url(MAC), where the holder is "incarnation@replica" (replica empty
// without replicas, see replica.go); neither is a secret from the client
// that started the run. A flat call's state (flat20260728.go) is "f1." +
// base64url(MAC) over the call it answers, which the retry repeats, when
// it answers the call's permission question; when it answers the call's
// server (flatinput.go) it is "f2." + base64url(the server's own
// requestState) + "." + base64url(MAC) over the call and the server's
// state. The server's state is no secret from the client: connected to the
// server directly, the client would hold it as it is.

// The prefixes of the layouts.
const (
	requestStateVersion = "v2"
	flatStateVersion    = "f1"
	serverInputVersion  = "f2"
)

// requestStates issues and verifies requestStates.
type requestStates struct {
	key []byte
}

// newRequestStates issues and verifies requestStates under key, or under a
// key drawn at random when key is empty.
func newRequestStates(key []byte) *requestStates {
	if len(key) == 0 {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			panic("gateway: no randomness for the requestState key: " + err.Error())
		}
	}
	return &requestStates{key: key}
}

// errBadRequestState is the refusal of a requestState that does not verify.
var errBadRequestState = errors.New("the requestState does not verify: it was altered, was issued to another client, " +
	"or was issued by a gateway process that has since restarted (its runs are gone); nothing was run")

// seal is the requestState of run, held by holder and issued to client.
func (s *requestStates) seal(holder string, run mcpexec.RunID, client string) string {
	return requestStateVersion + "." + base64.RawURLEncoding.EncodeToString([]byte(holder)) + "." + string(run) + "." +
		base64.RawURLEncoding.EncodeToString(s.mac(requestStateVersion, holder+"\x00"+string(run), client))
}

// sealFlat is the requestState of the flat call named by subject, issued
// to client.
func (s *requestStates) sealFlat(subject, client string) string {
	return flatStateVersion + "." + base64.RawURLEncoding.EncodeToString(s.mac(flatStateVersion, subject, client))
}

// flatState is what a flat call's verified requestState says: whether it
// answers the call's server, and the server's own state then.
type flatState struct {
	serverInput bool
	serverState string
}

// sealServerInput is the requestState of the flat call named by subject,
// whose server asked for input with its own state serverState, issued to
// client.
func (s *requestStates) sealServerInput(subject, serverState, client string) string {
	return serverInputVersion + "." + base64.RawURLEncoding.EncodeToString([]byte(serverState)) + "." +
		base64.RawURLEncoding.EncodeToString(s.mac(serverInputVersion, serverInputSubject(subject, serverState), client))
}

// serverInputSubject binds a flat call to its server's state; the state,
// which may hold any character, enters the MAC as its digest.
func serverInputSubject(subject, serverState string) string {
	sum := sha256.Sum256([]byte(serverState))
	return subject + "\x00" + hex.EncodeToString(sum[:])
}

// openFlat verifies a flat call's requestState (either layout) for the
// call named by subject and for client.
func (s *requestStates) openFlat(state, subject, client string) (flatState, error) {
	parts := strings.Split(state, ".")
	switch {
	case len(parts) == 2 && parts[0] == flatStateVersion:
		got, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil || !hmac.Equal(got, s.mac(flatStateVersion, subject, client)) {
			return flatState{}, errBadRequestState
		}
		return flatState{}, nil
	case len(parts) == 3 && parts[0] == serverInputVersion:
		serverState, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			return flatState{}, errBadRequestState
		}
		got, err := base64.RawURLEncoding.DecodeString(parts[2])
		if err != nil || !hmac.Equal(got, s.mac(serverInputVersion, serverInputSubject(subject, string(serverState)), client)) {
			return flatState{}, errBadRequestState
		}
		return flatState{serverInput: true, serverState: string(serverState)}, nil
	}
	return flatState{}, errBadRequestState
}

// open returns the holder and the run a requestState names, if it
// verifies for client.
func (s *requestStates) open(state, client string) (holder string, run mcpexec.RunID, err error) {
	parts := strings.Split(state, ".")
	if len(parts) != 4 || parts[0] != requestStateVersion || parts[2] == "" {
		return "", "", errBadRequestState
	}
	h, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", "", errBadRequestState
	}
	holder, run = string(h), mcpexec.RunID(parts[2])
	got, err := base64.RawURLEncoding.DecodeString(parts[3])
	if err != nil || !hmac.Equal(got, s.mac(requestStateVersion, holder+"\x00"+string(run), client)) {
		return "", "", errBadRequestState
	}
	return holder, run, nil
}

// mac binds the subject (a holder and its run, a flat call) of a layout to
// the client; the NUL separators keep the fields apart (none holds one).
func (s *requestStates) mac(layout, subject, client string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(layout + "\x00" + subject + "\x00" + client))
	return m.Sum(nil)
}
