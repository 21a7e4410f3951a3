package test262

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Goja is bare goja: a goja.New() runtime with nothing of the sandbox (no
// lockdown, platform or transform), only the suite's print and $262. It
// bounds the call stack as the sandbox does, so that runaway recursion
// ends in a RangeError instead of exhausting memory. The reference point
// for what the sandbox adds.
type Goja struct{}

// maxCallStackSize is the sandbox's bound on call depth.
const maxCallStackSize = 4096

// Run evaluates script in a fresh runtime on the caller's goroutine. A
// panic of the engine fails that file, and the run goes on.
func (Goja) Run(ctx context.Context, script string) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Phase: "runtime", Message: fmt.Sprintf("the engine panicked: %v", r)}
		}
	}()
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStackSize)
	var printed strings.Builder
	_ = vm.Set("print", func(call goja.FunctionCall) goja.Value {
		printed.WriteString(call.Argument(0).String())
		printed.WriteByte('\n')
		return goja.Undefined()
	})
	_ = vm.Set("$262", host262(vm, func(src string) (goja.Value, error) { return vm.RunScript("evalScript.js", src) }))
	prog, err := goja.Compile("test.js", script, false)
	if err != nil {
		return compileOutcome(err)
	}
	timer := time.AfterFunc(Timeout, func() { vm.Interrupt("timeout") })
	defer timer.Stop()
	stop := context.AfterFunc(ctx, func() { vm.Interrupt("cancelled") })
	defer stop()
	_, err = vm.RunProgram(prog)
	out = runtimeOutcome(vm, err)
	out.Printed = printed.String()
	return out
}

// Close does nothing: bare runtimes hold nothing between runs.
func (Goja) Close() error { return nil }

// host262 makes the suite's $262 object for vm.
func host262(vm *goja.Runtime, evalScript func(string) (goja.Value, error)) *goja.Object {
	o := vm.NewObject()
	syntaxError := vm.Get("SyntaxError")
	_ = o.Set("global", vm.GlobalObject())
	_ = o.Set("evalScript", func(call goja.FunctionCall) goja.Value {
		v, err := evalScript(call.Argument(0).String())
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				panic(ex.Value())
			}
			var syntax *goja.CompilerSyntaxError
			if errors.As(err, &syntax) {
				if e, err := vm.New(syntaxError, vm.ToValue(syntax.Message)); err == nil {
					panic(e)
				}
			}
			panic(vm.NewTypeError(err.Error()))
		}
		return v
	})
	_ = o.Set("detachArrayBuffer", func(call goja.FunctionCall) goja.Value {
		buf, ok := call.Argument(0).Export().(goja.ArrayBuffer)
		if !ok {
			panic(vm.NewTypeError("detachArrayBuffer: not an ArrayBuffer"))
		}
		buf.Detach()
		return goja.Null()
	})
	unsupported := func(name string) func(goja.FunctionCall) goja.Value {
		return func(goja.FunctionCall) goja.Value { panic(vm.NewTypeError("$262." + name + " is not supported")) }
	}
	_ = o.Set("gc", unsupported("gc"))
	_ = o.Set("createRealm", unsupported("createRealm"))
	return o
}

// compileOutcome is the outcome of a script goja would not compile: an
// early error, in the parse phase.
func compileOutcome(err error) Outcome {
	var ref *goja.CompilerReferenceError
	if errors.As(err, &ref) {
		return Outcome{Phase: "parse", Type: "ReferenceError", Message: err.Error()}
	}
	return Outcome{Phase: "parse", Type: "SyntaxError", Message: err.Error()}
}

// runtimeOutcome is the outcome of running a compiled script.
func runtimeOutcome(vm *goja.Runtime, err error) Outcome {
	if err == nil {
		return Outcome{}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		name, message := describe(vm, ex.Value())
		return Outcome{Phase: "runtime", Type: name, Message: message}
	}
	var interrupted *goja.InterruptedError
	if errors.As(err, &interrupted) {
		return Outcome{Phase: "runtime", Message: fmt.Sprintf("interrupted: %v", interrupted.Value())}
	}
	var overflow *goja.StackOverflowError
	if errors.As(err, &overflow) {
		return Outcome{Phase: "runtime", Type: "RangeError", Message: "stack overflow"}
	}
	return Outcome{Phase: "runtime", Message: err.Error()}
}

// describe reads a thrown value's constructor name and message, guarded:
// a getter may throw.
func describe(vm *goja.Runtime, v goja.Value) (name, message string) {
	defer func() {
		if recover() != nil {
			message = "(the thrown value could not be described)"
		}
	}()
	obj, ok := v.(*goja.Object)
	if !ok {
		return "", v.String()
	}
	if c, ok := obj.Get("constructor").(*goja.Object); ok {
		if n := c.Get("name"); n != nil {
			name = n.String()
		}
	}
	if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
		message = m.String()
	}
	return name, message
}
