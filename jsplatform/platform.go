package jsplatform

import (
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/mcpexec/mcpexec/jsplatform/intl"
)

// Config is what the embedder lends the platform.
type Config struct {
	// Timer makes the timer global of the given name (setTimeout,
	// setInterval, clearTimeout, clearInterval) on the run's event loop.
	// Nil leaves the timers out; queueMicrotask then cannot report an
	// exception its callback throws.
	Timer func(name string) goja.Value
	// Now is the clock of performance.now, in milliseconds. Nil: the time
	// since the web globals were made.
	Now func() float64
	// OnError hears of a part of the platform that failed to build: the
	// parts are fixed programs, so this is a defect, never the script's
	// doing. The global then reads as undefined.
	OnError func(part string, err error)
	// Locale and TimeZone are Intl's defaults (a BCP 47 tag, an IANA zone);
	// empty: en-US and UTC.
	Locale, TimeZone string
}

// Platform is the platform installed in one runtime. It belongs to that
// runtime's goroutine.
type Platform struct {
	vm        *goja.Runtime
	cfg       Config
	globals   map[string]goja.Value // the lazy globals made so far
	web       *goja.Object          // what web.js made, once made
	convert   conversions           // once made
	intl      *intl.Realm           // Intl, once made
	localized bool                  // the locale-sensitive methods repaired
	prepared  []bool                // per part made on demand, already made
}

// TimerNames are the globals Config.Timer makes.
var TimerNames = []string{"setTimeout", "setInterval", "clearTimeout", "clearInterval"}

// Install puts the platform into vm: the lazy globals now, the repairs when
// Prepare sees code that needs them. The global object's prototype becomes
// a dynamic object that makes a platform global the first time it is read,
// and inherits from the previous prototype.
func Install(vm *goja.Runtime, cfg Config) (*Platform, error) {
	p := &Platform{
		vm:       vm,
		cfg:      cfg,
		globals:  make(map[string]goja.Value),
		prepared: make([]bool, len(parts)),
	}
	if cfg.Now == nil {
		start := time.Now()
		p.cfg.Now = func() float64 { return float64(time.Since(start).Nanoseconds()) / 1e6 }
	}
	d := vm.NewDynamicObject(lazyGlobals{p})
	if err := d.SetPrototype(vm.GlobalObject().Prototype()); err != nil {
		return nil, err
	}
	if err := vm.GlobalObject().SetPrototype(d); err != nil {
		return nil, err
	}
	return p, nil
}

// Prepare makes the parts that code needs (repairs of goja's built-ins,
// built-ins goja lacks), each once per runtime. Call it with the
// JavaScript about to run, before running it.
func (p *Platform) Prepare(code string) error {
	for i, part := range parts {
		if p.prepared[i] || !part.neededBy(code) {
			continue
		}
		p.prepared[i] = true
		if err := part.install(p); err != nil {
			return err
		}
	}
	if !p.localized && mentionsAny(code, localeMethods) {
		p.localized = true
		return repairLocaleMethods(p)
	}
	return nil
}

// Function makes fn a function of the platform's realm named name (goja
// would otherwise expose the Go symbol as the function's name).
func (p *Platform) Function(name string, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	return NewFunction(p.vm, name, fn)
}

// NewFunction makes fn a function of vm's realm named name.
func NewFunction(vm *goja.Runtime, name string, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// lazyGlobals is the prototype of the global object: a global the script
// reads that the global object itself lacks is looked up here, and a
// platform global is made the first time. Assigning one of these names
// creates an ordinary global that shadows it, as assigning any global does.
type lazyGlobals struct{ p *Platform }

func (g lazyGlobals) Get(key string) goja.Value {
	p := g.p
	if v, ok := p.globals[key]; ok {
		return v
	}
	var v goja.Value
	switch {
	case p.cfg.Timer != nil && slices.Contains(TimerNames, key):
		v = p.cfg.Timer(key)
	case key == "Intl":
		r, err := p.buildIntl()
		if err != nil {
			p.failed("Intl", err)
			return nil
		}
		v = r.Intl
	case webGlobals[key]:
		web, err := p.buildWeb()
		if err != nil {
			p.failed("web globals", err)
			return nil
		}
		v = web.Get(key)
	default:
		return nil
	}
	p.globals[key] = v
	return v
}

func (g lazyGlobals) Has(key string) bool {
	return webGlobals[key] || key == "Intl" || (g.p.cfg.Timer != nil && slices.Contains(TimerNames, key))
}
func (lazyGlobals) Set(string, goja.Value) bool { return false }
func (lazyGlobals) Delete(string) bool          { return false }
func (lazyGlobals) Keys() []string              { return nil }

func (p *Platform) failed(part string, err error) {
	if p.cfg.OnError != nil {
		p.cfg.OnError(part, err)
	}
}

// mentionsAny reports whether code contains one of words.
func mentionsAny(code string, words []string) bool {
	for _, w := range words {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

// buildIntl makes Intl in the realm, once: the first time a script reads
// Intl or uses a locale-sensitive method of a built-in.
func (p *Platform) buildIntl() (*intl.Realm, error) {
	if p.intl != nil {
		return p.intl, nil
	}
	r, err := intl.New(p.vm, intl.Config{
		Locale: p.cfg.Locale, TimeZone: p.cfg.TimeZone,
		ToNumber: p.ToNumber, ToText: p.ToText,
	})
	if err != nil {
		return nil, err
	}
	p.intl = r
	return r, nil
}
