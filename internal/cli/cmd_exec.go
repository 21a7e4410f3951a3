package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/exectool"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/state"
)

// maxScriptBytes bounds a script read from a file or standard input.
const maxScriptBytes = 8 << 20

// cmdExec runs `demo exec`: one script against the pool, printed for a
// person, or as one JSON line with --json.
func cmdExec(ctx context.Context, args []string, c console) error {
	f, err := parseExecFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	code, err := readScript(f.script, c.stdin)
	if err != nil {
		return err
	}
	// On a terminal, the person watches the run on stderr: the running
	// summary and the clock in place, console output as it happens.
	// Everything else this command writes there (log lines, questions)
	// goes through the live line, which keeps its row clear of them.
	var live *liveLine
	if c.stderrTerminal {
		live = newLiveLine(c.stderr, c.err, c.stderrColumns)
		c.stderr = live
	}
	prompter := execPrompter(f, c)
	opts := mcpexec.Options{Prompter: prompter, Elicitor: execElicitor(f, c, prompter)}
	if live != nil {
		opts.Prompter = pausingPrompter{Prompter: opts.Prompter, live: live}
		opts.Elicitor = pausingElicitor{Elicitor: opts.Elicitor, live: live}
	}
	f.limitFlags.options(&opts)
	tel, err := startTelemetry(ctx, c.prog, f.telemetryFlags, false, &opts, c.stderr)
	if err != nil {
		return err
	}
	defer tel.shutdown() // after the System closed: its last spans are out
	s, err := startSession(ctx, sessionConfig{pool: f.poolFlags, defaultSettings: true, options: opts, startWait: f.timeout}, c.stderr, c.err)
	if err != nil {
		return err
	}
	defer s.close()

	execArgs, err := json.Marshal(map[string]string{"code": code})
	if err != nil {
		return err
	}
	if f.state != "" {
		st, err := state.OpenDir(f.state, f.limitFlags.stateLimits())
		if err != nil {
			return err
		}
		ctx = mcpexec.WithState(ctx, st)
	}
	var res mcpexec.ExecResult
	switch {
	case live != nil:
		live.begin()
		watched := mcpexec.WithServerProgress(mcpexec.WithConsole(ctx, live.console), live.serverProgress)
		res = s.Exec(watched, execArgs, live.progress)
		live.end()
	default:
		// No one watches a pipe or a file as it grows: the summary comes
		// once, with the result.
		res = s.Exec(ctx, execArgs, nil)
	}
	tel.flush()
	if f.jsonOut {
		if err := writeExecJSON(c.stdout, res); err != nil {
			return err
		}
	} else {
		writeExecResult(c.stdout, c.out, res, f.state)
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case !res.OK:
		return s.finish(ctx, errFailed{})
	}
	return s.finish(ctx, nil)
}

// readScript reads the script from a file, or from r for "-".
func readScript(name string, r io.Reader) (string, error) {
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	} else {
		name = "standard input"
	}
	data, err := io.ReadAll(io.LimitReader(r, maxScriptBytes+1))
	if err != nil {
		return "", fmt.Errorf("reading the script from %s: %w", name, err)
	}
	if len(data) > maxScriptBytes {
		return "", fmt.Errorf("the script in %s is larger than %d MiB", name, maxScriptBytes>>20)
	}
	return string(data), nil
}

// askFor is how questions are answered: as --ask says, or without it by
// the person when they can answer on the terminal, and by no one
// otherwise. why says why no one is asked.
func askFor(f execFlags, c console) (mode askMode, why string) {
	switch {
	case f.ask == askDeny:
		return askDeny, "--ask deny"
	case f.ask != "":
		return f.ask, ""
	case !c.stdinTerminal:
		return askDeny, "standard input is not a terminal"
	case f.script == "-":
		return askDeny, "standard input holds the script"
	}
	return askPrompt, ""
}

