package intl

import "testing"

// TestDefaultsAreTheConfiguredLocaleAndZone: without locales or timeZone a
// script formats in the configured locale and zone; unset or unknown ones
// are en-US and UTC, whatever the machine's.
func TestDefaultsAreTheConfiguredLocaleAndZone(t *testing.T) {
	expr := `[new Date(0).toLocaleString(), (1234.5).toLocaleString(),
		new Intl.DateTimeFormat().resolvedOptions().timeZone, new Intl.NumberFormat().resolvedOptions().locale].join(" | ")`
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{}, "1/1/1970, 12:00:00 AM | 1,234.5 | UTC | en-US"},
		{Config{Locale: "de-DE", TimeZone: "Asia/Tokyo"}, "1.1.1970, 09:00:00 | 1.234,5 | Asia/Tokyo | de-DE"},
		{Config{Locale: "not a locale", TimeZone: "Mars/Olympus"}, "1/1/1970, 12:00:00 AM | 1,234.5 | UTC | en-US"},
		{Config{Locale: "fr-CA", TimeZone: "+05:30"}, "01/01/1970 05:30:00 | 1\u202f234,5 | +05:30 | fr"},
	}
	for _, c := range cases {
		vm := newIntlRuntime(t, c.cfg)
		if got := evalText(vm, expr); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.cfg, got, c.want)
		}
	}
}

// TestOptionErrorsAreJavaScriptErrors: bad options throw the errors
// ECMA-402 names, with a message that says what was wrong.
func TestOptionErrorsAreJavaScriptErrors(t *testing.T) {
	vm := newIntlRuntime(t, Config{})
	cases := map[string]string{
		`new Intl.NumberFormat("en", {style: "currency"})`:                                    "TypeError: Currency code is required with currency style.",
		`new Intl.NumberFormat("en", {style: "bogus"})`:                                       "RangeError: Value bogus out of range for Intl.NumberFormat options property style",
		`new Intl.NumberFormat("en", {maximumFractionDigits: 101})`:                           "RangeError: maximumFractionDigits value is out of range.",
		`new Intl.DateTimeFormat("en", {timeZone: "Mars/Olympus"})`:                           "RangeError: Invalid time zone specified: Mars/Olympus",
		`new Intl.DateTimeFormat("en", {dateStyle: "full", year: "numeric"})`:                 "TypeError: Can't set option year when dateStyle is used",
		`new Intl.DateTimeFormat("en").format(NaN)`:                                           "RangeError: Invalid time value",
		`Intl.getCanonicalLocales("en_US")`:                                                   "RangeError: Incorrect locale information provided",
		`Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, "format").get.call({})`: "TypeError: Method Intl.NumberFormat.prototype.format called on incompatible receiver [object Object]",
	}
	for expr, want := range cases {
		got := evalText(vm, `try { `+expr+`; "no error" } catch (e) { e.name + ": " + e.message }`)
		if got != want {
			t.Errorf("%s: got %q, want %q", expr, got, want)
		}
	}
}
