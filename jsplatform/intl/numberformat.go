package intl

import (
	"strings"
	"unicode"
)

// numberOptions are a NumberFormat's resolved options (intl.js resolves
// them as ECMA-402 says and hands them over).
type numberOptions struct {
	Locale                                             string
	Style, Currency, CurrencyDisplay                   string
	CurrencySign, Unit, UnitDisplay                    string
	Notation, CompactDisplay, SignDisplay              string
	UseGrouping                                        string // "always", "auto", "min2" or "" (false)
	RoundingMode, RoundingPriority                     string
	TrailingZeroDisplay                                string
	MinimumIntegerDigits                               int
	MinimumFractionDigits, MaximumFractionDigits       int
	MinimumSignificantDigits, MaximumSignificantDigits int
	RoundingIncrement                                  int
	// RoundingType is "fractionDigits", "significantDigits",
	// "morePrecision" or "lessPrecision".
	RoundingType string
	// CompactRounding: no digit option was given in compact notation, which
	// rounds to an integer but keeps two significant digits.
	CompactRounding bool
}

// numberFormatter formats numbers with resolved options.
type numberFormatter struct {
	opts numberOptions
	data *numberData
}

func newNumberFormatter(opts numberOptions) *numberFormatter {
	return &numberFormatter{opts: opts, data: &dataFor(opts.Locale).Number}
}

// formatValue is a number to format: NaN, an infinity, or a decimal, with
// its sign.
type formatValue struct {
	nan, infinite, negative bool
	d                       decimal
}

