package hotreload

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/rs/zerolog"
)

// watcher reports changes to a few files. It watches their directories,
// not the files: editors save by renaming a new file over the old one, which
// ends a watch on the file itself, while a directory watch sees every save
// style and never needs re-adding. Events are matched by name; a burst of
// them (one save is several events) is reported once, after the files have
// been quiet for the debounce delay, or at the latest after maxDelay.
type watcher[K cmp.Ordered] struct {
	fsw      *fsnotify.Watcher
	names    map[string]K // watched path -> name reported for it
	debounce time.Duration
	maxDelay time.Duration
	changed  func(names []K)
	logger   zerolog.Logger
	done     chan struct{}
	wg       sync.WaitGroup
}

// watchFiles starts watching. files maps each absolute path to watch to the
// name changed receives for it (several paths may share a name, e.g. a
// symbolic link and its target). changed runs on the watcher's goroutine.
func watchFiles[K cmp.Ordered](files map[string]K, debounce time.Duration, changed func([]K), logger zerolog.Logger) (*watcher[K], error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher[K]{
		fsw: fsw, names: map[string]K{}, debounce: debounce, maxDelay: 10 * debounce,
		changed: changed, logger: logger, done: make(chan struct{}),
	}
	for path, name := range files {
		path = filepath.Clean(path)
		w.names[path] = name
		if err := fsw.Add(filepath.Dir(path)); err != nil {
			_ = fsw.Close()
			return nil, err
		}
	}
	w.wg.Add(1)
	go w.run()
	return w, nil
}

func (w *watcher[K]) run() {
	defer w.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	pending := map[K]bool{}
	var burstStart time.Time
	mark := func(name K) {
		if len(pending) == 0 {
			burstStart = time.Now()
		}
		pending[name] = true
		delay := min(w.debounce, time.Until(burstStart.Add(w.maxDelay)))
		timer.Reset(max(delay, 0))
	}
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if name, ok := w.names[filepath.Clean(ev.Name)]; ok {
				mark(name)
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				w.logger.Warn().Err(err).Msg("settings watcher error")
				continue
			}
			// Events were lost: any watched file may have changed.
			for _, name := range w.names {
				mark(name)
			}
		case <-timer.C:
			names := make([]K, 0, len(pending))
			for name := range pending {
				names = append(names, name)
			}
			clear(pending)
			slices.Sort(names)
			w.changed(names)
		}
	}
}

// close stops the watcher and waits for its goroutine.
func (w *watcher[K]) close() error {
	close(w.done)
	err := w.fsw.Close()
	w.wg.Wait()
	return err
}

// FileWatch is a running WatchFile.
type FileWatch struct{ w *watcher[string] }

// WatchFile calls changed after each save of the file at path, however the
// editor saves it (atomic rename, in place), once per burst of events. The
// file need not exist yet. changed runs on the watch's own goroutine.
func WatchFile(path string, changed func(), logger zerolog.Logger) (*FileWatch, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	w, err := watchFiles(map[string]string{abs: abs}, DefaultDebounce, func([]string) { changed() }, logger)
	if err != nil {
		return nil, err
	}
	return &FileWatch{w: w}, nil
}

// Close stops the watch and waits for a changed call in progress.
func (f *FileWatch) Close() error { return f.w.close() }
