package state

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpexec/mcpexec/internal/atomicfile"
)

// Backend holds a conversation's entries: bytes under names. A State calls
// it one call at a time and never modifies a slice it passed or received,
// so a backend may keep and return slices as they are.
type Backend interface {
	// Get returns the bytes under name; ok is false when there are none.
	Get(name string) (value []byte, ok bool, err error)
	// Put sets the bytes under name.
	Put(name string, value []byte) error
	// Delete removes name; removing a name that is not there is no error.
	Delete(name string) error
	// List returns every name with the size of its bytes, in any order: a
	// State reads it once, when it opens.
	List() ([]Entry, error)
}

// Entry is one name a Backend holds.
type Entry struct {
	Name string
	Size int64
}

// MemoryBackend is a Backend in memory.
type MemoryBackend struct {
	mu      sync.Mutex
	entries map[string][]byte
}

// NewMemoryBackend returns an empty MemoryBackend.
func NewMemoryBackend() *MemoryBackend {
	return &MemoryBackend{entries: map[string][]byte{}}
}

func (m *MemoryBackend) Get(name string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.entries[name]
	return v, ok, nil
}

func (m *MemoryBackend) Put(name string, value []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[name] = value
	return nil
}

func (m *MemoryBackend) Delete(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, name)
	return nil
}

func (m *MemoryBackend) List() ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Entry, 0, len(m.entries))
	for name, v := range m.entries {
		out = append(out, Entry{Name: name, Size: int64(len(v))})
	}
	return out, nil
}

// OpenDir returns the State kept in dir, made (mode 0700) if it does not
// exist: one file per entry, written atomically, so a State opened on the
// same directory later (the next command) finds what this one stored. One
// process at a time should write to a directory.
func OpenDir(dir string, limits Limits) (*State, error) {
	b, err := NewDirBackend(dir)
	if err != nil {
		return nil, err
	}
	return Open(b, limits)
}

// DirBackend is a Backend in a directory. A file is named by a hash of its
// entry's name and holds the name (a JSON string on the first line), then
// the bytes: any key a script chooses makes a valid file name.
type DirBackend struct {
	dir string
}

// fileSuffix marks the files a DirBackend owns.
const fileSuffix = ".entry"

// NewDirBackend returns the Backend of dir, made if it does not exist.
func NewDirBackend(dir string) (*DirBackend, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	return &DirBackend{dir: dir}, nil
}

func (d *DirBackend) path(name string) string {
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(d.dir, hex.EncodeToString(sum[:16])+fileSuffix)
}

func (d *DirBackend) Get(name string) ([]byte, bool, error) {
	data, err := os.ReadFile(d.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	stored, value, ok := bytes.Cut(data, []byte{'\n'})
	var got string
	if !ok || json.Unmarshal(stored, &got) != nil || got != name {
		return nil, false, fmt.Errorf("%s is not an entry of this state", d.path(name))
	}
	return value, true, nil
}

func (d *DirBackend) Put(name string, value []byte) error {
	header, err := json.Marshal(name)
	if err != nil {
		return err
	}
	return atomicfile.Write(d.path(name), header, []byte{'\n'}, value)
}

func (d *DirBackend) Delete(name string) error {
	err := os.Remove(d.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (d *DirBackend) List() ([]Entry, error) {
	files, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), fileSuffix) || !f.Type().IsRegular() {
			continue
		}
		e, err := readEntryHeader(filepath.Join(d.dir, f.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// readEntryHeader reads a file's entry name and the size of its bytes.
func readEntryHeader(path string) (Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	line, err := bufio.NewReader(f).ReadBytes('\n')
	var name string
	if err != nil || json.Unmarshal(bytes.TrimSuffix(line, []byte{'\n'}), &name) != nil {
		return Entry{}, fmt.Errorf("%s is not an entry of a state", path)
	}
	return Entry{Name: name, Size: info.Size() - int64(len(line))}, nil
}
