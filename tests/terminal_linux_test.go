package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
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
