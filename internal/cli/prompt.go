package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpexec/mcpexec/permissions"
)

// linePrompter asks the person on a line-oriented terminal (or any reader):
// it prints the question and reads one answer line.
//
//	y, yes           allow this call once
//	a, always        allow, and do not ask again for this tool
//	n, no [reason]   reject; the reason (optional) is passed on to the model
//
// Anything else asks again. End of input rejects. The same prompter puts
// servers' questions to the person (Elicit); one question is on the
// terminal at a time.
type linePrompter struct {
	out   io.Writer
	style style

	once  sync.Once
	in    io.Reader
	lines chan string // answer lines; closed at end of input

	turn chan struct{} // held by the question on the terminal
}

func newLinePrompter(in io.Reader, out io.Writer, st style) *linePrompter {
	return &linePrompter{in: in, out: out, style: st, turn: make(chan struct{}, 1)}
}

// take waits for the terminal to be free and returns the function that
// frees it again.
func (p *linePrompter) take(ctx context.Context) (release func(), err error) {
	p.once.Do(p.readLines)
	select {
	case p.turn <- struct{}{}:
		return func() { <-p.turn }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// errNoAnswer is end of input before an answer.
var errNoAnswer = errors.New("the person gave no answer")

// ask prints prompt and reads one answer line.
func (p *linePrompter) ask(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	select {
	case <-ctx.Done():
		fmt.Fprintln(p.out)
		return "", ctx.Err()
	case line, ok := <-p.lines:
		if !ok {
			fmt.Fprintln(p.out)
			return "", errNoAnswer
		}
		return line, nil
	}
}

// readLines feeds p.lines from the input. It is started on the first
// question only, so a prompter that is never asked never reads. The reader
// goroutine ends at end of input.
func (p *linePrompter) readLines() {
	p.lines = make(chan string)
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(p.in)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
}

// Ask implements permissions.Prompter.
func (p *linePrompter) Ask(ctx context.Context, q permissions.Question) (permissions.Answer, error) {
	release, err := p.take(ctx)
	if err != nil {
		return permissions.Answer{}, err
	}
	defer release()
	fmt.Fprintf(p.out, "%s %s%s %s\n", p.style.note("?"), p.style.bold("Allow "+q.Tool), hintsNote(q), p.style.dim(previewArgs(q.Args)))
	if q.AskRule != "" {
		fmt.Fprintf(p.out, "  %s\n", p.style.dim(fmt.Sprintf("the ask rule %q asks again next time, even after \"always\"", q.AskRule)))
	}
	for {
		line, err := p.ask(ctx, "  [y] yes once, [a] always, [n] no (optionally followed by a reason): ")
		switch {
		case ctx.Err() != nil:
			return permissions.Answer{}, ctx.Err()
		case err != nil:
			return permissions.Answer{Kind: permissions.Reject, Reason: err.Error()}, nil
		}
		if a, ok := parseAnswer(line); ok {
			fmt.Fprintf(p.out, "  %s\n", p.style.dim("→ "+a.Kind.String()))
			return a, nil
		}
	}
}

// parseAnswer reads one answer line.
func parseAnswer(line string) (permissions.Answer, bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	rest = strings.TrimSpace(strings.TrimLeft(rest, ":,"))
	switch strings.ToLower(strings.TrimRight(word, ":,")) {
	case "y", "yes":
		return permissions.Answer{Kind: permissions.AllowOnce}, true
	case "a", "always":
		return permissions.Answer{Kind: permissions.AllowAlways}, true
	case "n", "no":
		return permissions.Answer{Kind: permissions.Reject, Reason: rest}, true
	}
	return permissions.Answer{}, false
}

// fixedPrompter gives the same answer to every question, saying so on out
// when out is not nil.
type fixedPrompter struct {
	answer permissions.Answer
	out    io.Writer
	why    string
	style  style
}

func (p fixedPrompter) Ask(_ context.Context, q permissions.Question) (permissions.Answer, error) {
	if p.out != nil {
		fmt.Fprintf(p.out, "%s %s%s %s\n  %s\n", p.style.note("?"), p.style.bold("Allow "+q.Tool), hintsNote(q),
			p.style.dim(previewArgs(q.Args)), p.style.dim("→ "+p.answer.Kind.String()+" ("+p.why+")"))
	}
	return p.answer, nil
}

// hintsNote is what the tool's server says about it, for the person
// approving the call: " (destructive)", or "".
func hintsNote(q permissions.Question) string {
	if h := permissions.DescribeHints(q.Hints); h != "" {
		return " (" + h + ")"
	}
	return ""
}

// askAllowHint is how a refused call can be let through from the command
// line; the refusal the model receives ends with it.
const askAllowHint = "pass --ask allow"

// refusingPrompter refuses every call no rule settles, as no one is there
// to ask (--ask deny, or no terminal to ask on). The model is told how the
// user can allow the call (an allow rule, or askAllowHint); the person is
// told the same on out, with why no one was asked.
type refusingPrompter struct {
	out      io.Writer
	style    style
	why      string // why no one is asked: "--ask deny", ...
	settings string // the settings file, "" when none was given
}

func (p refusingPrompter) Ask(_ context.Context, q permissions.Question) (permissions.Answer, error) {
	where := "the settings file"
	if p.settings != "" {
		where = p.settings
	}
	fmt.Fprintf(p.out, "%s %s\n  %s\n", p.style.bad("✗"), p.style.bold(q.Tool+" refused: no rule allows it and no one is asked ("+p.why+")"),
		p.style.dim(fmt.Sprintf("to allow it, %s, or add %q to permissions.allow in %s", askAllowHint, q.Tool, where)))
	return permissions.Answer{Kind: permissions.Reject, Unattended: true, Reason: askAllowHint}, nil
}

// maxPreview bounds the argument preview shown in a question.
const maxPreview = 200

// previewArgs shows a call's arguments on one line, shortened.
func previewArgs(args []byte) string {
	s := strings.Join(strings.Fields(string(args)), " ")
	if s == "" {
		return "{}"
	}
	if r := []rune(s); len(r) > maxPreview {
		return string(r[:maxPreview]) + "…"
	}
	return s
}

// askMode is the --ask flag.
type askMode string

const (
	askAllow  askMode = "allow"
	askDeny   askMode = "deny"
	askPrompt askMode = "prompt"
)

var errAskMode = errors.New(`--ask must be allow, deny or prompt`)

func parseAskMode(s string) (askMode, error) {
	switch m := askMode(s); m {
	case askAllow, askDeny, askPrompt:
		return m, nil
	}
	return "", errAskMode
}
