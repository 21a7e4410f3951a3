package intl

import (
	_ "embed"
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"golang.org/x/text/cases"
	"golang.org/x/text/currency"
	"golang.org/x/text/language"
)

// Config is what the embedder fixes for every realm.
type Config struct {
	// Locale is the default locale (a BCP 47 tag); empty or unsupported:
	// en-US.
	Locale string
	// TimeZone is the default time zone (an IANA name); empty or unknown:
	// UTC.
	TimeZone string
	// ToNumber and ToText convert a script's value as Number(v) and
	// String(v) do, with JavaScript's own errors; nil: goja's conversions.
	ToNumber func(goja.Value) float64
	ToText   func(goja.Value) goja.Value
}

// Realm is Intl as made in one runtime.
type Realm struct {
	vm *goja.Runtime
	// Intl is the Intl object.
	Intl *goja.Object
	// repair replaces the built-ins' locale-sensitive methods with ones
	// that format through Intl.
	repair goja.Callable
	// collators are the realm's x/text collators by their options, which
	// cost more to build than to keep.
	collators map[collatorKey]*collator
}

//go:embed intl.js
var intlSource string

var intlProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("intl.js", intlSource, true)
})

// New makes Intl in vm's realm.
func New(vm *goja.Runtime, cfg Config) (*Realm, error) {
	r := &Realm{vm: vm, collators: map[collatorKey]*collator{}}
	v, err := vm.RunProgram(intlProgram())
	if err != nil {
		return nil, err
	}
	make, _ := goja.AssertFunction(v)
	made, err := make(goja.Undefined(), r.natives(cfg), vm.ToValue(cfg.Locale), vm.ToValue(cfg.TimeZone))
	if err != nil {
		return nil, err
	}
	o := made.ToObject(vm)
	r.Intl = o.Get("Intl").ToObject(vm)
	r.repair, _ = goja.AssertFunction(o.Get("repairPrototypes"))
	return r, nil
}

// RepairPrototypes makes the built-ins' locale-sensitive methods
// (Number, BigInt, Array and Date toLocaleString, Date's
// toLocaleDateString and toLocaleTimeString, String's localeCompare) take
// locales and options, as ECMA-402 says they do.
func (r *Realm) RepairPrototypes() error {
	_, err := r.repair(goja.Undefined())
	return err
}

