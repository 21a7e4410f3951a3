package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
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

// fallbackColumns is the width assumed of a terminal that does not say.
const fallbackColumns = 80

// liveLine shows a running script to a person on a terminal: one status
// line, redrawn in place, with the running summary and the time elapsed;
// console output is printed above it as the script writes it. It writes
// nothing the model receives.
//
// The status line is cut to the terminal's width, asked of the terminal
// itself and asked again when it is resized: "\r ESC[2K" erases one row,
// so a line that wrapped would leave a stale copy at every redraw. Whatever
// else is written to the terminal meanwhile (log lines, questions) goes
// through the liveLine as an io.Writer, which erases the status line first
// and draws it again below.
type liveLine struct {
	w     io.Writer
	st    style
	start time.Time
	// terminalColumns asks the terminal its width; 0 when it cannot say.
	terminalColumns func() int

	mu      sync.Mutex
	cols    int // the terminal's width as last asked
	summary string
	detail  string // the latest progress a server reported about the call
	started bool
	paused  bool // a permission question is on the terminal
	ended   bool

	quit    chan struct{}
	done    chan struct{}
	resized chan os.Signal
}

// newLiveLine draws on w, the terminal whose width terminalColumns asks.
func newLiveLine(w io.Writer, st style, terminalColumns func() int) *liveLine {
	return &liveLine{w: w, st: st, terminalColumns: terminalColumns, summary: exectool.Summary(nil, false),
		quit: make(chan struct{}), done: make(chan struct{}), resized: make(chan os.Signal, 1)}
}

// begin shows the line and starts its clock: the script starts now.
func (l *liveLine) begin() {
	notifyResize(l.resized)
	l.mu.Lock()
	l.start, l.started = time.Now(), true
	l.askColumnsLocked()
	l.drawLocked()
	l.mu.Unlock()
	go l.tick()
}

// askColumnsLocked asks the terminal its width again.
func (l *liveLine) askColumnsLocked() {
	l.cols = 0
	if l.terminalColumns != nil {
		l.cols = l.terminalColumns()
	}
	if l.cols <= 0 {
		l.cols = fallbackColumns
	}
}

// Write prints p, whole lines, above the status line.
func (l *liveLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shownLocked() {
		fmt.Fprint(l.w, eraseLine)
	}
	n, err := l.w.Write(p)
	l.drawLocked()
	return n, err
}

// shownLocked reports that the status line is on the terminal.
func (l *liveLine) shownLocked() bool { return l.started && !l.paused && !l.ended }

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
		case <-l.resized:
			l.mu.Lock()
			l.askColumnsLocked()
			l.drawLocked()
			l.mu.Unlock()
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
	if l.shownLocked() {
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
		signal.Stop(l.resized)
		close(l.quit)
		<-l.done
	}
}

// Parts of the status line.
const (
	liveMark      = "⋯ "
	liveSeparator = " · "
)

// drawLocked draws the status line in one row: the mark, the running
// summary, the server's progress, the clock. What does not fit is cut, the
// progress first, and the clock always shows. The last column stays free:
// a terminal wraps a line that fills its width.
func (l *liveLine) drawLocked() {
	if !l.shownLocked() {
		return
	}
	elapsed := time.Since(l.start).Truncate(liveRedraw)
	clock := fmt.Sprintf("%s%.1fs", liveSeparator, elapsed.Seconds())
	room := l.cols - 1 - columns(liveMark) - columns(clock)
	summary := cutToColumns(exectool.OneLine(l.summary), room)
	line := l.st.note(liveMark) + summary
	room -= columns(summary)
	if l.detail != "" && room > columns(liveSeparator) {
		line += l.st.dim(liveSeparator) + cutToColumns(l.detail, room-columns(liveSeparator))
	}
	fmt.Fprint(l.w, eraseLine+line+l.st.dim(clock))
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
