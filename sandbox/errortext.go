package sandbox

import (
	"regexp"
	"strconv"
	"unicode"

	"github.com/dop251/goja"
)

// Error text is written for the model that wrote the script: it says where
// in the script as written an error arose and which tool rejected, and it
// never shows the engine's Go internals.

// helpfulMessages replace the engine's message for names a script reaches
// for out of habit, so the model learns why instead of guessing.
var helpfulMessages = map[string]string{
	"ReferenceError: require is not defined": msgRequire,
}

// errorText renders an Error as "Name: message" from its own data, without
// calling its toString.
func errorText(obj *goja.Object) string {
	name, message := primitiveString(obj.Get("name")), primitiveString(obj.Get("message"))
	if name == "" {
		name = "Error"
	}
	if message == "" {
		return name
	}
	text := name + ": " + message
	if helpful, ok := helpfulMessages[text]; ok {
		return "ReferenceError: " + helpful
	}
	return text
}

// stackFrame matches one frame of a goja stack in the script: the file name
// is followed by line, column, and a program counter in parentheses.
var stackFrame = regexp.MustCompile(regexp.QuoteMeta(scriptName) + `:(\d+):(\d+)`)

// inScript reports whether a line (as goja reports it, through the
// program's position map) is one of the script's own: the wrapper's closing
// line is not.
func inScript(code string, line int) bool {
	return line >= 1 && line <= len(splitLines(code))
}

func formatPosition(line, column int) string {
	return "line " + strconv.Itoa(line) + ":" + strconv.Itoa(column)
}

// thrownAt reads where an Error was created from its stack: the innermost
// frame in the script. It reads the stack only if it is a string (a script
// may replace it).
func (x *execution) thrownAt(obj *goja.Object) string {
	stack := primitiveString(obj.Get("stack"))
	for _, m := range stackFrame.FindAllStringSubmatch(stack, 8) {
		line, _ := strconv.Atoi(m[1])
		column, _ := strconv.Atoi(m[2])
		if inScript(x.req.Code, line) {
			return formatPosition(line, column)
		}
	}
	return ""
}

// callSite is where the script made a nested call, captured when the call
// starts (a rejection arrives later, with no script frame of its own) and
// located only if the rejection goes uncaught.
type callSite struct {
	frames [2]goja.StackFrame
	n      int
}

func (x *execution) captureCallSite() callSite {
	var site callSite
	site.n = len(x.realm.vm.CaptureCallStack(len(site.frames), site.frames[:0]))
	return site
}

func (x *execution) locate(site callSite) string {
	for _, f := range site.frames[:site.n] {
		if f.SrcName() != scriptName {
			continue
		}
		if p := f.Position(); inScript(x.req.Code, p.Line) {
			return formatPosition(p.Line, p.Column)
		}
	}
	return ""
}

// rejection is what the run remembers of an Error it made to reject a
// nested call: which tool and from where.
type rejection struct {
	tool string
	site callSite
}

// describeError renders an uncaught Error for the model: its text, then
// which tool rejected it and where it arose in the script.
func (x *execution) describeError(obj *goja.Object) string {
	text := errorText(obj)
	if r, ok := x.rejections[obj]; ok {
		text += " (rejected by " + r.tool
		if at := x.locate(r.site); at != "" {
			text += " called at " + at
		}
		return text + ")"
	}
	if at := x.thrownAt(obj); at != "" {
		text += " (at " + at + ")"
	}
	return text
}

// callForm is how a nested call is named in error text: the expression the
// script wrote to make it.
func callForm(kind, name string) string {
	if kind == callKindSearch {
		return SearchCallName
	}
	if isIdentifier(name) {
		return "tools." + name
	}
	return "tools[" + strconv.Quote(name) + "]"
}

func isIdentifier(name string) bool {
	for i, r := range name {
		switch {
		case r == '_' || r == '$' || unicode.IsLetter(r):
		case i > 0 && unicode.IsDigit(r):
		default:
			return false
		}
	}
	return name != ""
}
