package sandbox

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// The script is the body of an async function, so it can await and return.
// The prefix shares the script's first line so that line numbers in errors
// match what the model wrote.
const (
	scriptPrefix = "(async function () {"
	scriptSuffix = "\n})()"
	scriptName   = "script.js"
)

var (
	dynamicImport   = regexp.MustCompile(`\bimport\s*\(`)
	importStatement = regexp.MustCompile(`(?m)^\s*import\s*[\w{*'"]`)
	lineColumn      = regexp.MustCompile(`Line 1:(\d+)`)
)

// compile parses and compiles a script. Source maps are disabled: a trailing
// sourceMappingURL comment would otherwise make the parser read a host file.
// import(), which goja rejects at parse time with an engine message, gets a
// plain-language error instead (ISO-3).
func compile(code string) (*goja.Program, error) {
	ast, err := goja.Parse(scriptName, scriptPrefix+code+scriptSuffix, parser.WithDisableSourceMaps)
	if err == nil {
		var prog *goja.Program
		prog, err = goja.CompileAST(ast, false)
		if err == nil {
			return prog, nil
		}
	}
	switch {
	case dynamicImport.MatchString(code):
		return nil, plainError(msgImport)
	case importStatement.MatchString(code):
		return nil, plainError(msgImportStatement)
	}
	return nil, plainError(syntaxMessage(err))
}

// syntaxMessage rewrites goja's parse error for the script as written: no
// file name, and first-line columns without the wrapper's prefix.
func syntaxMessage(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "SyntaxError: ")
	msg = strings.ReplaceAll(msg, scriptName+": ", "")
	msg = lineColumn.ReplaceAllStringFunc(msg, func(m string) string {
		col, convErr := strconv.Atoi(lineColumn.FindStringSubmatch(m)[1])
		if convErr != nil || col <= len(scriptPrefix) {
			return m
		}
		return "Line 1:" + strconv.Itoa(col-len(scriptPrefix))
	})
	return "SyntaxError: " + msg
}
