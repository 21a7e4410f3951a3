package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// WorkerOptions configure a worker pool. Zero fields take the defaults.
type WorkerOptions struct {
	// Command starts a worker; default: this executable, re-executed (its
	// main must call MaybeRunWorker first).
	Command []string
	// InProcess serves runs on goroutines of this process, over the same
	// protocol on in-memory pipes: for tests and trusted scripts. A script
	// that exhausts memory then takes the whole process down.
	InProcess bool
	// Warm is how many idle workers are kept ready at all times; default
	// GOMAXPROCS.
	Warm int
	// IdleTimeout is how long a worker above the warm count may stay idle
	// after a burst before it is stopped.
	IdleTimeout time.Duration
	// MaxWorkers bounds the workers alive at once (idle and busy); Runs
	// beyond it wait. Default: four per GOMAXPROCS, at least eight.
	MaxWorkers int
	// MaxRuns is how many runs a worker serves before it is replaced.
	// Every run has a fresh runtime; the bound is hygiene against what a
	// long-lived process could accumulate (a worker's resident set stays
	// flat over thousands of runs: 22.2 MB after 100, 23.8 MB after
	// 3,000), weighed against a process start (about 8 ms of CPU) per
	// MaxRuns runs.
	MaxRuns int
	// MemoryLimit caps each worker process's memory, in bytes.
	MemoryLimit int64
	// StartTimeout bounds how long a new worker may take to become ready.
	StartTimeout time.Duration
	// Logger receives the pool's diagnostics; default: none.
	Logger *zerolog.Logger
}

// Defaults for WorkerOptions.
const (
	DefaultMaxRuns      = 1000
	DefaultMemoryLimit  = 512 << 20
	DefaultStartTimeout = 10 * time.Second
	DefaultIdleTimeout  = time.Minute
	// MinMemoryLimit is the smallest memory cap a worker can start under:
	// below it the Go runtime itself cannot create its threads.
	MinMemoryLimit = 128 << 20
)

