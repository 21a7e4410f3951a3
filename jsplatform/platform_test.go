package jsplatform

import (
	"testing"

	"github.com/dop251/goja"
)

// TestGlobalsAreMadeOnFirstRead: installing makes nothing; reading a web
// global makes the web globals once, in the runtime's realm; a global the
// script assigns shadows the platform's.
func TestGlobalsAreMadeOnFirstRead(t *testing.T) {
	vm, p := newRuntime(t)
	if p.web != nil || len(p.globals) != 0 {
		t.Fatal("Install made globals before any was read")
	}
	v, err := vm.RunString(`[typeof URL, URL === URL, typeof globalThis.nothingHere, (() => { atob = 1; return atob; })()].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "function,true,undefined,1" {
		t.Errorf("got %q", got)
	}
}

// TestTimersAreTheEmbeddersOwn: the timer globals are what Config.Timer
// makes, and absent without it.
func TestTimersAreTheEmbeddersOwn(t *testing.T) {
	vm := goja.New()
	var asked []string
	_, err := Install(vm, Config{Timer: func(name string) goja.Value {
		asked = append(asked, name)
		return vm.ToValue(name + " of the loop")
	}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := vm.RunString(`setTimeout + "," + clearInterval + "," + setTimeout`)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "setTimeout of the loop,clearInterval of the loop,setTimeout of the loop" || len(asked) != 2 {
		t.Errorf("got %q, asked for %q", v, asked)
	}
	bare, _ := newRuntime(t)
	if v, _ := bare.RunString(`typeof setTimeout`); v.String() != "undefined" {
		t.Errorf("setTimeout without Config.Timer is %s", v)
	}
}

// TestPrepareRunsOnlyTheRepairsTheCodeNeeds: a repair runs once, and only
// for code that mentions what it repairs.
func TestPrepareRunsOnlyTheRepairsTheCodeNeeds(t *testing.T) {
	vm, p := newRuntime(t)
	check := func(code, want string) {
		t.Helper()
		if err := p.Prepare(code); err != nil {
			t.Fatal(err)
		}
		v, err := vm.RunString(code)
		if err != nil {
			t.Fatal(err)
		}
		if v.String() != want {
			t.Errorf("%s: got %q, want %q", code, v, want)
		}
	}
	check(`typeof Symbol["async" + "Iterator"]`, "undefined")
	check(`const s = Symbol.asyncIterator; typeof s`, "symbol")
	check(`Symbol.asyncIterator === s`, "true") // not made again
}
