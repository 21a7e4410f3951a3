package jsplatform

import (
	"crypto/rand"
	_ "embed"
	"sync"

	"github.com/dop251/goja"
)

// The web-standard globals that are safe in a sandbox: queueMicrotask, URL,
// URLSearchParams, atob, btoa, TextEncoder, TextDecoder, structuredClone,
// crypto (randomUUID, getRandomValues) and performance.now. Nothing among
// them reaches the network, the file system, or a clock beyond what Date
// gives. They are written in JavaScript (web.js) and made together, in the
// realm, the first time a script reads one of them.

// webSource builds the globals.
//
//go:embed web.js
var webSource string

// webProgram is compiled once per process: a Program is immutable and no
// script can reach it, only what running it makes in the script's realm.
var webProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("web.js", webSource, true)
})

// webGlobals are the names web.js makes.
var webGlobals = map[string]bool{
	"atob": true, "btoa": true, "TextEncoder": true, "TextDecoder": true, "URL": true,
	"URLSearchParams": true, "structuredClone": true, "crypto": true, "performance": true,
	"queueMicrotask": true,
}

// maxRandomBytes is what one crypto.getRandomValues call may ask for, as on
// the web platform.
const maxRandomBytes = 65536

// buildWeb runs web.js in the realm, lending it a source of random bytes,
// the clock, the platform's conversion to text, the realm's own setTimeout
// as it was before the script ran, and the encodings (encoding.go).
func (p *Platform) buildWeb() (*goja.Object, error) {
	if p.web != nil {
		return p.web, nil
	}
	vm := p.vm
	build, err := vm.RunProgram(webProgram())
	if err != nil {
		return nil, err
	}
	apply, _ := goja.AssertFunction(build)
	randomBytes := p.Function("randomBytes", func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).ToInteger()
		if n < 0 || n > maxRandomBytes {
			n = 0
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	now := p.Function("now", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(p.cfg.Now())
	})
	setTimeout := goja.Undefined()
	if p.cfg.Timer != nil {
		setTimeout = lazyGlobals{p}.Get("setTimeout")
	}
	web, err := apply(goja.Undefined(), randomBytes, now, setTimeout, p.conversions().text, p.encodings())
	if err != nil {
		return nil, err
	}
	p.web = web.ToObject(vm)
	return p.web, nil
}