func (o WorkerOptions) withDefaults() (WorkerOptions, error) {
	if len(o.Command) == 0 && !o.InProcess {
		exe, err := os.Executable()
		if err != nil {
			return o, err
		}
		o.Command = []string{exe}
	}
	procs := runtime.GOMAXPROCS(0)
	if o.Warm <= 0 {
		o.Warm = procs
	}
	if o.MaxWorkers <= 0 {
		o.MaxWorkers = max(8, 4*procs)
	}
	o.MaxWorkers = max(o.MaxWorkers, o.Warm)
	if o.MaxRuns <= 0 {
		o.MaxRuns = DefaultMaxRuns
	}
	if o.MemoryLimit <= 0 {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if o.MemoryLimit < MinMemoryLimit {
		return o, fmt.Errorf("sandbox: a worker memory limit of %d bytes is too small; the minimum is %d (128 MiB)", o.MemoryLimit, MinMemoryLimit)
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.Logger == nil {
		nop := zerolog.Nop()
		o.Logger = &nop
	}
	return o, nil
}

// Workers is a pool of sandbox workers. Idle workers are kept warm so a run
// does not pay for a process start; a worker that timed out, crashed, was
// aborted or served its runs is replaced.
type Workers struct {
	opts  WorkerOptions
	slots chan struct{} // one per live worker allowed

	mu         sync.Mutex
	parked     int           // busy workers held by runs that wait for a person
	idle       []*Worker     // most recently used last
	returned   chan struct{} // closed and replaced whenever a worker goes idle
	closed     bool
	stopReaper chan struct{}
	bg         sync.WaitGroup // replenishing and stopping in the background
	active     sync.WaitGroup // runs in flight

	spawned, restarted atomic.Int64 // worker processes started; of them, replacements
}

// WorkerStats are a pool's counts at one moment.
type WorkerStats struct {
	// Alive counts the workers running (idle or busy), Idle those waiting
	// for a run.
	Alive, Idle int
	// Spawned counts the workers started since the pool was made;
	// Restarted those of them started to replace a spent worker.
	Spawned, Restarted int64
}

// Stats returns the pool's counts.
func (p *Workers) Stats() WorkerStats {
	p.mu.Lock()
	idle := len(p.idle)
	p.mu.Unlock()
	return WorkerStats{Alive: len(p.slots), Idle: idle, Spawned: p.spawned.Load(), Restarted: p.restarted.Load()}
}

// start starts one worker and counts it.
func (p *Workers) start() (*Worker, error) {
	w, err := startWorker(p.opts)
	if err == nil {
		p.spawned.Add(1)
	}
	return w, err
}

// ErrClosed is returned by Acquire after Close.
var ErrClosed = errors.New("sandbox: worker pool closed")

// ErrAllParked is returned by Acquire when every worker the pool may have
// is held by a run that waits for a person's answer: none will come back
// until one of those runs is answered, cancelled or expires.
var ErrAllParked = errors.New("sandbox: every worker is held by a run that waits for a person")

// NewWorkers starts a pool and its warm workers. It fails if a worker cannot
// be started, so a binary that forgot MaybeRunWorker is caught at once.
func NewWorkers(opts WorkerOptions) (*Workers, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Workers{opts: opts, slots: make(chan struct{}, opts.MaxWorkers), stopReaper: make(chan struct{}), returned: make(chan struct{})}
	for i := 0; i < opts.Warm; i++ {
		p.slots <- struct{}{}
		w, err := p.start()
		if err != nil {
			<-p.slots
			p.Close()
			return nil, err
		}
		p.idle = append(p.idle, w)
	}
	p.bg.Add(1)
	go p.reapIdle()
	return p, nil
}

// reapIdle stops workers that stayed idle above the warm count for longer
// than IdleTimeout: a burst of concurrent Execs is served warm, and the
// pool shrinks back once the burst is over.
func (p *Workers) reapIdle() {
	defer p.bg.Done()
	tick := time.NewTicker(p.opts.IdleTimeout / 2)
	defer tick.Stop()
	for {
		select {
		case <-p.stopReaper:
			return
		case now := <-tick.C:
			p.mu.Lock()
			var stale []*Worker
			for len(p.idle) > p.opts.Warm && now.Sub(p.idle[0].idleSince) > p.opts.IdleTimeout {
				stale = append(stale, p.idle[0])
				p.idle = p.idle[1:]
			}
			p.mu.Unlock()
			for _, w := range stale {
				w.stop()
				<-p.slots
			}
		}
	}
}

// Run acquires a worker, runs the script on it and releases it. It always
// returns a Result.
func (p *Workers) Run(ctx context.Context, req Request) Result {
	if res, ok := precheck(ctx, req); !ok {
		return res
	}
	w, err := p.Acquire(ctx)
	if err != nil {
		p.opts.Logger.Error().Err(err).Msg("sandbox: no worker")
		return UnavailableResultFor(ctx, err)
	}
	defer p.Release(w)
	return w.Run(ctx, req)
}

// Acquire takes an idle worker, or starts one if the pool may grow, or waits
// for one of the two. Every acquired worker must be released.
func (p *Workers) Acquire(ctx context.Context) (*Worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	p.active.Add(1)
	p.mu.Unlock()
	for {
		p.mu.Lock()
		if p.parked >= p.opts.MaxWorkers {
			p.mu.Unlock()
			p.active.Done()
			return nil, ErrAllParked
		}
		if n := len(p.idle); n > 0 {
			w := p.idle[n-1]
			p.idle = p.idle[:n-1]
			p.mu.Unlock()
			return w, nil
		}
		returned := p.returned
		p.mu.Unlock()
		select {
		case p.slots <- struct{}{}:
			w, err := p.start()
			if err != nil {
				<-p.slots
				p.active.Done()
				return nil, err
			}
			return w, nil
		case <-returned:
			// A worker came back: take it if no one else did.
		case <-ctx.Done():
			p.active.Done()
			return nil, ctx.Err()
		}
	}
}

// Park marks one busy worker as held by a run that waits for a person (a
// parked run keeps its script's state in its worker) until unpark is
// called. Such workers still count toward MaxWorkers; when all of them are
// held this way, Acquire fails at once with ErrAllParked instead of
// waiting for a worker that may not come back for a long time.
func (p *Workers) Park() (unpark func()) {
	p.mu.Lock()
	p.parked++
	p.wakeWaiters() // a waiter may now be waiting in vain
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.parked--
			p.mu.Unlock()
		})
	}
}