// function makes fn a function of the realm named name.
func (r *Realm) function(name string, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := r.vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", r.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// natives are the Go half intl.js receives.
func (r *Realm) natives(cfg Config) *goja.Object {
	vm := r.vm
	n := vm.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) {
		_ = n.Set(name, r.function(name, fn))
	}
	toNumber, toText := cfg.ToNumber, cfg.ToText
	if toNumber == nil {
		toNumber = func(v goja.Value) float64 { return v.ToFloat() }
	}
	if toText == nil {
		toText = func(v goja.Value) goja.Value {
			if _, ok := v.(*goja.Symbol); ok {
				panic(vm.NewTypeError("Cannot convert a Symbol value to a string"))
			}
			return vm.ToValue(v.String())
		}
	}
	set("toNumber", func(call goja.FunctionCall) goja.Value { return vm.ToValue(toNumber(call.Argument(0))) })
	set("toText", func(call goja.FunctionCall) goja.Value {
		v := toText(call.Argument(0))
		if !goja.IsString(v) { // goja's ToString leaves numbers and booleans as they are
			v = vm.ToValue(v.String())
		}
		return v
	})
	_ = n.Set("availableLocales", r.strings(availableLocales))
	_ = n.Set("units", r.strings(sanctionedUnits()))
	_ = n.Set("numberingSystems", r.strings(numberingSystems()))
	set("canonicalizeTag", func(call goja.FunctionCall) goja.Value {
		c, ok := canonicalizeTag(call.Argument(0).String())
		if !ok {
			return goja.Undefined()
		}
		return vm.ToValue(c)
	})
	set("currencyDigits", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(currencyDigits(call.Argument(0).String()))
	})
	set("numberFormatter", func(call goja.FunctionCall) goja.Value {
		settings := call.Argument(0).ToObject(vm)
		f := newNumberFormatter(readNumberOptions(settings))
		system := readString(settings, "numberingSystem")
		return r.function("format", func(call goja.FunctionCall) goja.Value {
			v, ok := parseValue(call.Argument(0).String())
			if !ok {
				v = formatValue{nan: true}
			}
			return r.parts(withDigits(f.format(v), system))
		})
	})
	set("rangeSigns", func(call goja.FunctionCall) goja.Value {
		r := dataFor(call.Argument(0).String()).Number.Range
		o := vm.NewObject()
		_ = o.Set("separator", r.Separator)
		_ = o.Set("approximately", r.Approximately)
		return o
	})
	set("collator", func(call goja.FunctionCall) goja.Value {
		c := r.collator(readCollatorKey(call.Argument(0).ToObject(vm)))
		return r.function("compare", func(call goja.FunctionCall) goja.Value {
			return vm.ToValue(c.compare(call.Argument(0).String(), call.Argument(1).String()))
		})
	})
	set("pluralRules", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).ToObject(vm)
		f := newNumberFormatter(readNumberOptions(s))
		ordinal := s.Get("type").String() == "ordinal"
		return r.function("select", func(call goja.FunctionCall) goja.Value {
			v, ok := parseValue(call.Argument(0).String())
			if !ok || v.nan || v.infinite {
				return vm.ToValue("other")
			}
			return vm.ToValue(f.selectPlural(v, ordinal))
		})
	})
	set("pluralCategories", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).ToObject(vm)
		return r.strings(pluralCategories(s.Get("locale").String(), s.Get("type").String() == "ordinal"))
	})
	set("canonicalTimeZone", func(call goja.FunctionCall) goja.Value {
		z, ok := canonicalTimeZone(call.Argument(0).String())
		if !ok {
			return goja.Undefined()
		}
		return vm.ToValue(z)
	})
	set("hourCycles", func(call goja.FunctionCall) goja.Value {
		c := dataFor(call.Argument(0).String()).Date.HourCycles
		o := vm.NewObject()
		_ = o.Set("default", c.Default)
		_ = o.Set("h12", c.H12)
		_ = o.Set("h24", c.H24)
		return o
	})
	set("dateTimeFormatter", func(call goja.FunctionCall) goja.Value {
		settings := call.Argument(0).ToObject(vm)
		f := newDateFormatter(readDateOptions(settings))
		system := readString(settings, "numberingSystem")
		o := vm.NewObject()
		_ = o.Set("format", r.function("format", func(call goja.FunctionCall) goja.Value {
			return r.parts(withDigits(f.format(call.Argument(0).ToInteger()), system))
		}))
		shown := vm.NewObject()
		for k, v := range f.components() {
			_ = shown.Set(k, v)
		}
		_ = o.Set("components", shown)
		return o
	})
	set("relativeTimeFormatter", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).ToObject(vm)
		f := newRelativeFormatter(readString(s, "dataLocale"), readString(s, "style"), readString(s, "numeric"))
		system := readString(s, "numberingSystem")
		return r.function("format", func(call goja.FunctionCall) goja.Value {
			return r.parts(withDigits(f.format(call.Argument(0).String(), call.Argument(1).String()), system))
		})
	})
	set("listPatterns", func(call goja.FunctionCall) goja.Value {
		p := dataFor(call.Argument(0).String()).List[call.Argument(1).String()][call.Argument(2).String()]
		o := vm.NewObject()
		_ = o.Set("pair", p.Pair)
		_ = o.Set("start", p.Start)
		_ = o.Set("middle", p.Middle)
		_ = o.Set("end", p.End)
		return o
	})
	set("likelySubtags", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(likelySubtags(call.Argument(0).String(), call.Argument(1).ToBoolean()))
	})
	set("changeCase", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(changeCase(call.Argument(0).String(), call.Argument(1).String(), call.Argument(2).ToBoolean()))
	})
	set("segment", func(call goja.FunctionCall) goja.Value {
		b := segment(call.Argument(0).String(), call.Argument(1).String())
		o := vm.NewObject()
		ends := make([]any, len(b.Ends))
		for i, e := range b.Ends {
			ends[i] = e
		}
		_ = o.Set("ends", vm.NewArray(ends...))
		wordLike := make([]any, len(b.WordLike))
		for i, w := range b.WordLike {
			wordLike[i] = w
		}
		_ = o.Set("wordLike", vm.NewArray(wordLike...))
		return o
	})
	set("displayName", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).ToObject(vm)
		name, ok := displayName(displayNameRequest{
			Locale: readString(s, "dataLocale"), Type: readString(s, "type"), Style: readString(s, "style"),
			LanguageDisplay: readString(s, "languageDisplay"), Code: call.Argument(1).String(),
			Substitute: readString(s, "fallback") == "code",
		})
		if !ok {
			return goja.Undefined()
		}
		return vm.ToValue(name)
	})
	set("supportedValues", func(call goja.FunctionCall) goja.Value {
		values, ok := supportedValues(call.Argument(0).String())
		if !ok {
			return goja.Undefined()
		}
		return r.strings(values)
	})
	return n
}

