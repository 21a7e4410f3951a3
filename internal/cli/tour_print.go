package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
)

// How the tour lays out its output.

// ruleWidth is the width of a step heading's rule.
const ruleWidth = 76

func (t *tour) printf(format string, a ...any) { fmt.Fprintf(t.c.stdout, format, a...) }

func (t *tour) intro() {
	t.printf("%s\n", t.st.heading("mcpexec: a whole MCP tool pool folded into one Exec tool"))
	t.printf("%s\n", t.st.dim("Every step below is live: the built-in MCP servers (srv, text, weather) run as\n"+
		"stdio subprocesses of this binary, and scripts run in sandboxed worker processes."))
}

func (t *tour) heading(n int, step tourStep) {
	title := fmt.Sprintf("━━ Step %d/%d · %s ", n, len(tourSteps), step.title)
	if pad := ruleWidth - utf8.RuneCountInString(title); pad > 0 {
		title += strings.Repeat("━", pad)
	}
	t.printf("\n%s\n%s\n\n", t.st.heading(title), wrapParagraph(step.lead, ruleWidth))
}

func (t *tour) outro() {
	t.printf("\n%s\n", t.st.good("✓ Tour complete. Every server and worker process has been stopped."))
	demo := invocation(t.c.prog.name)
	t.printf("%s\n", t.st.dim(fmt.Sprintf("Next: %[1]s exec --script FILE · %[1]s catalog --budget 150 · %[1]s tools · %[1]s help", demo)))
}

// invocation is the command line that runs this program again: the path it
// was started by, or "go run ./cmd/NAME" when go run started it, whose
// binary is gone once it exits.
func invocation(name string) string {
	exe, err := os.Executable()
	if err == nil && strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "go run ./cmd/" + name
	}
	return os.Args[0]
}

// note prints a line of narration.
func (t *tour) note(format string, a ...any) {
	t.printf("%s\n", t.st.dim(fmt.Sprintf(format, a...)))
}

// label prints the name of the block that follows.
func (t *tour) label(text string) { t.printf("%s\n", t.st.bold(text)) }

// modelText prints text exactly as the model reads it, behind a bar.
func (t *tour) modelText(label, text string) {
	t.label(label)
	t.printf("%s\n", barred(t.st, text))
}

// barred puts a dim bar before every line of text, empty lines included, so
// blank lines inside model-visible text stay visible.
func barred(st style, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = st.dim("  │") + " " + l
	}
	return strings.Join(lines, "\n")
}

// script prints a script as the model would send it.
func (t *tour) script(code string) {
	t.label("Script")
	t.printf("%s\n", t.st.note(indent(code, "    ")))
}

// exec runs a script on s and prints it, its live summary and its result.
func (t *tour) exec(ctx context.Context, s *mcpexec.System, code string) (mcpexec.ExecResult, error) {
	t.script(code)
	args, err := json.Marshal(map[string]string{"code": code})
	if err != nil {
		return mcpexec.ExecResult{}, err
	}
	live := &liveSummary{w: t.c.stdout, st: t.st}
	res := s.Exec(ctx, args, live.update)
	live.stop()
	writeExecResult(t.c.stdout, t.st, res, "")
	return res, ctx.Err()
}

// expect fails the step when a result is not what the step shows.
func expect(res mcpexec.ExecResult, ok bool, contains string) error {
	if res.OK != ok || !strings.Contains(res.Text, contains) {
		return fmt.Errorf("%w: ok=%v, text %q", errUnexpected, res.OK, res.Text)
	}
	return nil
}

// trimmedDeclaration is a declaration cut down for the screen: the first
// line of the description, and the schema's property names.
type trimmedDeclaration struct {
	Name            string `json:"name"`
	Description     string `json:"description"`
	InputSchema     string `json:"input_schema"`
	ConcurrencySafe bool   `json:"concurrency_safe"`
}

// maxDescription bounds a trimmed description, in runes.
const maxDescription = 64

func trimDeclaration(d mcpexec.Declaration) trimmedDeclaration {
	desc, _, _ := strings.Cut(d.Description, "\n")
	if r := []rune(desc); len(r) > maxDescription {
		desc = string(r[:maxDescription]) + "…"
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(d.InputSchema, &schema)
	props := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		props = append(props, name)
	}
	slices.Sort(props)
	return trimmedDeclaration{
		Name: d.Name, Description: desc, ConcurrencySafe: d.ConcurrencySafe,
		InputSchema: "{ " + strings.Join(props, ", ") + " }",
	}
}

// declarationsJSON renders declarations trimmed, one per line.
func declarationsJSON(decls []mcpexec.Declaration) string {
	var b strings.Builder
	b.WriteString("[\n")
	for i, d := range decls {
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(trimDeclaration(d))
		b.WriteString("  " + strings.TrimSuffix(line.String(), "\n"))
		if i < len(decls)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]")
	return b.String()
}

// namespaceCounts renders "srv: 4 tools · text: 6 tools".
func namespaceCounts(counts map[string]int) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s: %s", name, plural(counts[name], "tool"))
	}
	return strings.Join(parts, " · ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// wrapParagraph breaks text into lines of at most width runes at spaces.
func wrapParagraph(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		l := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}

// wrapWords joins words with ", " into lines of at most width runes (a
// longer word gets a line of its own), each starting with prefix.
func wrapWords(words []string, prefix string, width int) string {
	var lines []string
	line := prefix
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		switch {
		case line == prefix:
			line += w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width:
			lines = append(lines, line)
			line = prefix + w
		default:
			line += " " + w
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// liveSummary prints the result summary each time it changes while a script
// runs, one line each: the tour shows it updating as the calls happen.
type liveSummary struct {
	mu      sync.Mutex
	w       io.Writer
	st      style
	stopped bool
}

func (l *liveSummary) update(summary string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		fmt.Fprintln(l.w, l.st.dim("  live: "+exectool.OneLine(summary)))
	}
}

// stop ignores updates that arrive after the run ended.
func (l *liveSummary) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
}
