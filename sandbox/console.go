package sandbox

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// consoleLog collects console output up to a character cap and counts what it
// drops, so a flood of logging cannot flood the model's context (BUDGET-5)
// and the note it leaves says how much there was. It is read by Run's caller
// goroutine when a run is abandoned, hence the lock.
type consoleLog struct {
	mu       sync.Mutex
	keep     int
	buf      strings.Builder
	kept     int // characters in buf
	total    int // characters written in all
	overflow bool
}

// append adds a line and returns the part of it that was kept.
func (c *consoleLog) append(line string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := utf8.RuneCountInString(line)
	c.total += n
	if c.overflow {
		return ""
	}
	if room := c.keep - c.kept; n > room {
		line = truncateRunes(line, room)
		n = room
		c.overflow = true
	}
	c.buf.WriteString(line)
	c.kept += n
	return line
}

// text returns the kept output without its final newline, and whether some
// was dropped together with the total count.
func (c *consoleLog) text() (out string, truncated bool, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.TrimSuffix(c.buf.String(), "\n"), c.overflow, c.total
}

// section is the console output as the model sees it: the kept text and, if
// some was dropped, a note with the total.
func (c *consoleLog) section() string {
	logs, truncated, total := c.text()
	if truncated {
		return logs + "\n" + msgLogTruncated(total)
	}
	return logs
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// installConsole defines console.log, info, warn, error and debug, which
// hand their arguments to the realm's log. It runs with the realm's
// lockdown, ahead of the run (a worker prepares the next run's realm while
// it waits).
func (r *realm) installConsole() {
	console := r.vm.NewObject()
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		_ = console.Set(name, r.newFunction(name, func(call goja.FunctionCall) goja.Value {
			if r.log != nil {
				r.log(call.Arguments)
			}
			return goja.Undefined()
		}))
	}
	_ = r.vm.Set("console", console)
}

// logLine writes one console line: the arguments formatted and separated
// by spaces.
func (x *execution) logLine(args []goja.Value) {
	if kept := x.console.append(x.formatLine(args)); kept != "" && x.req.OnLog != nil {
		x.req.OnLog(kept)
	}
}

func (x *execution) formatLine(args []goja.Value) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.formatArg(a))
	}
	b.WriteByte('\n')
	return b.String()
}

// formatArg renders one console argument: strings as they are, everything
// else as the JSON the model would get for it, without running script code
// beyond getters.
func (x *execution) formatArg(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if _, isFunction := goja.AssertFunction(v); isFunction {
		return "[Function]"
	}
	if obj, isObject := v.(*goja.Object); isObject {
		if _, rejected := x.rejections[obj]; rejected {
			// A nested call's rejection, logged whole, names its tool.
			return x.describeError(obj)
		}
	}
	if _, isObject := v.(*goja.Object); !isObject {
		if s, isString := v.Export().(string); isString {
			return s
		}
		if _, isSymbol := v.(*goja.Symbol); isSymbol {
			return v.String()
		}
		if bi, ok := v.Export().(interface{ String() string }); ok {
			return bi.String() + "n" // a BigInt
		}
		return v.String()
	}
	// Objects are serialized only as far as the log can still hold them.
	o := x.newOutbound(resultMode, x.limits.MaxLogChars*utf8.UTFMax)
	if _, err := o.value(v, 0); err != nil {
		// A stop signal here means the deadline interrupt is already set;
		// the next bytecode ends the run.
		return "[" + err.Error() + "]"
	}
	return string(o.buf)
}
