package sandbox

import (
	"regexp"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// compile turns a script into a program. A script that goja parses as it is
// and that TypeScript could not read differently is compiled directly: the
// transform costs several times a whole trivial run, and it would change
// nothing. Every other script goes through the transform, whose source map
// is attached to the parsed file, so positions in errors and stacks point at
// the script as written (positions.go).
//
// Source map comments are never followed: such a comment would make the
// parser read a host file. import(), which goja rejects at parse time with
// an engine message, gets a plain-language error instead (ISO-3).
//
// It returns the JavaScript it compiled beside the program.
func compile(code string) (*goja.Program, string, error) {
	if len(code) > maxScriptBytes {
		return nil, "", plainError(msgScriptTooLong)
	}
	if !typeArgumentsPossible.MatchString(code) {
		if parsed, err := parse(scriptPrefix + code + scriptSuffix); err == nil {
			if prog, err := goja.CompileAST(parsed, false); err == nil {
				if m := positionMap(code); m != nil {
					parsed.File.SetSourceMap(m)
				}
				return prog, code, nil
			}
		}
	}
	return compileTransformed(code)
}

// compileTransformed compiles the script through the transform.
func compileTransformed(code string) (*goja.Program, string, error) {
	t, err := transform(code)
	if err != nil {
		return nil, "", err
	}
	parsed, err := parse(t.code)
	if err == nil {
		var prog *goja.Program
		prog, err = goja.CompileAST(parsed, false)
		if err == nil {
			if m, mapErr := transformedPositionMap(t.code, t.sourceMap); mapErr == nil && m != nil {
				parsed.File.SetSourceMap(m)
			}
			return prog, t.code, nil
		}
	}
	if dynamicImport.MatchString(code) {
		return nil, "", plainError(msgImport)
	}
	// The transform accepted the script, so the engine refusing it is a
	// gap between them: report it without the transformed text.
	return nil, "", plainError(msgEngineSyntax)
}

func parse(src string) (*ast.Program, error) {
	return goja.Parse(scriptName, src, parser.WithDisableSourceMaps)
}

// typeArgumentsPossible finds the one TypeScript construct that is also
// valid JavaScript with another meaning: explicit type arguments on a call,
// a construction or a tagged template (f<T>(x) is a generic call in
// TypeScript and two comparisons in JavaScript). Every other TypeScript
// construct is a syntax error in JavaScript. A false match only costs the
// transform.
var typeArgumentsPossible = regexp.MustCompile("[\\w$)\\]]\\s*<[^;]*>\\s*[(`]")
