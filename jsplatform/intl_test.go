package jsplatform

import (
	"testing"
)

// TestIntlIsMadeOnFirstReadInTheRealm: installing the platform makes no
// Intl; reading it makes it once, of the realm's own prototypes.
func TestIntlIsMadeOnFirstReadInTheRealm(t *testing.T) {
	vm, p := newRuntime(t)
	if p.intl != nil {
		t.Fatal("Install made Intl before any script read it")
	}
	v, err := vm.RunString(`[
		Intl === Intl,
		Object.getPrototypeOf(Intl.NumberFormat.prototype) === Object.prototype,
		Object.getPrototypeOf(Intl.NumberFormat) === Function.prototype,
		Array.isArray(new Intl.NumberFormat().formatToParts(1)),
		Object.getPrototypeOf(new Intl.NumberFormat().formatToParts(1)[0]) === Object.prototype,
		Object.prototype.toString.call(Intl),
	].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "true,true,true,true,true,[object Intl]" {
		t.Errorf("got %q", got)
	}
}

// TestLocaleMethodsTakeLocalesAndOptions: code that mentions a
// locale-sensitive method gets ECMA-402's, with the configured defaults.
func TestLocaleMethodsTakeLocalesAndOptions(t *testing.T) {
	got := evaluate(t, `return [
		(1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }),
		(1234.5).toLocaleString("de-DE"),
		["file10", "file2", "File1"].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })),
		"a".localeCompare("á", "en", { sensitivity: "base" }),
		(12345678901234567890n).toLocaleString("en-US"),
		[1234.5, 2].toLocaleString("fr-FR"),
	];`)
	wantJSON(t, got, `["$1,234.50","1.234,5",["File1","file2","file10"],0,"12,345,678,901,234,567,890","1\u202f234,5,2"]`)
}