// parseValue reads what intl.js passes: the decimal numeral of the value
// ("-1.5e-7", "123", "-0"), or "NaN", "Infinity", "-Infinity".
func parseValue(s string) (formatValue, bool) {
	var v formatValue
	if strings.HasPrefix(s, "-") {
		v.negative = true
		s = s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	switch s {
	case "NaN":
		return formatValue{nan: true}, true
	case "Infinity":
		v.infinite = true
		return v, true
	}
	d, ok := parseDecimal(s)
	v.d = d
	return v, ok
}

// format formats v to parts.
func (f *numberFormatter) format(v formatValue) []part {
	o := &f.opts
	sym := f.data.Symbols
	var number []part
	exponentParts := []part(nil)
	var compactPattern []patternPart
	d := v.d
	if o.Style == "percent" && !v.nan && !v.infinite {
		d = d.shift(2)
	}
	switch {
	case v.nan:
		number = []part{{"nan", sym.NaN}}
	case v.infinite:
		number = []part{{"infinity", sym.Infinity}}
	default:
		switch o.Notation {
		case "scientific", "engineering":
			d, exponentParts = f.scientific(d, v.negative)
		case "compact":
			d, compactPattern = f.compact(d, v.negative)
		default:
			d = f.round(d, v.negative)
		}
		number = f.digits(d, o.Notation == "compact")
		number = append(number, exponentParts...)
	}
	// The sign, after rounding: -0.0001 rounded to 0 keeps auto's minus.
	zero := !v.nan && !v.infinite && d.isZero()
	sign := ""
	switch o.SignDisplay {
	case "always":
		sign = "+"
		if v.negative {
			sign = "-"
		}
	case "exceptZero":
		if !zero && !v.nan {
			sign = "+"
			if v.negative {
				sign = "-"
			}
		}
	case "negative":
		if v.negative && !zero {
			sign = "-"
		}
	case "never":
	default:
		if v.negative {
			sign = "-"
		}
	}
	if v.nan {
		sign = ""
		if o.SignDisplay == "always" {
			sign = "+"
		}
	}
	category := f.pluralCategory(d, v)
	pattern := f.pattern(sign, category)
	var out []part
	for _, p := range pattern {
		switch p.kind() {
		case "number":
			if compactPattern != nil {
				for _, c := range compactPattern {
					switch c.kind() {
					case "number":
						out = append(out, number...)
					case "sign":
					default:
						out = append(out, part{c.kind(), c.text()})
					}
				}
			} else {
				out = append(out, number...)
			}
		case "sign":
			if sign == "-" {
				out = append(out, part{"minusSign", sym.MinusSign})
			} else if sign == "+" {
				out = append(out, part{"plusSign", sym.PlusSign})
			}
		case "percentSign":
			out = append(out, part{"percentSign", sym.PercentSign})
		case "currency":
			out = append(out, part{"currency", f.currencyText(category)})
		default:
			out = append(out, part{p.kind(), p.text()})
		}
	}
	if o.Style == "currency" && o.CurrencyDisplay != "name" {
		out = currencySpacing(out)
	}
	return out
}

// pattern picks the pattern for the style and sign; a sign it shows sits
// where the negative pattern has the minus.
func (f *numberFormatter) pattern(sign, category string) []patternPart {
	o := &f.opts
	n := f.data
	negativeOf := func(neg []patternPart) []patternPart {
		if sign != "" {
			return neg
		}
		var out []patternPart
		for _, p := range neg {
			if p.kind() != "sign" {
				out = append(out, p)
			}
		}
		return out
	}
	switch o.Style {
	case "percent":
		return negativeOf(n.Percent.Negative)
	case "currency":
		if o.CurrencyDisplay == "name" {
			return negativeOf(n.Currency.NameNegative)
		}
		if o.CurrencySign == "accounting" {
			if sign == "-" {
				return n.Currency.AccountingNegative
			}
			if sign == "" {
				return n.Currency.AccountingPositive
			}
		}
		return negativeOf(n.Currency.Negative)
	case "unit":
		unit := n.Units[o.Unit][o.UnitDisplay]
		p := unit[category]
		if p == nil {
			p = unit["other"]
		}
		// The unit's pattern holds the number; the sign goes before it.
		var out []patternPart
		for _, q := range p {
			if q.kind() == "number" {
				out = append(out, patternPart{"sign"})
			}
			out = append(out, q)
		}
		return out
	}
	return negativeOf(n.Decimal.Negative)
}

// currencyText is how the currency shows.
func (f *numberFormatter) currencyText(category string) string {
	o := &f.opts
	c, known := f.data.Currencies[o.Currency]
	switch o.CurrencyDisplay {
	case "code":
		return o.Currency
	case "name":
		if known {
			if name, ok := c.Names[category]; ok {
				return name
			}
			return c.Names["other"]
		}
		return o.Currency
	case "narrowSymbol":
		if known {
			return c.Narrow
		}
	default:
		if known {
			return c.Symbol
		}
	}
	return o.Currency
}

// currencySpacing puts a no-break space between a currency written with
// letters and the digits it touches, as CLDR's currency spacing says.
func currencySpacing(parts []part) []part {
	isDigitPart := func(p part) bool {
		switch p.Type {
		case "integer":
			return true
		}
		return false
	}
	var out []part
	for i, p := range parts {
		out = append(out, p)
		if i+1 >= len(parts) {
			continue
		}
		next := parts[i+1]
		if p.Type == "currency" && isDigitPart(next) && endsWithLetter(p.Value, false) {
			out = append(out, part{"literal", "\u00a0"})
		}
		if next.Type == "currency" && (p.Type == "fraction" || isDigitPart(p)) && endsWithLetter(next.Value, true) {
			out = append(out, part{"literal", "\u00a0"})
		}
	}
	return out
}

// endsWithLetter reports whether the currency's character next to the
// number (its first when first, else its last) is not a symbol.
func endsWithLetter(s string, first bool) bool {
	r := []rune(s)
	if len(r) == 0 {
		return false
	}
	c := r[len(r)-1]
	if first {
		c = r[0]
	}
	return !unicode.IsSymbol(c)
}

// round rounds d as the options say.
func (f *numberFormatter) round(d decimal, negative bool) decimal {
	o := &f.opts
	mode := roundingMode(o.RoundingMode)
	byFraction := func() decimal {
		return d.roundIncrement(o.RoundingIncrement, o.MaximumFractionDigits, mode, negative)
	}
	bySignificant := func() decimal {
		return d.roundSignificant(o.MaximumSignificantDigits, mode, negative)
	}
	switch o.RoundingType {
	case "significantDigits":
		return bySignificant()
	case "morePrecision", "lessPrecision":
		a, b := bySignificant(), byFraction()
		// The one with more precision keeps the smaller rounding unit: more
		// digits after the point for the same number.
		sigUnit := d.magnitude() - o.MaximumSignificantDigits + 1
		fracUnit := -o.MaximumFractionDigits
		if d.isZero() {
			sigUnit = -o.MaximumSignificantDigits + 1
		}
		if (o.RoundingType == "morePrecision") == (sigUnit <= fracUnit) {
			return a
		}
		return b
	}
	return byFraction()
}

// minimumFraction is how many fraction digits d shows at least.
func (f *numberFormatter) minimumFraction(d decimal) int {
	o := &f.opts
	if o.TrailingZeroDisplay == "stripIfInteger" && d.isInteger() {
		return 0
	}
	minSig := func() int { return max(o.MinimumSignificantDigits-d.magnitude()-1, 0) }
	switch o.RoundingType {
	case "significantDigits":
		return minSig()
	case "morePrecision", "lessPrecision":
		sigUnit := d.magnitude() - o.MaximumSignificantDigits + 1
		if d.isZero() {
			sigUnit = -o.MaximumSignificantDigits + 1
		}
		fracUnit := -o.MaximumFractionDigits
		if (o.RoundingType == "morePrecision") == (sigUnit <= fracUnit) {
			return minSig()
		}
		return o.MinimumFractionDigits
	}
	return o.MinimumFractionDigits
}

// digits writes d's integer (grouped) and fraction parts.
func (f *numberFormatter) digits(d decimal, compact bool) []part {
	o := &f.opts
	sym := f.data.Symbols
	integer, fraction := d.integerAndFraction(o.MinimumIntegerDigits, f.minimumFraction(d))
	var out []part
	minGrouping := 0 // no grouping
	switch o.UseGrouping {
	case "always":
		minGrouping = 1
	case "min2":
		minGrouping = 2
	case "auto":
		minGrouping = f.data.MinimumGrouping
		if compact {
			minGrouping = max(minGrouping, 2)
		}
	}
	if minGrouping > 0 && len(integer) >= 3+minGrouping {
		first := len(integer) % 3
		if first == 0 {
			first = 3
		}
		out = append(out, part{"integer", integer[:first]})
		for i := first; i < len(integer); i += 3 {
			out = append(out, part{"group", sym.Group}, part{"integer", integer[i : i+3]})
		}
	} else {
		out = append(out, part{"integer", integer})
	}
	if fraction != "" {
		out = append(out, part{"decimal", sym.Decimal}, part{"fraction", fraction})
	}
	return out
}

// scientific rounds d in scientific or engineering notation and returns
// the mantissa and the exponent's parts.
func (f *numberFormatter) scientific(d decimal, negative bool) (decimal, []part) {
	exponentOf := func(d decimal) int {
		m := d.magnitude()
		if f.opts.Notation == "engineering" {
			return floorDiv(m, 3) * 3
		}
		return m
	}
	e := exponentOf(d)
	m := f.round(d.shift(-e), negative)
	if !m.isZero() && exponentOf(m.shift(e)) != e {
		e = exponentOf(m.shift(e))
		m = f.round(d.shift(-e), negative)
	}
	sym := f.data.Symbols
	exp := []part{{"exponentSeparator", sym.Exponential}}
	if e < 0 {
		exp = append(exp, part{"exponentMinusSign", sym.MinusSign})
	}
	exp = append(exp, part{"exponentInteger", itoa(abs(e))})
	return m, exp
}

// compact scales d to its compact form and returns it rounded with the
// pattern that writes it.
func (f *numberFormatter) compact(d decimal, negative bool) (decimal, []patternPart) {
	levels := f.data.Compact[f.opts.CompactDisplay]
	pick := func(mag int) compactLevel {
		if mag < 0 {
			return compactLevel{}
		}
		return levels[min(mag, len(levels)-1)]
	}
	roundCompact := func(x decimal) decimal {
		if !f.opts.CompactRounding {
			return f.round(x, negative)
		}
		if x.magnitude() >= 1 || x.isZero() {
			return x.roundAt(0, roundingMode(f.opts.RoundingMode), negative)
		}
		return x.roundSignificant(2, roundingMode(f.opts.RoundingMode), negative)
	}
	mag := d.magnitude()
	level := pick(mag)
	m := roundCompact(d.shift(-level.Exponent))
	if newMag := m.shift(level.Exponent).magnitude(); !m.isZero() && newMag > mag {
		level = pick(newMag)
		m = roundCompact(d.shift(-level.Exponent))
	}
	category := f.categoryOf(m)
	p := level.Patterns[category]
	if exact, ok := level.Patterns["1"]; ok && len(m.digits) == 1 && m.digits[0] == '1' && m.point == 1 && f.minimumFraction(m) == 0 {
		p = exact
	}
	if p == nil {
		p = level.Patterns["other"]
	}
	if len(p) == 0 {
		return m, nil
	}
	return m, p
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// pluralCategory is the plural category of the number as shown (after
// rounding), which picks a currency's or a unit's name.
func (f *numberFormatter) pluralCategory(d decimal, v formatValue) string {
	if v.nan || v.infinite {
		return "other"
	}
	return f.categoryOf(d)
}

func (f *numberFormatter) categoryOf(d decimal) string {
	_, fraction := d.integerAndFraction(1, f.minimumFraction(d))
	return cardinalCategory(f.opts.Locale, d, len(fraction))
}
