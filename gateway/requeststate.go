package gateway

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/mcpexec/mcpexec"
)

// A requestState is what a 2026-07-28 client echoes when it retries an Exec
// call that returned input_required: it names the parked run the answers
// are for. The client holds it between requests, so it must not be able to
// make one up: it carries an HMAC-SHA256 under a key this process drew at
// random, over the run id and the client it was issued to. A state altered,
// forged, replayed by another client, or issued before the process
// restarted (whose runs are gone with it) fails to verify, and the retry is
// refused before anything runs.
//
// The layout is "v1." + run id + "." + base64url(MAC); the run id is no
// secret from the client that started the run. A flat call's state
// (flat20260728.go) is "f1." + base64url(MAC) over the call it answers,
// which the retry repeats.

// The prefixes of the two layouts.
const (
	requestStateVersion = "v1"
	flatStateVersion    = "f1"
)

// requestStates issues and verifies requestStates.
type requestStates struct {
	key [32]byte
}

func newRequestStates() *requestStates {
	s := &requestStates{}
	if _, err := rand.Read(s.key[:]); err != nil {
		panic("gateway: no randomness for the requestState key: " + err.Error())
	}
	return s
}

// errBadRequestState is the refusal of a requestState that does not verify.
var errBadRequestState = errors.New("the requestState does not verify: it was altered, was issued to another client, " +
	"or was issued by a gateway process that has since restarted (its runs are gone); nothing was run")

// seal is the requestState of run, issued to client.
func (s *requestStates) seal(run mcpexec.RunID, client string) string {
	return requestStateVersion + "." + string(run) + "." + base64.RawURLEncoding.EncodeToString(s.mac(requestStateVersion, string(run), client))
}

// sealFlat is the requestState of the flat call named by subject, issued
// to client.
func (s *requestStates) sealFlat(subject, client string) string {
	return flatStateVersion + "." + base64.RawURLEncoding.EncodeToString(s.mac(flatStateVersion, subject, client))
}

// openFlat verifies a flat call's requestState for the call named by
// subject and for client.
func (s *requestStates) openFlat(state, subject, client string) error {
	version, rest, ok := strings.Cut(state, ".")
	if !ok || version != flatStateVersion {
		return errBadRequestState
	}
	got, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || !hmac.Equal(got, s.mac(flatStateVersion, subject, client)) {
		return errBadRequestState
	}
	return nil
}

// open returns the run a requestState names, if it verifies for client.
func (s *requestStates) open(state, client string) (mcpexec.RunID, error) {
	version, rest, ok := strings.Cut(state, ".")
	if !ok || version != requestStateVersion {
		return "", errBadRequestState
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", errBadRequestState
	}
	run := mcpexec.RunID(rest[:i])
	got, err := base64.RawURLEncoding.DecodeString(rest[i+1:])
	if err != nil || !hmac.Equal(got, s.mac(requestStateVersion, string(run), client)) {
		return "", errBadRequestState
	}
	return run, nil
}

// mac binds the subject (a run, a flat call) of a layout to the client;
// the NUL separators keep the fields apart (none holds one).
func (s *requestStates) mac(layout, subject, client string) []byte {
	m := hmac.New(sha256.New, s.key[:])
	m.Write([]byte(layout + "\x00" + subject + "\x00" + client))
	return m.Sum(nil)
}
