package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair with the kernel's ioctls (no
// dependency): the demo writes to the terminal side, the test reads the
// other.
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals here: %v", err)
	}
	unlock := int32(0)
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		control.Close()
		t.Fatalf("unlocking the pseudo-terminal: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		control.Close()
		t.Fatalf("numbering the pseudo-terminal: %v", errno)
	}
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		control.Close()
		t.Fatal(err)
	}
	return control, term
}

// runOnTerminal runs the demo with its stdout on a terminal and returns what
// it wrote there.
func runOnTerminal(t *testing.T, env []string, args ...string) string {
	t.Helper()
	control, term := openPTY(t)
	defer control.Close()
	mark := newRunMark(t)
	cmd := exec.Command(demoBin, args...)
	cmd.Env = append(append(os.Environ(), mark), env...)
	cmd.Stdout = term
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the demo holds the only copy now
	var out bytes.Buffer
	_, err := io.Copy(&out, control)
	var pathErr *os.PathError
	if err != nil && !(errors.As(err, &pathErr) && errors.Is(pathErr.Err, syscall.EIO)) {
		t.Errorf("reading the terminal: %v", err) // EIO is how a closed terminal ends
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("demo %q on a terminal: %v\n%s", args, err, stderr.String())
	}
	checkNoSurvivors(t, mark)
	return out.String()
}

// Colours on a terminal, none with NO_COLOR set.
func TestColoursOnATerminalUnlessNoColor(t *testing.T) {
	script := writeFile(t, "s.js", `return await tools.mcp__text__echo({ text: "hi" });`)
	coloured := runOnTerminal(t, []string{"NO_COLOR=", "TERM=xterm"}, "exec", "--script", script)
	if !strings.Contains(coloured, "\x1b[") || !strings.Contains(coloured, "hi") {
		t.Errorf("on a terminal: %q, want coloured output", coloured)
	}
	plain := runOnTerminal(t, []string{"NO_COLOR=1", "TERM=xterm"}, "exec", "--script", script)
	if strings.Contains(plain, "\x1b[") || !strings.Contains(plain, "hi") {
		t.Errorf("with NO_COLOR=1: %q, want plain output", plain)
	}
}

// On a terminal the tour asks the person: the prompt is answered by typing
// on that terminal, and the answer decides the call.
func TestTourAsksThePersonOnATerminal(t *testing.T) {
	control, term := openPTY(t)
	defer control.Close()
	mark := newRunMark(t)
	cmd := exec.Command(demoBin)
	cmd.Env = append(os.Environ(), mark, "NO_COLOR=1")
	cmd.Stdin, cmd.Stdout = term, term
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()

	var out strings.Builder
	buf := make([]byte, 4096)
	answered := false
	for {
		n, err := control.Read(buf)
		out.Write(buf[:n])
		if !answered && strings.Contains(out.String(), "[y] yes once") {
			if _, err := control.Write([]byte("y\n")); err != nil {
				t.Fatal(err)
			}
			answered = true
		}
		if err != nil {
			break // EIO once the demo has exited
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("tour on a terminal: %v\n%s\n%s", err, out.String(), stderr.String())
	}
	checkNoSurvivors(t, mark)
	if !answered {
		t.Fatalf("the tour never asked:\n%s", out.String())
	}
	for _, want := range []string{"→ allow once", "deleted record 4", "Tour complete"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tour output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "answered for you") {
		t.Error("the tour answered for the person although they were at a terminal")
	}
}

// With stderr on a terminal, exec shows the run live in place there: the
// running summary, the servers' own progress and the clock on one line that
// is redrawn, and console output as the script writes it. Standard output (what the model gets) is
// as without a terminal.
func TestExecShowsTheRunLiveOnATerminal(t *testing.T) {
	control, term := openPTY(t)
	defer control.Close()
	setColumns(t, control, 120) // wide enough for the whole line
	mark := newRunMark(t)
	script := writeFile(t, "s.js", `console.log("step one");
await tools.mcp__text__echo({ text: "hi" });
console.log("step two");
await tools.mcp__text__sleep({ ms: 2000 });
return "done";`)
	cmd := exec.Command(demoBin, "exec", "--script", script)
	cmd.Env = append(os.Environ(), mark, "NO_COLOR=1")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()
	var live bytes.Buffer
	_, _ = io.Copy(&live, control) // ends with EIO once the demo has exited
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exec: %v\nstdout: %s\nterminal: %q", err, stdout.String(), live.String())
	}
	checkNoSurvivors(t, mark)
	shown := live.String()
	for _, want := range []string{"\r\x1b[2K", "│ step one", "│ step two", "1 tool call: mcp__text__echo", "mcp__text__sleep: sleeping 0/2000", "s"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, shown)
		}
	}
	if strings.Index(shown, "│ step one") > strings.Index(shown, "1 tool call: mcp__text__echo") {
		t.Errorf("console output was not shown as it happened:\n%q", shown)
	}
	if out := stdout.String(); !strings.Contains(out, "What the model receives") || !strings.Contains(out, "step one") || strings.Contains(out, "live:") {
		t.Errorf("stdout is not the plain result:\n%s", out)
	}
}

