package hotreload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/mcpexec/mcpexec/messages"
)

// layer is one configuration source as the config actor last read it.
type layer struct {
	source messages.ConfigSource
	// path is the file behind a file layer; empty for the remote layer.
	path string
	// settings is the last good content; nil while the source is absent.
	settings *Settings
	// err is why the last read failed; nil when it loaded.
	err error
	// seen, exists and raw are the last read, so a read that finds the same
	// bytes (the echo of a save already loaded) changes nothing.
	seen   bool
	exists bool
	raw    []byte
}

// clone copies the layer (nil for nil). Its methods replace the fields'
// values and never modify them in place, so the copy is independent.
func (l *layer) clone() *layer {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}

// update takes a new reading of the source. It reports whether the reading
// differs from the last one; err is the parse error of a malformed document,
// which leaves the last good settings in place.
func (l *layer) update(exists bool, data []byte) (changed bool, err error) {
	if l.seen && l.err == nil && exists == l.exists && bytes.Equal(data, l.raw) {
		return false, nil
	}
	if l.seen && l.err != nil && exists == l.exists && bytes.Equal(data, l.raw) {
		return false, l.err
	}
	l.seen, l.exists, l.raw = true, exists, bytes.Clone(data)
	if !exists {
		l.settings, l.err = nil, nil
		return true, nil
	}
	s, err := ParseSettings(data)
	if err != nil {
		l.err = l.describe(err)
		return true, l.err
	}
	l.settings, l.err = &s, nil
	return true, nil
}

// failed records a source that could not be read at all. It reports whether
// this is news (the first failure, or a different one).
func (l *layer) failed(err error) bool {
	news := l.err == nil || l.err.Error() != err.Error()
	l.err, l.seen = err, false
	return news
}

// readFile reads the layer's file and updates the layer.
func (l *layer) readFile() (changed bool, err error) {
	data, exists, err := readSettingsFile(l.path)
	if err != nil {
		return l.failed(l.describe(err)), l.err
	}
	return l.update(exists, data)
}

func (l *layer) describe(err error) error {
	if l.path == "" {
		return err
	}
	return fmt.Errorf("%s %s: %w", l.source, l.path, err)
}

// readSettingsFile reads a settings file; a missing file is not an error.
func readSettingsFile(path string) (data []byte, exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, maxSettingsBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) > maxSettingsBytes {
		return nil, false, errors.New("file is too large to be a settings file")
	}
	return data, true, nil
}