// strings makes an array of the realm.
func (r *Realm) strings(list []string) *goja.Object {
	vs := make([]any, len(list))
	for i, s := range list {
		vs[i] = s
	}
	return r.vm.NewArray(vs...)
}

// parts makes formatToParts' array: { type, value } objects of the realm
// (and unit, for a relative time's number: after a NUL in the value).
func (r *Realm) parts(ps []part) *goja.Object {
	vs := make([]any, len(ps))
	for i, p := range ps {
		o := r.vm.NewObject()
		_ = o.Set("type", p.Type)
		value, unit, hasUnit := strings.Cut(p.Value, "\x00")
		_ = o.Set("value", value)
		if hasUnit {
			_ = o.Set("unit", unit)
		}
		vs[i] = o
	}
	return r.vm.NewArray(vs...)
}

func readString(o *goja.Object, key string) string {
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	if v.ExportType() != nil && v.ExportType().Kind().String() == "bool" {
		if v.ToBoolean() {
			return "true"
		}
		return ""
	}
	return v.String()
}

func readInt(o *goja.Object, key string) int {
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	return int(v.ToInteger())
}

func readNumberOptions(o *goja.Object) numberOptions {
	return numberOptions{
		Locale: readString(o, "dataLocale"), Style: readString(o, "style"), Currency: readString(o, "currency"),
		CurrencyDisplay: readString(o, "currencyDisplay"), CurrencySign: readString(o, "currencySign"),
		Unit: readString(o, "unit"), UnitDisplay: readString(o, "unitDisplay"), Notation: readString(o, "notation"),
		CompactDisplay: readString(o, "compactDisplay"), SignDisplay: readString(o, "signDisplay"),
		UseGrouping: readString(o, "useGrouping"), RoundingMode: readString(o, "roundingMode"),
		RoundingPriority: readString(o, "roundingPriority"), TrailingZeroDisplay: readString(o, "trailingZeroDisplay"),
		MinimumIntegerDigits:     readInt(o, "minimumIntegerDigits"),
		MinimumFractionDigits:    readInt(o, "minimumFractionDigits"),
		MaximumFractionDigits:    readInt(o, "maximumFractionDigits"),
		MinimumSignificantDigits: readInt(o, "minimumSignificantDigits"),
		MaximumSignificantDigits: readInt(o, "maximumSignificantDigits"),
		RoundingIncrement:        max(readInt(o, "roundingIncrement"), 1),
		RoundingType:             readString(o, "roundingType"),
	}
}