// execPrompter answers permission questions as askFor decides. A refusal
// tells the model, and the person on stderr, how to allow the call.
func execPrompter(f execFlags, c console) permissions.Prompter {
	switch mode, why := askFor(f, c); mode {
	case askAllow:
		return fixedPrompter{answer: permissions.Answer{Kind: permissions.AllowOnce}}
	case askPrompt:
		return newLinePrompter(c.stdin, c.stderr, c.err)
	default:
		return refusingPrompter{out: c.stderr, style: c.err, why: why, settings: f.settings}
	}
}

// execJSON is the --json output: one object on one line. The images the
// model receives are in imageData, their data in base64; images counts them.
type execJSON struct {
	OK        bool        `json:"ok"`
	Text      string      `json:"text"`
	Images    int         `json:"images"`
	ImageData []execImage `json:"imageData"`
	Summary   string      `json:"summary"`
	Calls     []string    `json:"calls"`
	// Audit is the call audit: each nested call's tool, outcome,
	// durationMs and bytes; what the script stored; the result kept.
	Audit exectool.Audit `json:"audit"`
	// Stored is the whole return value when the text shows only its
	// first part.
	Stored *storedJSON `json:"stored,omitempty"`
}

// storedJSON is a whole return value in the --json output.
type storedJSON struct {
	// URI and ID name it in the --state directory; empty without one.
	URI      string          `json:"uri,omitempty"`
	ID       string          `json:"id,omitempty"`
	Chars    int64           `json:"chars"`
	MIMEType string          `json:"mimeType"`
	Shape    string          `json:"shape,omitempty"`
	Value    json.RawMessage `json:"value"`
}

type execImage struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"` // base64 in JSON
}

func writeExecJSON(w io.Writer, res mcpexec.ExecResult) error {
	out := execJSON{OK: res.OK, Text: res.Text, Images: len(res.Images), ImageData: []execImage{}, Summary: res.Summary, Calls: res.Calls, Audit: res.Audit}
	if out.Audit.Calls == nil {
		out.Audit.Calls = []exectool.CallRecord{}
	}
	for _, img := range res.Images {
		out.ImageData = append(out.ImageData, execImage{MIMEType: img.MIMEType, Data: img.Data})
	}
	if out.Calls == nil {
		out.Calls = []string{}
	}
	if st := res.Stored; st != nil {
		out.Stored = &storedJSON{URI: st.URI, ID: st.ID, Chars: st.Chars, MIMEType: st.MIMEType, Shape: st.Shape, Value: st.Value}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// writeExecResult prints a result for a person: the tool block a host would
// show (the collapsed line, the tool name alone, marked with the outcome,
// then the result summary), exactly the text the model receives, and where
// the whole return value is when the text shows only its first part.
func writeExecResult(w io.Writer, st style, res mcpexec.ExecResult, stateDir string) {
	mark := st.good("✓")
	if !res.OK {
		mark = st.bad("✗")
	}
	fmt.Fprintln(w, mark+" "+st.bold(exectool.CollapsedLine()))
	fmt.Fprintln(w, indent(res.Summary, "  "))
	fmt.Fprintln(w, st.bold("What the model receives"))
	fmt.Fprintln(w, barred(st, res.Text))
	if n := len(res.Images); n > 0 {
		fmt.Fprintln(w, st.bold("Images attached"))
		for _, img := range res.Images {
			fmt.Fprintf(w, "  %s, %d bytes\n", img.MIMEType, len(img.Data))
		}
	}
	if stored := res.Stored; stored != nil {
		fmt.Fprintln(w, st.bold("Whole return value"))
		size := state.FormatBytes(stored.Size)
		if stored.URI != "" {
			fmt.Fprintf(w, "  %s, %s (%s), kept in %s: load(%q) in a script run with --state %s\n",
				stored.URI, size, stored.MIMEType, stateDir, stored.ID, stateDir)
		} else {
			fmt.Fprintf(w, "  %s (%s), not kept: --json prints it whole, --state DIR keeps it for the next script\n", size, stored.MIMEType)
		}
	}
}
