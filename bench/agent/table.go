package agent

import (
	"fmt"
	"io"
	"time"
)

// WriteTable prints the runs as a Markdown table: each task's flat run
// beside its code-mode run, and the ratio of their summed context tokens.
func WriteTable(w io.Writer, runs []Run) {
	fmt.Fprintln(w, "| task | flat turns | flat tokens | flat time | flat ok | code turns | code tokens | code time | code ok | code/flat tokens |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---:|---:|---:|---|---:|")
	var flatSum, codeSum int
	for i := 0; i+1 < len(runs); i += 2 {
		f, c := runs[i], runs[i+1]
		flatSum += f.Tokens.Summed
		codeSum += c.Tokens.Summed
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %d | %d | %s | %s | %.2f |\n", f.Task,
			f.Turns, f.Tokens.Summed, millis(f.Wall), okMark(f),
			c.Turns, c.Tokens.Summed, millis(c.Wall), okMark(c),
			float64(c.Tokens.Summed)/float64(f.Tokens.Summed))
	}
	if codeSum > 0 && flatSum > 0 {
		fmt.Fprintf(w, "| **all tasks** | | %d | | | | %d | | | %.2f |\n", flatSum, codeSum, float64(codeSum)/float64(flatSum))
	}
}

// WriteDeclarations prints what each task's model reads before its first
// turn in each mode: the tool declarations, and with the instructions and
// the task.
func WriteDeclarations(w io.Writer, runs []Run) {
	fmt.Fprintln(w, "| task | flat declarations | flat first turn | Exec declaration | code first turn |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for i := 0; i+1 < len(runs); i += 2 {
		f, c := runs[i], runs[i+1]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d |\n", f.Task, f.Tokens.Declarations, f.Tokens.Prefix, c.Tokens.Declarations, c.Tokens.Prefix)
	}
}

func millis(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

func okMark(r Run) string {
	if r.OK() {
		return "yes"
	}
	return "**no**"
}
