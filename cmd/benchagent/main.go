// Command benchagent runs the agent benchmark: each task done flat and in
// code mode through `mcpexec serve`, printed as a Markdown table. `make
// bench-agent` builds mcpexec and runs it; see BENCHMARKS.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/mcpexec/mcpexec/bench/agent"
)

func main() {
	mcpexecBin := flag.String("mcpexec", "", "the built mcpexec binary to serve through (required)")
	tools := flag.String("tools", ".tools", "the directory `make deps` installed the npm packages into")
	only := flag.String("tasks", "", "comma-separated task names to run (default: all)")
	flag.Parse()
	if *mcpexecBin == "" {
		fmt.Fprintln(os.Stderr, "benchagent: --mcpexec is required (the built mcpexec binary)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, agent.Setup{MCPExec: *mcpexecBin, Tools: *tools}, *only); err != nil {
		fmt.Fprintln(os.Stderr, "benchagent:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, setup agent.Setup, only string) error {
	tasks, err := selected(only)
	if err != nil {
		return err
	}
	bench, err := agent.Start(ctx, setup)
	if err != nil {
		return err
	}
	defer bench.Close()
	var runs []agent.Run
	failed := 0
	for _, task := range tasks {
		for _, mode := range []agent.Mode{agent.Flat, agent.Code} {
			r, err := bench.Run(ctx, task, mode)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%-14s %-4s turns %2d, %6d tokens, %5d ms\n", r.Task, r.Mode, r.Turns, r.Tokens.Summed, r.Wall.Milliseconds())
			if !r.OK() {
				failed++
				fmt.Fprintf(os.Stderr, "  not right: %s\n", r.Problem)
			}
			runs = append(runs, r)
		}
	}
	fmt.Printf("Context tokens counted with %s; times are the tool calls' wall time.\n\n", agent.Tokenizer)
	agent.WriteTable(os.Stdout, runs)
	fmt.Println()
	agent.WriteDeclarations(os.Stdout, runs)
	if failed > 0 {
		return fmt.Errorf("%d runs did not reach the right final state", failed)
	}
	return nil
}

func selected(only string) ([]agent.Task, error) {
	all := agent.Tasks()
	if only == "" {
		return all, nil
	}
	var tasks []agent.Task
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, t := range all {
			if t.Name == name {
				tasks, found = append(tasks, t), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no task %q", name)
		}
	}
	return tasks, nil
}
