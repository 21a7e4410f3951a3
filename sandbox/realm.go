package sandbox

import (
	_ "embed"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// maxCallStackSize bounds JavaScript call depth. Without a bound, unbounded
// recursion grows until memory runs out, and native<->JS recursion unwinds in
// quadratic time after an interrupt.
const maxCallStackSize = 4096

// realm is one run's runtime plus the intrinsics captured before any script
// code ran, so that a script which reassigns globals cannot change how the
// host builds or reads values.
type realm struct {
	vm              *goja.Runtime
	objectPrototype *goja.Object
	arrayPrototype  *goja.Object
	errorCtor       goja.Value
	toPrimitive     goja.Value          // of tool results, once made (conversion.go)
	converters      conversionFunctions // once made (conversion.go)
	// log receives each console line's arguments: the console is made
	// with the realm, before the run (and its sink) is known.
	log func(args []goja.Value)
}

// lockdownProgram closes every path to code generation from strings (ISO-2,
// ISO-4). goja has no switch for it, so the constructors of ordinary, async
// and generator functions and the eval and Function globals are replaced by
// one thrower made in the sandbox realm, as non-writable, non-configurable
// properties, before user code runs. The thrower is an ordinary function so
// that calling it, constructing it (new Function, Reflect.construct) and
// binding it all end in the realm's EvalError. Async generators reach goja
// only lowered to ordinary generators, so they have no constructor to close.
//
// It touches no intrinsic that goja builds lazily (Reflect, Symbol, the
// typed arrays): building those costs more than the rest of a trivial run.
var lockdownProgram = goja.MustCompile("lockdown.js", `(function (message) {
	'use strict';
	const thrower = function Function() { throw new EvalError(message); };
	const lock = (object, key) => Object.defineProperty(object, key, {
		value: thrower, writable: false, configurable: false, enumerable: false,
	});
	lock(Object.getPrototypeOf(function () {}), 'constructor');
	lock(Object.getPrototypeOf(async function () {}), 'constructor');
	lock(Object.getPrototypeOf(function* () {}), 'constructor');
	lock(globalThis, 'Function');
	lock(globalThis, 'eval');
})`, true)

// newRealm creates a fresh runtime and locks it down.
func newRealm() (*realm, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStackSize)
	// A trailing sourceMappingURL comment would make the parser read a host
	// file; code generation is closed, but keep the parser closed too.
	vm.SetParserOptions(parser.WithDisableSourceMaps)
	r := &realm{
		vm:              vm,
		objectPrototype: vm.NewObject().Prototype(),
		arrayPrototype:  vm.NewArray().Prototype(),
		errorCtor:       vm.Get("Error"),
	}
	lockdown, err := vm.RunProgram(lockdownProgram)
	if err != nil {
		return nil, err
	}
	apply, _ := goja.AssertFunction(lockdown)
	if _, err := apply(goja.Undefined(), vm.ToValue(msgCodeGeneration)); err != nil {
		return nil, err
	}
	r.installConsole()
	return r, nil
}

// newError makes an Error of the sandbox realm carrying only a message: no
// Go value behind it for the script to reach by reflection.
func (r *realm) newError(message string) goja.Value {
	obj, err := r.vm.New(r.errorCtor, r.vm.ToValue(message))
	if err != nil {
		return r.vm.ToValue(message)
	}
	return obj
}

