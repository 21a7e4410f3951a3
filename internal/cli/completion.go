package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// cmdCompletion prints a shell's completion script for the program: its
// commands, and each command's flags, with a file name where a flag takes a
// value.
func cmdCompletion(ctx context.Context, args []string, c console) error {
	fs := newFlagSet(c.prog, "completion", "bash|zsh|fish", c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s completion bash|zsh|fish\n\n"+
			"Prints the completion script for the shell. To load it:\n"+
			"  bash: source <(%[1]s completion bash)      (in ~/.bashrc)\n"+
			"  zsh:  source <(%[1]s completion zsh)       (in ~/.zshrc, after compinit)\n"+
			"  fish: %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish\n", c.prog.name)
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 {
		return usageError(fs, "give one shell: bash, zsh or fish")
	}
	cmds := completionCommands(ctx, c)
	switch pos[0] {
	case "bash":
		writeBashCompletion(c.stdout, c.prog.name, cmds)
	case "zsh":
		writeZshCompletion(c.stdout, c.prog.name, cmds)
	case "fish":
		writeFishCompletion(c.stdout, c.prog.name, cmds)
	default:
		return usageError(fs, "unknown shell %q: give bash, zsh or fish", pos[0])
	}
	return nil
}

// completedCommand is a command as a shell completes it.
type completedCommand struct {
	name    string
	summary string
	flags   []completedFlag
	// args are the words the command takes besides flags.
	args []string
}

type completedFlag struct {
	name    string
	takes   string // the value's name (FILE, ADDR); "" for a switch
	summary string
}

// completionCommands lists the program's commands, sorted, each with its
// flags as its own help prints them: the flag sets stay the one source.
func completionCommands(ctx context.Context, c console) []completedCommand {
	var out []completedCommand
	for name, command := range c.prog.commands {
		var help bytes.Buffer
		hc := c
		hc.stdout, hc.stderr = io.Discard, &help
		_ = command(ctx, []string{"-h"}, hc)
		cmd := completedCommand{name: name, summary: c.prog.summaries[name], flags: parseFlagHelp(help.String())}
		if name == "completion" {
			cmd.args = []string{"bash", "zsh", "fish"}
		}
		out = append(out, cmd)
	}
	var names []string
	for name := range c.prog.commands {
		names = append(names, name)
	}
	slices.Sort(names)
	out = append(out, completedCommand{name: "help", summary: "print the usage of the program or of a command", args: append(names, "help")})
	slices.SortFunc(out, func(a, b completedCommand) int { return strings.Compare(a.name, b.name) })
	return out
}

// flagLine is a flag's first line in the flag package's help: "  -name" and
// the value's name, if it takes one.
var flagLine = regexp.MustCompile(`^  -(\S+)(?: (\S+))?$`)

func parseFlagHelp(help string) []completedFlag {
	var flags []completedFlag
	lines := strings.Split(help, "\n")
	for i, line := range lines {
		m := flagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := completedFlag{name: m[1], takes: m[2]}
		if i+1 < len(lines) {
			f.summary = cutToColumns(strings.TrimSpace(lines[i+1]), 70)
		}
		flags = append(flags, f)
	}
	return flags
}

func writeBashCompletion(w io.Writer, prog string, cmds []completedCommand) {
	fn := "_" + shellName(prog)
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, "# bash completion for %s\n%s() {\n", prog, fn)
	fmt.Fprintf(w, "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n")
	fmt.Fprintf(w, "  if [[ $COMP_CWORD -eq 1 ]]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " "))
	fmt.Fprintf(w, "  local flags= valued= words=\n  case ${COMP_WORDS[1]} in\n")
	for _, c := range cmds {
		var all, valued []string
		for _, f := range c.flags {
			all = append(all, "--"+f.name)
			if f.takes != "" {
				valued = append(valued, "--"+f.name)
			}
		}
		fmt.Fprintf(w, "    %s) flags=%q valued=%q words=%q ;;\n", c.name, strings.Join(all, " "), " "+strings.Join(valued, " ")+" ", strings.Join(c.args, " "))
	}
	fmt.Fprintf(w, "  esac\n")
	fmt.Fprintf(w, "  if [[ $valued == *\" $prev \"* ]]; then\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  elif [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n")
	fmt.Fprintf(w, "  elif [[ -n $words ]]; then\n    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	fmt.Fprintf(w, "complete -o filenames -F %s %s\n", fn, prog)
}

func writeZshCompletion(w io.Writer, prog string, cmds []completedCommand) {
	fn := "_" + shellName(prog)
	fmt.Fprintf(w, "#compdef %s\n# zsh completion for %s\n%s() {\n  local -a commands\n  commands=(\n", prog, prog, fn)
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s\n", zshQuote(c.name+":"+c.summary))
	}
	fmt.Fprintf(w, "  )\n  if (( CURRENT == 2 )); then\n    _describe command commands\n    return\n  fi\n  case $words[2] in\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n      _arguments", c.name)
		for _, f := range c.flags {
			spec := "--" + f.name + "[" + zshBracket(f.summary) + "]"
			if f.takes != "" {
				spec += ":" + f.takes + ":_files"
			}
			fmt.Fprintf(w, " \\\n        %s", zshQuote(spec))
		}
		if len(c.args) > 0 {
			fmt.Fprintf(w, " \\\n        %s", zshQuote("*:argument:("+strings.Join(c.args, " ")+")"))
		} else {
			fmt.Fprintf(w, " \\\n        %s", zshQuote("*:file:_files"))
		}
		fmt.Fprintf(w, " ;;\n")
	}
	fmt.Fprintf(w, "  esac\n}\ncompdef %s %s\n", fn, prog)
}

func writeFishCompletion(w io.Writer, prog string, cmds []completedCommand) {
	fmt.Fprintf(w, "# fish completion for %s\ncomplete -c %s -f\n", prog, prog)
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c %s -n __fish_use_subcommand -a %s -d %s\n", prog, c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := fishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			value := ""
			if f.takes != "" {
				value = " -r -F"
			}
			fmt.Fprintf(w, "complete -c %s -n %s -l %s%s -d %s\n", prog, cond, f.name, value, fishQuote(f.summary))
		}
		if len(c.args) > 0 {
			fmt.Fprintf(w, "complete -c %s -n %s -a %s\n", prog, cond, fishQuote(strings.Join(c.args, " ")))
		}
	}
}

// shellName makes prog a shell function name.
func shellName(prog string) string { return strings.ReplaceAll(prog, "-", "_") }

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// zshBracket escapes what _arguments reads inside a description's brackets.
func zshBracket(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