func readDateOptions(o *goja.Object) dateOptions {
	return dateOptions{
		Locale: readString(o, "dataLocale"), TimeZone: readString(o, "timeZone"), HourCycle: readString(o, "hourCycle"),
		DateStyle: readString(o, "dateStyle"), TimeStyle: readString(o, "timeStyle"),
		Weekday: readString(o, "weekday"), Era: readString(o, "era"), Year: readString(o, "year"),
		Month: readString(o, "month"), Day: readString(o, "day"), DayPeriod: readString(o, "dayPeriod"),
		Hour: readString(o, "hour"), Minute: readString(o, "minute"), Second: readString(o, "second"),
		TimeZoneName:           readString(o, "timeZoneName"),
		FractionalSecondDigits: readInt(o, "fractionalSecondDigits"),
	}
}

// likelySubtags adds the likely script and region to tag's language id
// (maximize), or removes those the others imply (minimize), by x/text's
// CLDR likely subtags; the rest of the tag stays.
func likelySubtags(tag string, maximize bool) string {
	parts := strings.Split(tag, "-")
	end := 1
	for end < len(parts) && len(parts[end]) != 1 {
		end++
	}
	id, rest := strings.Join(parts[:end], "-"), parts[end:]
	t, err := language.Parse(id)
	if err != nil {
		return tag
	}
	base, _ := t.Base()
	script, scriptConfidence := t.Script()
	region, regionConfidence := t.Region()
	if scriptConfidence == language.No || regionConfidence == language.No {
		return tag // no likely subtags for the language: it stays as it is
	}
	var variants []string
	for _, p := range parts[1:end] {
		if len(p) >= 4 && !(len(p) == 4 && p[0] > '9') {
			variants = append(variants, p)
		}
	}
	full := []string{base.String(), script.String(), region.String()}
	out := full
	if !maximize {
		out = []string{base.String()}
		for _, candidate := range [][]string{{base.String()}, {base.String(), region.String()}, {base.String(), script.String()}} {
			ct, err := language.Parse(strings.Join(candidate, "-"))
			if err != nil {
				continue
			}
			b, _ := ct.Base()
			s, _ := ct.Script()
			r, _ := ct.Region()
			if b == base && s == script && r == region {
				out = candidate
				break
			}
		}
	}
	out = append(out, variants...)
	return strings.Join(append(out, rest...), "-")
}

// changeCase is toLocaleUpperCase (upper) or toLocaleLowerCase in a
// language with its own casing rules (Turkish, Azeri, Lithuanian), by
// x/text's cases.
func changeCase(s, locale string, upper bool) string {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.Und
	}
	if upper {
		return cases.Upper(tag).String(s)
	}
	return cases.Lower(tag).String(s)
}

// currencyDigits is how many fraction digits a currency shows: Node's
// where the tables know the currency, else x/text's ISO 4217 data.
func currencyDigits(code string) int {
	if c, ok := localeTables["en-US"]().Number.Currencies[code]; ok {
		return c.Digits
	}
	if u, err := currency.ParseISO(code); err == nil {
		scale, _ := currency.Standard.Rounding(u)
		return scale
	}
	return 2
}

// sanctionedUnits are the units ECMA-402 names (the tables' simple ones).
var sanctionedUnits = sync.OnceValue(func() []string {
	var out []string
	for u := range localeTables["en-US"]().Number.Units {
		if !containsPer(u) {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
})

func containsPer(u string) bool {
	for i := 0; i+5 <= len(u); i++ {
		if u[i:i+5] == "-per-" {
			return true
		}
	}
	return false
}

// supportedValues are Intl.supportedValuesOf's lists.
func supportedValues(key string) ([]string, bool) {
	switch key {
	case "calendar":
		return []string{"gregory"}, true
	case "collation":
		return []string{"default"}, true
	case "currency":
		var out []string
		for c := range localeTables["en-US"]().Number.Currencies {
			out = append(out, c)
		}
		sort.Strings(out)
		return out, true
	case "numberingSystem":
		out := append([]string(nil), numberingSystems()...)
		sort.Strings(out)
		return out, true
	case "timeZone":
		return timeZoneNames(), true
	case "unit":
		return sanctionedUnits(), true
	}
	return nil, false
}
