package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// liveRedraw is how often the status line's clock is redrawn.
const liveRedraw = 100 * time.Millisecond

// Terminal control: carriage return, then erase the whole line.
const eraseLine = "\r\x1b[2K"

// liveLine shows a running script to a person on a terminal: one status
// line, redrawn in place, with the running summary and the time elapsed;
// console output is printed above it as the script writes it. It writes
// nothing the model receives.
type liveLine struct {
	w     io.Writer
	st    style
	start time.Time

	mu      sync.Mutex
	summary string
	detail  string // the latest progress a server reported about the call
	started bool
	paused  bool // a permission question is on the terminal
	ended   bool

	quit chan struct{}
	done chan struct{}
}

func newLiveLine(w io.Writer, st style) *liveLine {
	return &liveLine{w: w, st: st, summary: exectool.Summary(nil, false),
		quit: make(chan struct{}), done: make(chan struct{})}
}

// begin shows the line and starts its clock: the script starts now.
func (l *liveLine) begin() {
	l.mu.Lock()
	l.start, l.started = time.Now(), true
	l.drawLocked()
	l.mu.Unlock()
	go l.tick()
}

// aside erases the line while something else uses the terminal (a
// question to the person), and returns the function that shows it again.
func (l *liveLine) aside() (resume func()) {
	l.pause()
	return l.resume
}

// pause erases the line while something else uses the terminal (a
// permission question); resume shows it again.
func (l *liveLine) pause() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started && !l.ended {
		fmt.Fprint(l.w, eraseLine)
	}
	l.paused = true
}

func (l *liveLine) resume() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paused = false
	l.drawLocked()
}

func (l *liveLine) tick() {
	defer close(l.done)
	t := time.NewTicker(liveRedraw)
	defer t.Stop()
	for {
		select {
		case <-l.quit:
			return
		case <-t.C:
			l.mu.Lock()
			l.drawLocked()
			l.mu.Unlock()
		}
	}
}

// progress takes the new running summary.
func (l *liveLine) progress(summary string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.summary, l.detail = summary, ""
	l.drawLocked()
}

// serverProgress shows what a server reported about the call it runs.
func (l *liveLine) serverProgress(p pool.Progress) {
	detail := p.Message
	if p.Total > 0 {
		detail = strings.TrimSpace(fmt.Sprintf("%s %.0f/%.0f", p.Message, p.Progress, p.Total))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.detail = p.Tool + ": " + detail
	l.drawLocked()
}

// console prints the script's console output above the status line.
func (l *liveLine) console(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	if !l.paused {
		fmt.Fprint(l.w, eraseLine)
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintln(l.w, l.st.dim("│ ")+line)
	}
	l.drawLocked()
}

// end stops the clock and erases the status line: the result follows.
func (l *liveLine) end() {
	l.mu.Lock()
	if l.ended {
		l.mu.Unlock()
		return
	}
	l.ended = true
	started := l.started
	if started && !l.paused {
		fmt.Fprint(l.w, eraseLine)
	}
	l.mu.Unlock()
	if started {
		close(l.quit)
		<-l.done
	}
}

func (l *liveLine) drawLocked() {
	if !l.started || l.paused || l.ended {
		return
	}
	elapsed := time.Since(l.start).Truncate(liveRedraw)
	line := l.st.note("⋯ ") + exectool.OneLine(l.summary)
	if l.detail != "" {
		line += l.st.dim(" · ") + l.detail
	}
	fmt.Fprint(l.w, eraseLine+line+l.st.dim(fmt.Sprintf(" · %.1fs", elapsed.Seconds())))
}

// pausingPrompter keeps the live line off the terminal while the person
// answers a permission question.
type pausingPrompter struct {
	permissions.Prompter
	live *liveLine
}

func (p pausingPrompter) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	defer p.live.aside()()
	return p.Prompter.Ask(ctx, q)
}
