package shapes

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mcpexec/mcpexec/internal/atomicfile"
)

// CacheDirEnv overrides the directory DefaultDir returns.
const CacheDirEnv = "MCPEXEC_CACHE_DIR"

// fileName is the store's file in its directory.
const fileName = "shapes.json"

// storeFormat is the version of the file's layout; a file of another
// version is ignored and rebuilt.
const storeFormat = 1

// maxRecords bounds how many tools a store file keeps; the records
// observed longest ago go first (tools of servers since upgraded or
// removed).
const maxRecords = 4096

// DefaultDir is where a Store persists: $MCPEXEC_CACHE_DIR when set, else
// mcpexec under the user cache directory (os.UserCacheDir).
func DefaultDir() (string, error) {
	if dir := os.Getenv(CacheDirEnv); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "mcpexec"), nil
}

// Key identifies one tool's results: a note learned for a tool applies only
// while the server (its configured name, and the name and version it
// reports) and the tool's input schema stay the same.
type Key struct {
	// Server is the configured server name, Tool the tool's full name.
	Server, Tool string
	// Implementation is the server's reported name and version.
	Implementation string
	InputSchema    []byte
}

func (k Key) id() string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(k.Server), []byte(k.Tool), []byte(k.Implementation), k.InputSchema} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Store keeps the notes of tools, in memory and, when it has a directory,
// in a file there. It is safe for concurrent use.
type Store struct {
	path string // "" keeps notes in memory only
	warn func(error)

	mu      sync.Mutex
	records map[string]*record
	seq     uint64 // the last observation's number

	saveMu sync.Mutex // one write of the file at a time
}

// record is one tool's note as the file holds it.
type record struct {
	Tool string `json:"tool"`
	Note Note   `json:"note"`
	// Seq orders records by their last change, for pruning.
	Seq uint64 `json:"seq"`
	// text is Note rendered.
	text string
}

type storeFile struct {
	Format  int                `json:"format"`
	Records map[string]*record `json:"records"`
}

// NewStore returns a store kept in memory only.
func NewStore() *Store {
	return &Store{records: map[string]*record{}, warn: func(error) {}}
}

// Open returns a store persisted in dir, loading what an earlier process
// saved there. A file that cannot be read or parsed is reported to warn
// (which may be nil) and ignored: the store starts empty and rewrites it.
func Open(dir string, warn func(error)) *Store {
	s := NewStore()
	if warn != nil {
		s.warn = warn
	}
	s.path = filepath.Join(dir, fileName)
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return s
	}
	if err != nil {
		s.warn(fmt.Errorf("observed result shapes: %s cannot be read, starting afresh: %w", s.path, err))
		return s
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil || f.Format != storeFormat {
		if err == nil {
			err = fmt.Errorf("format %d, want %d", f.Format, storeFormat)
		}
		s.warn(fmt.Errorf("observed result shapes: %s is not a store this version reads, starting afresh: %w", s.path, err))
		return s
	}
	for id, r := range f.Records {
		if r == nil || !r.Note.valid() {
			continue
		}
		r.text = r.Note.String()
		s.records[id] = r
		s.seq = max(s.seq, r.Seq)
	}
	return s
}

// Note returns the rendered note of the tool k, "" when none was observed.
func (s *Store) Note(k Key) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.records[k.id()]; ok {
		return r.text
	}
	return ""
}

// Observe merges an observation of the tool k's result into its note and
// reports whether the rendered note changed: the first observation, and
// after it only growth (a new field, a field turning optional, a new type).
// The same observation twice changes nothing. A change is saved at once.
func (s *Store) Observe(k Key, o Note) bool {
	if o.Empty() {
		return false
	}
	id := k.id()
	s.mu.Lock()
	r, ok := s.records[id]
	if !ok {
		r = &record{Tool: k.Tool}
		s.records[id] = r
	}
	r.Note.Merge(o)
	text := r.Note.String()
	changed := text != r.text
	if changed {
		s.seq++
		r.text, r.Seq = text, s.seq
	}
	s.mu.Unlock()
	if changed {
		s.save()
	}
	return changed
}

// save writes the store's file: a temporary file renamed over the old
// one, so a reader never sees half a file. A failure is a warning; the
// notes stay in memory.
func (s *Store) save() {
	if s.path == "" {
		return
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	s.prune()
	data, err := json.Marshal(storeFile{Format: storeFormat, Records: s.records})
	s.mu.Unlock()
	if err == nil {
		err = atomicfile.Write(s.path, data)
	}
	if err != nil {
		s.warn(fmt.Errorf("observed result shapes: not saved to %s: %w", s.path, err))
	}
}

// prune drops the records changed longest ago beyond maxRecords.
func (s *Store) prune() {
	if len(s.records) <= maxRecords {
		return
	}
	ids := make([]string, 0, len(s.records))
	for id := range s.records {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(s.records[a].Seq, s.records[b].Seq) })
	for _, id := range ids[:len(ids)-maxRecords] {
		delete(s.records, id)
	}
}

// valid reports whether a note read from a file holds only what a note can
// hold: field names that read as names, within the bounds. A file edited by
// hand or by another program must not put anything else in the catalog.
func (n Note) valid() bool {
	return !n.Empty() && n.Structured.valid(0) && n.JSONText.valid(0)
}

func (s *Shape) valid(depth int) bool {
	if s == nil {
		return true
	}
	if depth > maxDepth+1 || len(s.Fields) > maxFields || s.Kinds >= kindArray<<1 {
		return false
	}
	for i, f := range s.Fields {
		if !fieldName(f.Name) || f.Shape == nil || !f.Shape.valid(depth+1) {
			return false
		}
		if i > 0 && s.Fields[i-1].Name >= f.Name {
			return false
		}
	}
	return s.Elem.valid(depth+1) && s.Map.valid(depth+1)
}