// setColumns makes the terminal cols columns wide (24 rows), as a resized
// terminal window does.
func setColumns(t *testing.T, control *os.File, cols int) {
	t.Helper()
	ws := struct{ rows, cols, x, y uint16 }{24, uint16(cols), 0, 0}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		t.Fatalf("sizing the pseudo-terminal: %v", errno)
	}
}

// screen is what a terminal of a fixed width shows, as far as the live line
// needs: printable runes (one column each) that wrap at the last column,
// carriage return, line feed and erase-line; colours and other control
// sequences change nothing shown.
type screen struct {
	cols     int
	rows     [][]rune
	row, col int
	wrap     bool // the last column was written: the next rune goes below
}

func newScreen(cols int) *screen { return &screen{cols: cols, rows: [][]rune{nil}} }

func (s *screen) feed(text string) {
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\r':
			s.col, s.wrap = 0, false
		case r == '\n':
			s.down()
		case r == 0x1b && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
				j++
			}
			if j < len(rs) && rs[j] == 'K' && string(rs[i+2:j]) == "2" {
				s.rows[s.row] = nil
			}
			i = j
		default:
			if s.wrap {
				s.down()
			}
			line := s.rows[s.row]
			for len(line) <= s.col {
				line = append(line, ' ')
			}
			line[s.col] = r
			s.rows[s.row] = line
			if s.col == s.cols-1 {
				s.wrap = true
			} else {
				s.col++
			}
		}
	}
}

func (s *screen) down() {
	s.row, s.col, s.wrap = s.row+1, 0, false
	if s.row == len(s.rows) {
		s.rows = append(s.rows, nil)
	}
}

// rowsWith counts the rows showing sub.
func (s *screen) rowsWith(sub string) int {
	n := 0
	for _, r := range s.rows {
		if strings.Contains(string(r), sub) {
			n++
		}
	}
	return n
}

// statusDraws are the live line's drawings in what a terminal was sent:
// each begins with the erase and holds no line break.
func statusDraws(shown string) []string {
	var draws []string
	for _, part := range strings.Split(shown, "\r\x1b[2K") {
		if strings.HasPrefix(part, "⋯ ") && !strings.ContainsAny(part, "\r\n") {
			draws = append(draws, part)
		}
	}
	return draws
}

// The live line fits the terminal it is drawn on, 80 columns here, although
// the summary of four calls and a server's progress are longer: it is cut, the clock still shows, and
// the terminal keeps one status row and no stale copies of it. Resized to
// 50 columns, the terminal gets the line cut to the new width at once (the
// clock's redraws do not ask the width again).
func TestLiveLineFitsTheTerminalAndFollowsItsResize(t *testing.T) {
	control, term := openPTY(t)
	defer control.Close()
	setColumns(t, control, 80)
	mark := newRunMark(t)
	script := writeFile(t, "s.js", `await tools.mcp__srv__fetch({ id: 1 });
await tools.mcp__weather__forecast({ city: "Paris" });
console.log("step one");
await tools.mcp__text__echo({ text: "hi" });
await tools.mcp__text__sleep({ ms: 600000 });
return "never";`)
	// The budget ends the script if the redraw never comes.
	cmd := exec.Command(demoBin, "exec", "--timeout", "10s", "--script", script)
	cmd.Env = append(os.Environ(), mark, "NO_COLOR=1")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, term
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()

	var shown strings.Builder
	buf := make([]byte, 4096)
	resized, interrupted := -1, false
	for {
		n, err := control.Read(buf)
		shown.Write(buf[:n])
		draws := statusDraws(shown.String())
		if resized < 0 && len(draws) > 0 && strings.Contains(draws[len(draws)-1], "4 tool calls") {
			setColumns(t, control, 50)
			if err := cmd.Process.Signal(syscall.SIGWINCH); err != nil {
				t.Fatal(err)
			}
			resized = len(draws)
		}
		if resized >= 0 && !interrupted && len(draws) > resized && len([]rune(draws[len(draws)-1])) < 50 {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			interrupted = true
		}
		if err != nil {
			break // EIO once the demo has exited
		}
	}
	_ = cmd.Wait() // interrupted: exit status 130
	checkNoSurvivors(t, mark)
	if !interrupted {
		t.Errorf("the live line was never redrawn at 50 columns:\n%q", statusDraws(shown.String())[max(0, resized-2):])
		resized = max(resized, 0)
	}
	draws := statusDraws(shown.String())
	for i, d := range draws[:resized] {
		if w := len([]rune(d)); w >= 80 {
			t.Errorf("draw %d is %d columns on an 80-column terminal: %q", i, w, d)
		}
	}
	cut := false
	for _, d := range draws {
		cut = cut || strings.Contains(d, "…")
		if !regexp.MustCompile(` · \d+\.\ds$`).MatchString(d) {
			t.Errorf("draw without its clock: %q", d)
		}
	}
	if !cut {
		t.Errorf("no draw was cut to fit: %q", draws)
	}
	scr := newScreen(80)
	scr.feed(shown.String())
	if n := scr.rowsWith("⋯"); n != 0 {
		t.Errorf("%d rows still show a status line after the run:\n%s", n, scr)
	}
	if n := scr.rowsWith("│ step one"); n != 1 {
		t.Errorf("the console line shows %d times:\n%s", n, scr)
	}
}

func (s *screen) String() string {
	var b strings.Builder
	for _, r := range s.rows {
		b.WriteString(string(r) + "\n")
	}
	return b.String()
}