// newFunction wraps fn as a function of this realm named name (goja would
// otherwise expose the Go symbol as the function's name).
func (r *realm) newFunction(name string, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := r.vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", r.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// rejected returns a promise of this realm already rejected with message.
func (r *realm) rejected(message string) goja.Value {
	p, _, reject := r.vm.NewPromise()
	_ = reject(r.newError(message))
	return r.vm.ToValue(p)
}

// engineRepairs mend goja's built-ins where they differ from what scripts
// rely on. Each runs only in a run whose code mentions what it mends: it
// touches an intrinsic goja builds lazily, and building one costs a
// trivial run more than the repair is worth when the script never uses it.
var engineRepairs = []struct {
	mentions string
	program  *goja.Program
}{
	// goja lacks the well-known symbol for async iteration; the transform's
	// lowered for await and async generators look it up by this name.
	{"asyncIterator", goja.MustCompile("repair-async-iterator.js", `Object.defineProperty(Symbol, 'asyncIterator', {
		value: Symbol('Symbol.asyncIterator'), writable: false, configurable: false, enumerable: false,
	});`, true)},
	// goja's typed array from refuses a string source, which is iterable:
	// Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) is how scripts
	// decode base64.
	{".from(", goja.MustCompile("repair-typed-array-from.js", `(function () {
		'use strict';
		const TypedArray = Object.getPrototypeOf(Uint8Array);
		const typedFrom = TypedArray.from, arrayFrom = Array.from;
		Object.defineProperty(TypedArray, 'from', {
			value: { from(source, ...rest) {
				return typedFrom.call(this, typeof source === 'string' ? arrayFrom.call(Array, source) : source, ...rest);
			} }.from,
			writable: true, configurable: true, enumerable: false,
		});
	})();`, true)},
	// goja's Number.prototype.toLocaleString ignores the locale: Node's
	// default (English) groups thousands and keeps at most three fraction
	// digits. English locales and the fraction-digit and grouping options
	// are formatted as Node does; anything else keeps goja's answer.
	{"toLocaleString", goja.MustCompile("repair-number-locale.js", numberLocaleRepair, true)},
	// goja's JSON.parse words malformed text as Go's decoder does, twice
	// with Go internals; the repair throws V8's SyntaxError instead.
	{"JSON.parse", goja.MustCompile("repair-json-parse.js", jsonParseRepair, true)},
}

// jsonParseRepair is JSON.parse with V8's error messages.
//
//go:embed jsonparse.js
var jsonParseRepair string

const numberLocaleRepair = `(function (number) {
	'use strict';
	const original = Number.prototype.toLocaleString;
	const valueOf = Number.prototype.valueOf;
	const known = { minimumFractionDigits: true, maximumFractionDigits: true, useGrouping: true };
	const english = (locales) => {
		const first = Array.isArray(locales) ? locales[0] : locales;
		return first === undefined || (typeof first === 'string' && /^en(-|$)/i.test(first));
	};
	// plainDigits writes a non-negative number's shortest decimal form
	// without an exponent, as [whole, fraction].
	const plainDigits = (abs) => {
		const [mantissa, exp = '0'] = String(abs).split('e');
		const [w, f = ''] = mantissa.split('.');
		let digits = w + f, point = w.length + Number(exp);
		if (point <= 0) { digits = '0'.repeat(1 - point) + digits; point = 1; }
		if (point > digits.length) digits += '0'.repeat(point - digits.length);
		return [digits.slice(0, point), digits.slice(point)];
	};
	// round rounds half away from zero at max fraction digits, on the
	// shortest decimal form, as Intl does.
	const round = (abs, max) => {
		let [whole, fraction] = plainDigits(abs);
		if (fraction.length <= max) return [whole, fraction.padEnd(max, '0')];
		const up = fraction[max] >= '5';
		let digits = (whole + fraction.slice(0, max)).split('');
		if (up) {
			let i = digits.length - 1;
			while (i >= 0 && digits[i] === '9') { digits[i] = '0'; i--; }
			if (i < 0) digits.unshift('1'); else digits[i] = String(Number(digits[i]) + 1);
		}
		digits = digits.join('');
		return [digits.slice(0, digits.length - max) || '0', digits.slice(digits.length - max)];
	};
	Object.defineProperty(Number.prototype, 'toLocaleString', {
		value: { toLocaleString(locales, options) {
			const n = valueOf.call(this);
			const opts = options === undefined ? {} : options;
			if (!english(locales) || typeof opts !== 'object' || opts === null ||
				Object.keys(opts).some((k) => !known[k]) || !(Math.abs(n) < 1e21)) {
				return original.call(this, locales, options);
			}
			const min = opts.minimumFractionDigits === undefined ? 0 : number(opts.minimumFractionDigits);
			const max = opts.maximumFractionDigits === undefined ? Math.max(min, 3) : number(opts.maximumFractionDigits);
			if (!(min >= 0 && min <= 100 && max >= min && max <= 100)) {
				throw new RangeError('maximumFractionDigits value is out of range.');
			}
			const [whole, fraction] = round(Math.abs(n), max);
			let digits = fraction;
			while (digits.length > min && digits[digits.length - 1] === '0') digits = digits.slice(0, -1);
			const grouped = opts.useGrouping === false ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
			const negative = n < 0 || Object.is(n, -0);
			return (negative ? '-' : '') + grouped + (digits ? '.' + digits : '');
		} }.toLocaleString,
		writable: true, configurable: true, enumerable: false,
	});
})`

// repair runs the engine repairs that code needs. A repair whose program
// is a function is called with the sandbox's conversion of script values
// to numbers (conversion.go).
func (r *realm) repair(code string) error {
	for _, fix := range engineRepairs {
		if !strings.Contains(code, fix.mentions) {
			continue
		}
		v, err := r.vm.RunProgram(fix.program)
		if err != nil {
			return err
		}
		if install, ok := goja.AssertFunction(v); ok {
			if _, err := install(goja.Undefined(), r.conversions().number); err != nil {
				return err
			}
		}
	}
	return nil
}