// Release returns a worker after a run: back to the idle set if it is fit,
// otherwise it is stopped (and, if the pool fell below its warm size,
// replaced in the background).
func (p *Workers) Release(w *Worker) {
	defer p.active.Done()
	p.mu.Lock()
	if !p.closed && !w.spent && w.runs < p.opts.MaxRuns {
		p.putIdle(w)
		if w.runs == p.opts.MaxRuns-p.opts.MaxRuns/replaceAhead {
			p.bg.Add(1)
			go p.startSuccessor()
		}
		p.mu.Unlock()
		return
	}
	replenish := !p.closed && len(p.idle) < p.opts.Warm
	p.bg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.bg.Done()
		w.stop()
		<-p.slots
		if replenish {
			p.replenish()
		}
	}()
}

// replaceAhead: a worker's successor is started when it has 1/replaceAhead
// of its runs left, so that the worker retires into a warm successor
// instead of making a run wait for a process to start (several
// milliseconds, which over MaxRuns runs is a quarter of a trivial run's
// time).
const replaceAhead = 8

// startSuccessor starts a worker that takes over from one close to its
// retirement, if the pool may grow. It joins the idle set as its least
// recently used member: the workers already warm serve first, and it
// serves when one retires (or the idle reaper stops it if none does).
func (p *Workers) startSuccessor() {
	defer p.bg.Done()
	w := p.startInSlot("starting a successor worker")
	if w == nil {
		return // at the maximum: a retiring worker is replaced as it goes
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.stop()
		<-p.slots
		return
	}
	// The idle set stays in the order the reaper reads it, oldest first.
	w.idleSince = time.Now()
	if len(p.idle) > 0 {
		w.idleSince = p.idle[0].idleSince
	}
	p.idle = slices.Insert(p.idle, 0, w)
	p.wakeWaiters()
	p.mu.Unlock()
}

// startInSlot starts a worker in a free slot of the pool, without waiting
// for one; nil when the pool is at its maximum or the start failed (logged
// as doing what).
func (p *Workers) startInSlot(doing string) *Worker {
	select {
	case p.slots <- struct{}{}:
	default:
		return nil
	}
	w, err := p.start()
	if err != nil {
		<-p.slots
		p.opts.Logger.Error().Err(err).Msg("sandbox: " + doing + " failed")
		return nil
	}
	return w
}

// replenish starts one warm worker, unless the pool closed or filled up
// meanwhile.
func (p *Workers) replenish() {
	w := p.startInSlot("replacing a worker")
	if w == nil {
		return // the pool is at its maximum: busy workers will come back
	}
	p.mu.Lock()
	if p.closed || len(p.idle) >= p.opts.Warm {
		p.mu.Unlock()
		w.stop()
		<-p.slots
		return
	}
	p.restarted.Add(1)
	p.putIdle(w)
	p.mu.Unlock()
}

// putIdle adds w to the idle set and wakes every Acquire waiting for a
// worker: a waiter that found neither an idle worker nor a free slot sleeps
// until then, so every worker that joins the idle set must wake it, the
// replacement of a spent worker included. Callers hold p.mu.
func (p *Workers) putIdle(w *Worker) {
	w.idleSince = time.Now()
	p.idle = append(p.idle, w)
	p.wakeWaiters()
}

// wakeWaiters wakes every Acquire waiting for a worker. Callers hold p.mu.
func (p *Workers) wakeWaiters() {
	close(p.returned)
	p.returned = make(chan struct{})
}

// Close stops every worker and returns when they are gone. Runs in flight
// finish first (they end at their own deadline at the latest).
func (p *Workers) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	close(p.stopReaper)
	p.active.Wait()
	for _, w := range idle {
		w.stop()
		<-p.slots
	}
	p.bg.Wait()
	return nil
}
