package intl

// relativeFormatter formats relative times: a number formatted as
// NumberFormat's decimal style does, in the unit's pattern.
type relativeFormatter struct {
	number  *numberFormatter
	data    map[string]relativeUnit
	numeric string // "always" or "auto"
}

func newRelativeFormatter(locale, style, numeric string) *relativeFormatter {
	nf := newNumberFormatter(numberOptions{
		Locale: locale, Style: "decimal", UseGrouping: "auto", RoundingMode: "halfExpand",
		MinimumIntegerDigits: 1, MaximumFractionDigits: 3, RoundingIncrement: 1, RoundingType: "fractionDigits",
	})
	return &relativeFormatter{number: nf, data: dataFor(locale).Relative[style], numeric: numeric}
}

// format writes value (a decimal numeral, finite) in unit (singular) as
// parts; the number's parts carry the unit.
func (f *relativeFormatter) format(value, unit string) []part {
	u := f.data[unit]
	if f.numeric == "auto" {
		key := value
		if key == "-0" {
			key = "0"
		}
		if name, ok := u.Named[key]; ok {
			return []part{{"literal", name}}
		}
	}
	v, _ := parseValue(value)
	negative := v.negative
	v.negative = false
	number := f.number.format(v)
	d := f.number.round(v.d, false)
	category := f.number.categoryOf(d)
	patterns := u.Future
	if negative {
		patterns = u.Past
	}
	p := patterns[category]
	if p == nil {
		p = patterns["other"]
	}
	var out []part
	for _, t := range p {
		if t.kind() == "number" {
			for _, n := range number {
				out = append(out, part{n.Type, n.Value + "\x00" + unit})
			}
			continue
		}
		out = append(out, part{t.kind(), t.text()})
	}
	return out
}
