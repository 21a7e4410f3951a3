package state

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// URIPrefix starts the URI of a result kept by reference:
// mcpexec://results/<id>.
const URIPrefix = "mcpexec://results/"

// URI is the URI of the result id.
func URI(id string) string { return URIPrefix + id }

// ID returns the id a reference names: its URI's last part, or the
// reference itself when it is an id.
func ID(ref string) string {
	id, _ := strings.CutPrefix(ref, URIPrefix)
	return id
}

// resultNumber reads an id's number: ids are "r" and a decimal, in the
// order a conversation hands them out.
func resultNumber(id string) (uint64, bool) {
	digits, ok := strings.CutPrefix(id, "r")
	if !ok || digits == "" || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, err == nil
}

func resultID(n uint64) string { return "r" + strconv.FormatUint(n, 10) }

func sortResults(results []kept) {
	slices.SortFunc(results, func(a, b kept) int {
		x, _ := resultNumber(a.id)
		y, _ := resultNumber(b.id)
		return cmp.Compare(x, y)
	})
}

// Reserve hands out the id the next result kept by reference will have,
// before the run that may make it: the script's text names it. A run that
// keeps nothing gives it back with Release.
func (s *State) Reserve() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := resultID(s.next)
	s.next++
	return id
}

// Release gives back an id Reserve handed out that was not used, so that
// ids stay dense while no two runs are in flight.
func (s *State) Release(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := resultNumber(id); ok && n+1 == s.next && n >= s.saved {
		s.next = n
	}
}

// TooLargeError is a result not kept because it is larger than every
// result the state keeps together.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the value (%s) is larger than the %s of results the state keeps", FormatBytes(e.Size), FormatBytes(e.Limit))
}

// Keep keeps value (JSON) as the result id, which Reserve handed out, and
// returns the ids of older results it dropped to make room, oldest first.
func (s *State) Keep(id string, value json.RawMessage) (dropped []string, err error) {
	n, ok := resultNumber(id)
	if !ok {
		return nil, fmt.Errorf("state: %q is not a result id", id)
	}
	size := int64(len(value))
	s.mu.Lock()
	defer s.mu.Unlock()
	if size > s.limits.MaxResultBytes {
		return nil, &TooLargeError{Size: size, Limit: s.limits.MaxResultBytes}
	}
	for len(s.results) > 0 && s.resultBytes+size > s.limits.MaxResultBytes {
		old := s.results[0]
		if err := s.backend.Delete(resultPrefix + old.id); err != nil {
			return dropped, backendError(err)
		}
		s.results = s.results[1:]
		s.resultBytes -= old.size
		s.dropped.add(old.id)
		dropped = append(dropped, old.id)
	}
	if err := s.backend.Put(resultPrefix+id, value); err != nil {
		return dropped, backendError(err)
	}
	s.results = append(s.results, kept{id: id, size: size})
	sortResults(s.results)
	s.resultBytes += size
	if n+1 > s.saved {
		s.saved = n + 1
		if err := s.backend.Put(nextEntry, []byte(strconv.FormatUint(s.saved, 10))); err != nil {
			return dropped, backendError(err)
		}
	}
	return dropped, nil
}

// Result returns the result ref names (its id or its URI); ok is false
// when the state keeps none by that name (see Dropped).
func (s *State) Result(ref string) (value json.RawMessage, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result(ID(ref))
}

func (s *State) result(id string) (json.RawMessage, bool, error) {
	if !slices.ContainsFunc(s.results, func(k kept) bool { return k.id == id }) {
		return nil, false, nil
	}
	data, ok, err := s.backend.Get(resultPrefix + id)
	if err != nil {
		return nil, false, backendError(err)
	}
	return data, ok, nil
}

// Dropped reports whether the result ref names was dropped to make room
// for newer ones (as far as the state remembers).
func (s *State) Dropped(ref string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped.has(ID(ref))
}

// Text is a kept value as text: a string's own text (text/plain), any
// other value's JSON (application/json). It is what a reader of the result
// gets: the text the model was shown the first part of.
func Text(value json.RawMessage) (text, mimeType string) {
	if len(value) > 0 && value[0] == '"' {
		var s string
		if err := json.Unmarshal(value, &s); err == nil {
			return s, "text/plain"
		}
	}
	return string(value), "application/json"
}

// Chars counts the characters of a kept value's text.
func Chars(value json.RawMessage) int {
	text, _ := Text(value)
	return utf8.RuneCountInString(text)
}

// recent is a bounded set of ids, forgetting the oldest first.
type recent struct {
	order []string
	set   map[string]bool
}

// maxRemembered bounds what a state remembers of dropped results.
const maxRemembered = 1024

func newRecent() *recent { return &recent{set: map[string]bool{}} }

func (r *recent) add(id string) {
	if r.set[id] {
		return
	}
	if len(r.order) == maxRemembered {
		delete(r.set, r.order[0])
		r.order = r.order[1:]
	}
	r.order = append(r.order, id)
	r.set[id] = true
}

func (r *recent) has(id string) bool { return r.set[id] }
