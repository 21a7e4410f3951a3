package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Limits bound one conversation's state. Zero fields take the defaults.
type Limits struct {
	// MaxBytes bounds the keys scripts store: every key's and value's
	// bytes together.
	MaxBytes int64
	// MaxResultBytes bounds the results kept by reference: a new one
	// drops the oldest until it fits, and one larger than this is not
	// kept.
	MaxResultBytes int64
}

// Defaults for zero Limits fields.
const (
	DefaultMaxBytes       = 64 << 20
	DefaultMaxResultBytes = 64 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = DefaultMaxResultBytes
	}
	return l
}

// State is one conversation's state: the keys its scripts stored and the
// results kept by reference. Its methods may be called from any goroutine;
// they call the Backend one at a time.
type State struct {
	backend Backend
	limits  Limits

	mu       sync.Mutex
	keys     map[string]int64 // key -> bytes it takes (key and value)
	keyBytes int64
	results  []kept // oldest first
	// resultBytes is what the results in results take.
	resultBytes int64
	// next is the number of the next result id handed out; saved is the
	// one the backend holds.
	next, saved uint64
	// dropped remembers recent ids dropped to make room, so that reading
	// one says so instead of calling it unknown.
	dropped *recent
}

// kept is one result kept by reference.
type kept struct {
	id   string
	size int64
}

// Backend entry names: the keys and results share one backend under
// prefixes, beside the counter of result ids.
const (
	keyPrefix    = "key:"
	resultPrefix = "result:"
	nextEntry    = "next-result"
)

// NewMemory returns a State held in memory: it lasts as long as the value.
func NewMemory(limits Limits) *State {
	s, _ := Open(NewMemoryBackend(), limits)
	return s
}

// Open returns the State whose entries b holds, reading what is there
// already (a conversation resumed).
func Open(b Backend, limits Limits) (*State, error) {
	s := &State{backend: b, limits: limits.withDefaults(), keys: map[string]int64{}, next: 1, dropped: newRecent()}
	entries, err := b.List()
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name, keyPrefix):
			key := strings.TrimPrefix(e.Name, keyPrefix)
			size := int64(len(key)) + e.Size
			s.keys[key] = size
			s.keyBytes += size
		case strings.HasPrefix(e.Name, resultPrefix):
			id := strings.TrimPrefix(e.Name, resultPrefix)
			if n, ok := resultNumber(id); ok {
				s.results = append(s.results, kept{id: id, size: e.Size})
				s.resultBytes += e.Size
				s.next = max(s.next, n+1)
			}
		case e.Name == nextEntry:
			data, ok, err := b.Get(nextEntry)
			if err != nil {
				return nil, fmt.Errorf("state: %w", err)
			}
			if n, perr := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); ok && perr == nil {
				s.next = max(s.next, n)
			}
		}
	}
	sortResults(s.results)
	s.saved = s.next
	return s, nil
}

// Limits returns the state's bounds, defaults filled in.
func (s *State) Limits() Limits { return s.limits }

// Usage returns what the stored keys and the kept results take, in bytes.
func (s *State) Usage() (keys, results int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keyBytes, s.resultBytes
}

// Store stores value (JSON) under key; an empty value removes the key. It
// fails with a *FullError when the keys would take more than MaxBytes,
// leaving every key as it was. Its errors are written for the script.
func (s *State) Store(key string, value json.RawMessage) error {
	if err := checkKey(key); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, had := s.keys[key]
	if len(value) == 0 {
		if !had {
			return nil
		}
		if err := s.backend.Delete(keyPrefix + key); err != nil {
			return backendError(err)
		}
		delete(s.keys, key)
		s.keyBytes -= old
		return nil
	}
	size := int64(len(key) + len(value))
	if free := s.limits.MaxBytes - (s.keyBytes - old); size > free {
		return &FullError{Limit: s.limits.MaxBytes, Free: free, Needed: size}
	}
	if err := s.backend.Put(keyPrefix+key, value); err != nil {
		return backendError(err)
	}
	s.keys[key] = size
	s.keyBytes += size - old
	return nil
}

// Load returns the value stored under key, or the result key names (its id
// or its URI); ok is false when there is neither. A key stored by a script
// wins over a result id of the same spelling; the URI always names the
// result.
func (s *State) Load(key string) (value json.RawMessage, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, isURI := strings.CutPrefix(key, URIPrefix); isURI {
		return s.result(id)
	}
	if _, has := s.keys[key]; has {
		data, ok, err := s.backend.Get(keyPrefix + key)
		if err != nil {
			return nil, false, backendError(err)
		}
		return data, ok, nil
	}
	return s.result(key)
}

// Keys returns the stored keys with the bytes each takes, in no order.
func (s *State) Keys() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.keys))
	for k, v := range s.keys {
		out[k] = v
	}
	return out
}

func checkKey(key string) error {
	switch {
	case key == "":
		return errors.New("store failed: the key is empty; name the value with a non-empty string")
	case strings.HasPrefix(key, URIPrefix):
		return fmt.Errorf("store failed: keys starting with %s name kept results; choose another key", URIPrefix)
	}
	return nil
}

// backendError is a backend's failure as the script reads it.
func backendError(err error) error {
	return fmt.Errorf("the state could not be read or written: %v", err)
}

// FullError is a store refused because the keys would take more than the
// state holds.
type FullError struct {
	// Limit is Limits.MaxBytes. Free is what the keys left free, Needed
	// what the store needed (key and value); Needed is 0 when the value
	// was refused before it was measured whole, being larger than Limit.
	Limit, Free, Needed int64
}

func (e *FullError) Error() string {
	if e.Needed == 0 || e.Needed > e.Limit {
		return fmt.Sprintf("store failed: the value is larger than the %s the state holds in all. Keys stored before are kept.",
			FormatBytes(e.Limit))
	}
	return fmt.Sprintf("store failed: the state holds at most %s of keys and values, %s of it is free, and this needs %s. "+
		"Keys stored before are kept; store(key, undefined) removes a key.",
		FormatBytes(e.Limit), FormatBytes(max(e.Free, 0)), FormatBytes(e.Needed))
}

// FormatBytes writes n in binary units, as the errors scripts read give
// sizes: "512 bytes", "1.5 KiB", "64 MiB".
func FormatBytes(n int64) string {
	if n < 1024 {
		if n == 1 {
			return "1 byte"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	v, unit := float64(n)/1024, units[0]
	for _, u := range units[1:] {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " " + unit
}
