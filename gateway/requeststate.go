package gateway

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

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
// issued + "." + base64url(MAC) over the call it answers, which the retry
// repeats, when it answers the call's permission question; when it answers
// the call's server (flatinput.go) it is "f2." + base64url(the server's own
// requestState) + "." + issued + "." + base64url(MAC) over the call and
// the server's state. The server's state is no secret from the client:
// connected to the server directly, the client would hold it as it is.
//
// issued is when the flat state was issued (milliseconds since the epoch,
// base 36), under the MAC: a flat state is refused once older than the
// park timeout, the bound a parked run's answers have, so that a state
// held back cannot outlive the rules that admitted its call. An "f2" state
// is also single-use: its continuation skips the question its first leg
// was asked, and a replay would make the server's next leg run again, so
// the MACs of those used are remembered until they expire, and a second
// use is refused before anything reaches the server. That memory is this
// process's: replicas sharing a key do not share it, nor does a process
// restarted under the same key, so a state replayed on another replica,
// or after a restart, is bounded by the expiry alone (README, replicas).
// An "f1" state needs no such memory: its retry asks the gate again,
// rules and all, and answers only the question the client itself answers.

// The prefixes of the layouts.
const (
	requestStateVersion = "v2"
	flatStateVersion    = "f1"
	serverInputVersion  = "f2"
)

// requestStates issues and verifies requestStates.
type requestStates struct {
	key []byte
	// flatLife is how long a flat call's state is good for.
	flatLife time.Duration
	now      func() time.Time
	spent    spentStates
}

// newRequestStates issues and verifies requestStates under key, or under a
// key drawn at random when key is empty; a flat call's state is good for
// flatLife from its issue.
func newRequestStates(key []byte, flatLife time.Duration) *requestStates {
	if len(key) == 0 {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			panic("gateway: no randomness for the requestState key: " + err.Error())
		}
	}
	return &requestStates{key: key, flatLife: flatLife, now: time.Now, spent: spentStates{until: map[string]time.Time{}}}
}

// errBadRequestState is the refusal of a requestState that does not verify.
var errBadRequestState = errors.New("the requestState does not verify: it was altered, was issued to another client, " +
	"or was issued by a gateway process that has since restarted (its runs are gone); nothing was run")

// The refusals of a flat call's state that verifies but may not be used.
var (
	errExpiredRequestState = errors.New("the requestState expired: the call waited longer than it may for its answers " +
		"and was not continued; nothing was run. Call the tool again")
	errSpentRequestState = errors.New("the requestState was already used: each continues its call once; nothing was run. " +
		"Call the tool again")
	errTooManySpentStates = errors.New("the gateway is continuing too many calls to continue another now; nothing was run. " +
		"Call the tool again later")
)

// maxSpentStates bounds how many used states are remembered at once.
const maxSpentStates = 1 << 16

// spentStates remembers the MACs of the "f2" states already used, each
// until its state expires (after which the expiry refuses it anyway).
type spentStates struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// spend marks the state with mac, good until expires, used, unless it was
// already. When the memory is full of states still good, it refuses
// rather than forget one, which would let that one be replayed.
func (s *spentStates) spend(mac string, expires, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, used := s.until[mac]; used {
		return errSpentRequestState
	}
	if len(s.until) >= maxSpentStates {
		for m, until := range s.until {
			if !now.Before(until) {
				delete(s.until, m)
			}
		}
		if len(s.until) >= maxSpentStates {
			return errTooManySpentStates
		}
	}
	s.until[mac] = expires
	return nil
}

// seal is the requestState of run, held by holder and issued to client.
func (s *requestStates) seal(holder string, run mcpexec.RunID, client string) string {
	return requestStateVersion + "." + base64.RawURLEncoding.EncodeToString([]byte(holder)) + "." + string(run) + "." +
		base64.RawURLEncoding.EncodeToString(s.mac(requestStateVersion, holder+"\x00"+string(run), client))
}

// sealFlat is the requestState of the flat call named by subject, issued
// to client.
func (s *requestStates) sealFlat(subject, client string) string {
	issued := s.issued()
	return flatStateVersion + "." + issued + "." +
		base64.RawURLEncoding.EncodeToString(s.mac(flatStateVersion, subject+"\x00"+issued, client))
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
	issued := s.issued()
	return serverInputVersion + "." + base64.RawURLEncoding.EncodeToString([]byte(serverState)) + "." + issued + "." +
		base64.RawURLEncoding.EncodeToString(s.mac(serverInputVersion, serverInputSubject(subject, serverState)+"\x00"+issued, client))
}

// serverInputSubject binds a flat call to its server's state; the state,
// which may hold any character, enters the MAC as its digest.
func serverInputSubject(subject, serverState string) string {
	sum := sha256.Sum256([]byte(serverState))
	return subject + "\x00" + hex.EncodeToString(sum[:])
}

// issued is the time a flat state is issued, as the state carries it.
func (s *requestStates) issued() string {
	return strconv.FormatInt(s.now().UnixMilli(), 36)
}

// openFlat verifies a flat call's requestState (either layout) for the
// call named by subject and for client, and that it has not expired; an
// "f2" state is spent by it, and refused from then on.
func (s *requestStates) openFlat(state, subject, client string) (flatState, error) {
	parts := strings.Split(state, ".")
	var (
		st     flatState
		issued string
		mac    []byte
	)
	switch {
	case len(parts) == 3 && parts[0] == flatStateVersion:
		issued, mac = parts[1], s.mac(flatStateVersion, subject+"\x00"+parts[1], client)
	case len(parts) == 4 && parts[0] == serverInputVersion:
		serverState, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			return flatState{}, errBadRequestState
		}
		st = flatState{serverInput: true, serverState: string(serverState)}
		issued, mac = parts[2], s.mac(serverInputVersion, serverInputSubject(subject, st.serverState)+"\x00"+parts[2], client)
	default:
		return flatState{}, errBadRequestState
	}
	got, err := base64.RawURLEncoding.DecodeString(parts[len(parts)-1])
	if err != nil || !hmac.Equal(got, mac) {
		return flatState{}, errBadRequestState
	}
	ms, err := strconv.ParseInt(issued, 36, 64)
	if err != nil {
		return flatState{}, errBadRequestState
	}
	expires, now := time.UnixMilli(ms).Add(s.flatLife), s.now()
	if !now.Before(expires) {
		return flatState{}, errExpiredRequestState
	}
	if st.serverInput {
		if err := s.spent.spend(string(mac), expires, now); err != nil {
			return flatState{}, err
		}
	}
	return st, nil
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
