package actors

import (
	"context"
	"sync"
)

// Watching a run without waiting on it. A caller attached to a run (Start,
// Resume) is one the run reports to and parks for; a watcher only hears
// about it: the exec actor pushes its report to every watcher on each
// change of its state or live summary, as the change happens, so a watcher
// misses none however brief, and nothing polls. A run with watchers and no
// caller parks (and expires) as one nobody watches.

// Watch calls onChange with the run id's report as it stands at once, then
// after every change of its state or live summary, in order, on the
// calling goroutine; it returns nil after the run's final report, or
// ctx's error when ctx ends first. A run that already ended gives its
// final report alone. A slow onChange delays no one: the reports wait for
// it, none is dropped. It fails at once only with ErrUnknownRun.
func (e *Execs) Watch(ctx context.Context, id RunID, onChange func(RunReport)) error {
	entry, ended, ok := e.runs.lookup(id)
	if !ok {
		return ErrUnknownRun
	}
	if ended != nil {
		onChange(*ended)
		return nil
	}
	w := &runWatcher{ready: make(chan struct{}, 1)}
	e.system.Root.Send(entry.pid, &watchRun{watcher: w})
	// tell hands the queued reports on and reports whether the last was
	// the end.
	tell := func() bool {
		for _, r := range w.take() {
			onChange(r)
			if r.State.Ended() {
				return true
			}
		}
		return false
	}
	for {
		select {
		case <-w.ready:
			if tell() {
				return nil
			}
		case <-entry.done:
			// The actor queued the end before done closed, unless it
			// ended before the watch reached it.
			if !tell() {
				onChange(*entry.final())
			}
			return nil
		case <-ctx.Done():
			e.system.Root.Send(entry.pid, &unwatchRun{watcher: w})
			return ctx.Err()
		}
	}
}

// runWatcher is one watcher's queue of reports, filled by the exec actor
// (which never waits on it) and drained by Watch.
type runWatcher struct {
	mu     sync.Mutex
	queued []RunReport
	// ready holds a signal while reports are queued.
	ready chan struct{}
}

func (w *runWatcher) push(r RunReport) {
	w.mu.Lock()
	w.queued = append(w.queued, r)
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

func (w *runWatcher) take() []RunReport {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.queued
	w.queued = nil
	return out
}
