package sandbox

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// Models read a catalog of TypeScript signatures and write TypeScript, and
// they write modern JavaScript that goja does not parse (async generators,
// for await). Every script is therefore transformed by esbuild as
// TypeScript before goja compiles it: types are stripped and what goja lacks
// is lowered. Plain JavaScript comes out with the same meaning.
//
// esbuild is a parser of untrusted input running in Go: a deeply nested
// source ends in a fatal stack overflow no recover catches, and a huge one
// takes a lot of memory. The transform therefore runs where the run runs: in
// a worker process, under its memory cap and deadline, after the source
// size has been bounded (maxScriptBytes). A run in this process (unit tests,
// trusted embedders) transforms in this process.

// maxScriptBytes bounds the script handed to the transform. Scripts a model
// writes are a few kilobytes; this is far above any of them and far below
// what makes the transform expensive.
const maxScriptBytes = 1 << 20

// The script is the body of an async function, so it can await at top level
// and return. esbuild refuses a script with both a top-level await and a
// top-level return, so the wrapper is added before the transform. The prefix
// shares the script's first line so that lines keep their numbers; the
// source map attached to every program undoes its shift of the first line's
// columns (positions.go). The program's value is the function, which the
// run calls from Go: no frame of the wrapper's own appears in a stack.
const (
	scriptPrefix = "(async function () {"
	scriptSuffix = "\n})"
	scriptName   = "script.ts"
)

// unsupportedByEngine lists the syntax goja does not run, which esbuild then
// lowers to what it does: async generators and for await become generator
// and promise code.
var unsupportedByEngine = map[string]bool{
	"async-generator": false,
	"for-await":       false,
	"using":           false,
	"decorators":      false,
	// Unsupported, import.meta draws a warning, which is how it is found.
	"import-meta": false,
}

var transformOptions = api.TransformOptions{
	Loader:     api.LoaderTS,
	Target:     api.ESNext,
	Supported:  unsupportedByEngine,
	Sourcefile: scriptName,
	// The map goes to the compiler directly, never as a comment: goja
	// follows a sourceMappingURL comment to a host file.
	Sourcemap: api.SourceMapExternal,
	// No comment of the script survives, sourceMappingURL ones included.
	LegalComments: api.LegalCommentsNone,
	// Keep non-ASCII text as written rather than as \u escapes.
	Charset:  api.CharsetUTF8,
	LogLevel: api.LogLevelSilent,
}

// transformed is a script ready for goja: JavaScript, and the source map
// from it back to the wrapped script.
type transformed struct {
	code      string
	sourceMap []byte
}

var (
	dynamicImport   = regexp.MustCompile(`\bimport\s*\(`)
	importStatement = regexp.MustCompile(`(?m)^\s*import\s*[\w{*'"]`)
	exportStatement = regexp.MustCompile(`(?m)^\s*export\s+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|type\b|interface\b|enum\b|\{|\*)`)
)

// transform turns the script into JavaScript goja runs. Module syntax is
// refused with a plain-language error (the sandbox loads no modules, and
// esbuild would quietly turn import.meta into an empty object); a transform
// error is a SyntaxError pointing at the script as written.
func transform(code string) (transformed, error) {
	if len(code) > maxScriptBytes {
		return transformed{}, plainError(msgScriptTooLong)
	}
	out := api.Transform(scriptPrefix+code+scriptSuffix, transformOptions)
	for _, w := range out.Warnings {
		if strings.Contains(w.Text, "import.meta") {
			return transformed{}, plainError(msgImportMeta)
		}
	}
	if len(out.Errors) > 0 {
		if err := refuseModuleSyntax(code, importStatement, exportStatement); err != nil {
			return transformed{}, err
		}
		if transformFailedInside(out.Errors[0]) {
			return transformed{}, plainError(msgTransformFailed)
		}
		return transformed{}, plainError(transformErrorMessage(code, out.Errors[0]))
	}
	return transformed{code: string(out.Code), sourceMap: out.Map}, nil
}

// refuseModuleSyntax returns the plain-language refusal when code matches one
// of the patterns. The patterns are coarse (they also match inside strings),
// so the static ones are consulted only once a script already failed to
// parse.
func refuseModuleSyntax(code string, patterns ...*regexp.Regexp) error {
	for _, p := range patterns {
		if !p.MatchString(code) {
			continue
		}
		switch p {
		case exportStatement:
			return plainError(msgExportStatement)
		default:
			return plainError(msgImportStatement)
		}
	}
	return nil
}

// transformFailedInside tells an error of esbuild itself from one of the
// script. esbuild recovers its own panics and reports them as an error
// whose text is the panic's; its lowering of an async generator that has
// a parameter named arguments beside a default value panics (esbuild
// v0.28.2). That text means nothing to the script's author.
func transformFailedInside(m api.Message) bool {
	return strings.HasPrefix(m.Text, "panic: ")
}

// transformErrorMessage renders an esbuild error as a SyntaxError with the
// line and column in the script as written. An error in the wrapper's
// closing line means the script ended too early.
func transformErrorMessage(code string, m api.Message) string {
	text := strings.TrimSuffix(m.Text, ".")
	loc := m.Location
	if loc == nil {
		return "SyntaxError: " + text
	}
	lines := strings.Count(code, "\n") + 1
	if loc.Line > lines {
		return "SyntaxError: Unexpected end of script (" + text + ")"
	}
	column := columnOf(loc.LineText, loc.Column)
	if loc.Line == 1 {
		column -= len(scriptPrefix)
	}
	return "SyntaxError: Line " + strconv.Itoa(loc.Line) + ":" + strconv.Itoa(column+1) + " " + text
}

// columnOf converts a byte offset in line to a character offset.
func columnOf(line string, byteOffset int) int {
	if byteOffset > len(line) {
		return byteOffset
	}
	return utf8.RuneCountInString(line[:byteOffset])
}
