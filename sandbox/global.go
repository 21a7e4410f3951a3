package sandbox

import (
	"errors"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// A global run (Request.Global) evaluates its code as global script code,
// the way the test262 conformance suite runs its files, in the same realm,
// platform and transform an Exec script gets: the code goja compiles as it
// is runs as written; the code it does not is transformed by esbuild
// first, as a script (no async wrapper). The suite's host hooks are the
// only additions: print, a console line, and $262.

// Phases of a global run's failure, at the start of Result.Error.
const (
	GlobalParseFailure   = "parse: "
	GlobalRuntimeFailure = "runtime: "
)

const globalScriptName = "script.js"

// globalTransformOptions are the transform's options for global code: the
// same lowering, no wrapper.
var globalTransformOptions = func() api.TransformOptions {
	o := transformOptions
	o.Sourcefile = globalScriptName
	o.Sourcemap = api.SourceMapNone
	return o
}()

// compileGlobal compiles code as a global script, through the transform
// when goja does not compile it as it is. It returns the JavaScript it
// compiled beside the program.
func compileGlobal(code string) (*goja.Program, string, error) {
	if len(code) > maxScriptBytes {
		return nil, "", plainError(msgScriptTooLong)
	}
	prog, err := compileScript(code)
	if err == nil {
		return prog, code, nil
	}
	out := api.Transform(code, globalTransformOptions)
	if len(out.Errors) > 0 {
		if transformFailedInside(out.Errors[0]) {
			return nil, "", plainError(msgTransformFailed)
		}
		return nil, "", plainError("SyntaxError: " + out.Errors[0].Text)
	}
	lowered := string(out.Code)
	if prog, loweredErr := compileScript(lowered); loweredErr == nil {
		return prog, lowered, nil
	}
	return nil, "", err
}

func compileScript(code string) (*goja.Program, error) {
	parsed, err := goja.Parse(globalScriptName, code, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, plainError("SyntaxError: " + err.Error())
	}
	prog, err := goja.CompileAST(parsed, false)
	if err != nil {
		var ref *goja.CompilerReferenceError
		if errors.As(err, &ref) {
			return nil, plainError("ReferenceError: " + ref.Message)
		}
		var syntax *goja.CompilerSyntaxError
		if errors.As(err, &syntax) {
			return nil, plainError("SyntaxError: " + syntax.Message)
		}
		return nil, plainError("SyntaxError: " + err.Error())
	}
	return prog, nil
}

// executeGlobal runs the request's code as global code, then the loop
// until nothing is pending.
func (x *execution) executeGlobal() Result {
	x.installHost262()
	prog, js, err := compileGlobal(x.req.Code)
	if err != nil {
		return x.fail(GlobalParseFailure + err.Error())
	}
	if err := x.platform.Prepare(js); err != nil {
		x.logger.Error().Err(err).Msg("sandbox: platform failed")
		return x.fail(GlobalRuntimeFailure + msgCrashed + ".")
	}
	if _, err := x.realm.vm.RunProgram(prog); err != nil {
		return x.failGlobal(err)
	}
	for x.pending > 0 {
		var err error
		if x.req.pump != nil {
			err = x.pumpStep()
		} else {
			err = x.waitStep()
		}
		if err != nil {
			return x.failGlobal(err)
		}
	}
	res := x.result(true, "")
	res.Text = x.console.section()
	return res
}

// failGlobal is the failure of a global run at run time: the thrown
// value's constructor name and message, or the sandbox's own reason.
func (x *execution) failGlobal(err error) Result {
	var exception *goja.Exception
	if !errors.As(err, &exception) {
		res := x.failFrom(err)
		res.Error = GlobalRuntimeFailure + res.Error
		res.Text = failureText(&x.console, res.Error)
		return res
	}
	name, message := "", ""
	_ = x.guard(func() error {
		v := exception.Value()
		obj, isObject := v.(*goja.Object)
		if !isObject {
			message = "Uncaught " + v.String()
			return nil
		}
		if c, ok := obj.Get("constructor").(*goja.Object); ok {
			name = primitiveString(c.Get("name"))
		}
		message = primitiveString(obj.Get("message"))
		return nil
	})
	return x.fail(GlobalRuntimeFailure + strings.TrimSpace(name+": "+message))
}

// installHost262 defines print and $262 in the realm.
func (x *execution) installHost262() {
	vm := x.realm.vm
	_ = vm.Set("print", x.realm.newFunction("print", func(call goja.FunctionCall) goja.Value {
		x.logLine(call.Arguments)
		return goja.Undefined()
	}))
	host := vm.NewObject()
	syntaxError, typeError := vm.Get("SyntaxError"), vm.Get("TypeError")
	throw := func(ctor goja.Value, message string) goja.Value {
		e, err := vm.New(ctor, vm.ToValue(message))
		if err != nil {
			panic(err)
		}
		panic(e)
	}
	_ = host.Set("global", vm.GlobalObject())
	_ = host.Set("evalScript", x.realm.newFunction("evalScript", func(call goja.FunctionCall) goja.Value {
		prog, err := compileScript(call.Argument(0).String())
		if err != nil {
			return throw(syntaxError, strings.TrimPrefix(err.Error(), "SyntaxError: "))
		}
		v, err := vm.RunProgram(prog)
		if err != nil {
			var exception *goja.Exception
			if errors.As(err, &exception) {
				panic(exception.Value())
			}
			panic(err)
		}
		return v
	}))
	_ = host.Set("detachArrayBuffer", x.realm.newFunction("detachArrayBuffer", func(call goja.FunctionCall) goja.Value {
		buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
		if !ok {
			return throw(typeError, "not an ArrayBuffer")
		}
		buf.Detach()
		return goja.Null()
	}))
	for _, name := range []string{"gc", "createRealm"} {
		_ = host.Set(name, x.realm.newFunction(name, func(goja.FunctionCall) goja.Value {
			return throw(typeError, "$262."+name+" is not available in the sandbox")
		}))
	}
	_ = vm.Set("$262", host)
}
