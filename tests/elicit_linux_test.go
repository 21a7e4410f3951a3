package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// everythingServer is a servers-file entry running the real
// server-everything from npm over stdio.
func everythingServer(t *testing.T) map[string]any {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, ".tools/npm/node_modules/.bin/mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `make deps` to install the npm MCP test servers", bin)
	}
	return map[string]any{"command": bin, "args": []string{"stdio"}}
}

// terminal is the far side of a pseudo-terminal a demo reads from and
// writes to: the test reads what is shown and types answers.
type terminal struct {
	control *os.File

	mu    sync.Mutex
	shown bytes.Buffer
	seen  int // how much of shown the test has read past
	grew  chan struct{}
	ended chan struct{}
}

func newTerminal(control *os.File) *terminal {
	term := &terminal{control: control, grew: make(chan struct{}, 1), ended: make(chan struct{})}
	go func() {
		defer close(term.ended)
		buf := make([]byte, 4096)
		for {
			n, err := control.Read(buf)
			term.mu.Lock()
			term.shown.Write(buf[:n])
			term.mu.Unlock()
			select {
			case term.grew <- struct{}{}:
			default:
			}
			if err != nil {
				return // EIO once the demo has exited
			}
		}
	}()
	return term
}

// answer waits until the terminal shows prompt (after what was answered
// before), then types line.
func (term *terminal) answer(t *testing.T, prompt, line string) {
	t.Helper()
	give := time.NewTimer(runLimit)
	defer give.Stop()
	for {
		term.mu.Lock()
		rest := term.shown.String()[term.seen:]
		if i := strings.Index(rest, prompt); i >= 0 {
			term.seen += i + len(prompt)
			term.mu.Unlock()
			if _, err := term.control.Write([]byte(line + "\n")); err != nil {
				t.Fatal(err)
			}
			return
		}
		term.mu.Unlock()
		select {
		case <-term.grew:
		case <-term.ended:
			t.Fatalf("the terminal closed before showing %q:\n%s", prompt, term.String())
		case <-give.C:
			t.Fatalf("the terminal never showed %q:\n%s", prompt, term.String())
		}
	}
}

func (term *terminal) String() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.shown.String()
}

// A server's question reaches the person at the terminal as a form: the
// real server-everything's form, each field in the server's order with its
// description, choices and default; an answer that does not fit is asked
// again with the reason; the fields left empty take their defaults. The
// time the person takes is not the script's: the answer comes after longer
// than the whole budget, and the script still succeeds.
//
// Proves BUDGET-1.
func TestBUDGET1_ServerQuestionIsAFormOnTheTerminal(t *testing.T) {
	const budget = 5 * time.Second
	servers := writeServers(t, map[string]any{"everything": everythingServer(t)})
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__everything"]}}`)
	script := writeFile(t, "s.js", `return await tools["mcp__everything__trigger-elicitation-request"]({});`)

	control, tty := openPTY(t)
	defer control.Close()
	mark := newRunMark(t)
	cmd := exec.Command(demoBin, "exec", "--servers", servers, "--settings", settings, "--timeout", budget.String(), "--script", script)
	cmd.Env = append(os.Environ(), mark, "NO_COLOR=1")
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	term := newTerminal(control)

	term.answer(t, "[a] answer, [n] decline, [c] cancel: ", "a")
	term.answer(t, "String [Your full, legal name; required]: ", "")
	term.answer(t, "required", "")
	time.Sleep(budget + time.Second) // the person takes their time
	term.answer(t, "String [Your full, legal name; required]: ", "Ada Lovelace")
	term.answer(t, "Boolean [Agree to the terms and conditions; y/n]: ", "y")
	term.answer(t, "String with default [Favorite first line of a story; default It was a dark and stormy night.]: ", "")
	term.answer(t, "String with email format [Your email address (will be verified, and never shared with anyone else); an email address]: ", "ada")
	term.answer(t, "not an email address", "ada@example.com")
	term.answer(t, "String with uri format [Portfolio / personal website; a URI]: ", "")
	term.answer(t, "String with date format [Your date of birth; a date, YYYY-MM-DD]: ", "1815-12-10")
	term.answer(t, "Integer [Your favorite integer (do not give us your phone number, pin, or other sensitive info); a whole number from 1 to 100; default 42]: ", "101")
	term.answer(t, "must be at most 100", "7")
	term.answer(t, "default 3.14]: ", "")
	term.answer(t, "one of: Monica, Rachel, Joey, Chandler, Ross, Phoebe; default Monica]: ", "")
	term.answer(t, "comma-separated, from: Guitar, Piano, Violin, Drums, Bass; default Guitar]: ", "Piano, Drums")
	term.answer(t, "one of: hero-1 (Superman), hero-2 (Green Lantern), hero-3 (Wonder Woman); default hero-1]: ", "Wonder Woman")
	term.answer(t, "default fish-1]: ", "")
	term.answer(t, "one of: pet-1 (Cats), pet-2 (Dogs), pet-3 (Birds), pet-4 (Fish), pet-5 (Reptiles); default pet-1]: ", "pet-2")

	err := cmd.Wait()
	<-term.ended
	checkNoSurvivors(t, mark)
	if err != nil {
		t.Fatalf("exec: %v\nstdout: %s\nterminal: %s", err, stdout.String(), term.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"- Name: Ada Lovelace", "- Agreed to terms: true", "- Email: ada@example.com", "- Birthdate: 1815-12-10",
		"- Favorite Integer: 7", "- Favorite Number: 3.14", `"firstLine": "It was a dark and stormy night."`,
		`"untitledMultipleSelectEnum": [`, `"Drums"`, `"titledSingleSelectEnum": "hero-3"`, `"legacyTitledEnum": "pet-2"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the model's text lacks %q:\n%s", want, out)
		}
	}
	if shown := term.String(); !strings.Contains(shown, `? The MCP server "everything" asks (during mcp__everything__trigger-elicitation-request)`) ||
		!strings.Contains(shown, "Please provide inputs for the following fields:") || !strings.Contains(shown, "→ accept") {
		t.Errorf("the terminal does not show the question and its outcome:\n%s", shown)
	}
}

// With no one at a terminal a server's question is declined, and stderr
// says why and what would answer it; --ask allow answers with the form's
// defaults, so it declines a form whose required field has none, saying so.
func TestServerQuestionWithoutATerminal(t *testing.T) {
	servers := writeServers(t, map[string]any{"everything": everythingServer(t)})
	settings := writeFile(t, "settings.json", `{"permissions": {"allow": ["mcp__everything"]}}`)
	script := `return await tools["mcp__everything__trigger-elicitation-request"]({});`

	res, run := execJSON(t, script, "a\n", "--servers", servers, "--settings", settings)
	if !res.OK || !strings.Contains(res.Text, "User declined to provide the requested information") {
		t.Errorf("no terminal: %+v", res)
	}
	if !strings.Contains(run.stderr, "no one is asked (standard input is not a terminal); --ask allow accepts a form with its defaults") {
		t.Errorf("stderr does not say why the question was declined:\n%s", run.stderr)
	}

	res, run = execJSON(t, script, "", "--servers", servers, "--settings", settings, "--ask", "allow")
	if !res.OK || !strings.Contains(res.Text, "User declined to provide the requested information") ||
		!strings.Contains(run.stderr, `--ask allow answers with the defaults, and the required field \"name\" has none`) {
		t.Errorf("--ask allow: %+v, stderr:\n%s", res, run.stderr)
	}
}
