package gateway

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// statesAt issues and verifies requestStates by the clock at *now, flat
// ones good for a minute.
func statesAt(now *time.Time) *requestStates {
	s := newRequestStates(nil, time.Minute)
	s.now = func() time.Time { return *now }
	return s
}

// A flat call's state, of either layout, is good until the park timeout
// has passed since its issue, and refused as expired from then on; its
// issue time is under the MAC, so a client cannot make it younger.
func TestFlatRequestStatesExpireAfterTheParkTimeout(t *testing.T) {
	now := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	s := statesAt(&now)
	const subject, client = "tool\x00digest", "client a"
	f1 := s.sealFlat(subject, client)
	f2a, f2b := s.sealServerInput(subject, "round-1", client), s.sealServerInput(subject, "round-1", client)

	now = now.Add(time.Minute - time.Millisecond)
	if _, err := s.openFlat(f1, subject, client); err != nil {
		t.Errorf("a permission answer's state just before it expires: %v", err)
	}
	if _, err := s.openFlat(f2a, subject, client); err != nil {
		t.Errorf("a server input's state just before it expires: %v", err)
	}
	now = now.Add(time.Millisecond)
	for name, state := range map[string]string{"a permission answer's": f1, "a server input's": f2b} {
		if _, err := s.openFlat(state, subject, client); !errors.Is(err, errExpiredRequestState) {
			t.Errorf("%s state a park timeout after its issue: %v, want it refused as expired", name, err)
		}
	}
	parts := strings.Split(f1, ".")
	younger := parts[0] + "." + strconv.FormatInt(now.UnixMilli(), 36) + "." + parts[2]
	if _, err := s.openFlat(younger, subject, client); !errors.Is(err, errBadRequestState) {
		t.Errorf("a state whose issue time was moved on: %v, want it refused as altered", err)
	}
}

// A state passing on a server's request for input continues its call
// once: a second use is refused, however the first went. A permission
// answer's state may be used again (its retry asks the gate again).
func TestServerInputStateIsSingleUse(t *testing.T) {
	now := time.Now()
	s := statesAt(&now)
	const subject, client = "tool\x00digest", "client a"
	f2 := s.sealServerInput(subject, "round-1", client)
	if _, err := s.openFlat(f2, subject, client); err != nil {
		t.Fatalf("first use: %v", err)
	}
	if _, err := s.openFlat(f2, subject, client); !errors.Is(err, errSpentRequestState) {
		t.Errorf("second use: %v, want it refused as used", err)
	}
	f1 := s.sealFlat(subject, client)
	for range 2 {
		if _, err := s.openFlat(f1, subject, client); err != nil {
			t.Errorf("a permission answer's state used again: %v", err)
		}
	}
}

// The memory of used states is bounded: full of states still good, it
// refuses another rather than forget one; those expired make room.
func TestSpentStatesAreBounded(t *testing.T) {
	now := time.Now()
	spent := spentStates{until: map[string]time.Time{}}
	for i := range maxSpentStates {
		if err := spent.spend(strconv.Itoa(i), now.Add(time.Minute), now); err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
	}
	if err := spent.spend("one more", now.Add(time.Minute), now); !errors.Is(err, errTooManySpentStates) {
		t.Fatalf("a state past the bound: %v, want it refused", err)
	}
	later := now.Add(time.Minute)
	if err := spent.spend("one more", later.Add(time.Minute), later); err != nil {
		t.Fatalf("a state once the others expired: %v", err)
	}
	if n := len(spent.until); n != 1 {
		t.Errorf("%d states remembered, want the expired forgotten", n)
	}
	if err := spent.spend("one more", later.Add(time.Minute), later); !errors.Is(err, errSpentRequestState) {
		t.Errorf("the same state again: %v, want it refused as used", err)
	}
}
