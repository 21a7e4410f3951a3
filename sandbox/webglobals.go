package sandbox

import (
	"crypto/rand"
	_ "embed"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// The web-standard globals that are safe in a sandbox: the timers and
// queueMicrotask on the run's event loop, and URL, URLSearchParams, atob,
// btoa, TextEncoder, TextDecoder, structuredClone, crypto (randomUUID,
// getRandomValues) and performance.now. Nothing among them reaches the
// network, the file system, or a clock beyond what Date gives.
//
// Most runs use none of them, so none is made until a script touches it:
// the run's global object inherits from a dynamic object (lazyGlobals) that
// makes a global the first time it is read. Everything it makes is created
// in the run's own realm. Assigning one of these names creates an ordinary
// global that shadows it, as assigning any global does.

// webGlobalsSource builds the globals written in JavaScript.
//
//go:embed webglobals.js
var webGlobalsSource string

// webGlobalsProgram is compiled once per process: a Program is immutable and
// no script can reach it, only what running it makes in the script's realm.
var webGlobalsProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("webglobals.js", webGlobalsSource, true)
})

var (
	timerGlobals = map[string]bool{"setTimeout": true, "setInterval": true, "clearTimeout": true, "clearInterval": true}
	webGlobals   = map[string]bool{
		"atob": true, "btoa": true, "TextEncoder": true, "TextDecoder": true, "URL": true,
		"URLSearchParams": true, "structuredClone": true, "crypto": true, "performance": true,
		"queueMicrotask": true,
	}
)

// maxRandomBytes is what one crypto.getRandomValues call may ask for, as on
// the web platform.
const maxRandomBytes = 65536

// lazyGlobals is the prototype of the run's global object.
type lazyGlobals struct {
	x      *execution
	values map[string]goja.Value
	web    *goja.Object // what webglobals.js made, once made
}

func (x *execution) installLazyGlobals() error {
	g := &lazyGlobals{x: x, values: make(map[string]goja.Value)}
	vm := x.realm.vm
	d := vm.NewDynamicObject(g)
	if err := d.SetPrototype(vm.GlobalObject().Prototype()); err != nil {
		return err
	}
	return vm.GlobalObject().SetPrototype(d)
}

func (g *lazyGlobals) Get(key string) goja.Value {
	if v, ok := g.values[key]; ok {
		return v
	}
	var v goja.Value
	switch {
	case timerGlobals[key]:
		v = g.x.timerFunction(key)
	case webGlobals[key]:
		web, err := g.buildWeb()
		if err != nil {
			g.x.logger.Error().Err(err).Msg("sandbox: web globals failed")
			return nil
		}
		v = web.Get(key)
	default:
		return nil
	}
	g.values[key] = v
	return v
}

func (g *lazyGlobals) Has(key string) bool         { return timerGlobals[key] || webGlobals[key] }
func (g *lazyGlobals) Set(string, goja.Value) bool { return false }
func (g *lazyGlobals) Delete(string) bool          { return false }
func (g *lazyGlobals) Keys() []string              { return nil }

// buildWeb runs webglobals.js in the realm, lending it the run's clock, a
// source of random bytes, the sandbox's conversion to text, and the realm's
// own setTimeout.
func (g *lazyGlobals) buildWeb() (*goja.Object, error) {
	if g.web != nil {
		return g.web, nil
	}
	vm := g.x.realm.vm
	build, err := vm.RunProgram(webGlobalsProgram())
	if err != nil {
		return nil, err
	}
	apply, _ := goja.AssertFunction(build)
	start := time.Now()
	randomBytes := g.x.realm.newFunction("randomBytes", func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).ToInteger()
		if n < 0 || n > maxRandomBytes {
			n = 0
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	now := g.x.realm.newFunction("now", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(float64(time.Since(start).Nanoseconds()) / 1e6)
	})
	web, err := apply(goja.Undefined(), randomBytes, now, g.Get("setTimeout"), g.x.realm.conversions().text)
	if err != nil {
		return nil, err
	}
	g.web = web.ToObject(vm)
	return g.web, nil
}
