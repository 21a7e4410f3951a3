package intl

import (
	"strconv"
	"strings"
	"time"
)

// dateOptions are a DateTimeFormat's resolved options (intl.js resolves
// them as ECMA-402 says).
type dateOptions struct {
	Locale, TimeZone, HourCycle     string
	DateStyle, TimeStyle            string
	Weekday, Era, Year, Month, Day  string
	DayPeriod, Hour, Minute, Second string
	TimeZoneName                    string
	FractionalSecondDigits          int
}

// dateFormatter formats instants with one pattern, picked once.
type dateFormatter struct {
	opts    dateOptions
	data    *dateData
	decimal string
	loc     *time.Location
	pattern []token
}

// dateFieldOrder is the order of the fields in a pattern's key.
var dateFieldOrder = []string{"weekday", "era", "year", "month", "day", "hour", "minute", "second", "hour12", "timeZoneName"}

func newDateFormatter(o dateOptions) *dateFormatter {
	ld := dataFor(o.Locale)
	f := &dateFormatter{opts: o, data: &ld.Date, decimal: ld.Number.Symbols.Decimal, loc: location(o.TimeZone)}
	f.pattern = f.pick()
	return f
}

// twelveHour reports whether the hour cycle shows a day period.
func (f *dateFormatter) twelveHour() bool {
	return f.opts.HourCycle == "h11" || f.opts.HourCycle == "h12"
}

// pick finds the pattern for the options.
func (f *dateFormatter) pick() []token {
	o := &f.opts
	d := f.data
	if o.DateStyle != "" || o.TimeStyle != "" {
		key := o.DateStyle + "/" + o.TimeStyle
		if o.TimeStyle != "" && o.HourCycle != "" && o.HourCycle != d.HourCycles.Default {
			key += "/" + strconv.FormatBool(f.twelveHour())
		}
		return d.Styles[key]
	}
	fields := map[string]string{
		"weekday": o.Weekday, "year": o.Year, "month": o.Month, "day": o.Day,
		"hour": o.Hour, "minute": o.Minute, "second": o.Second, "timeZoneName": o.TimeZoneName,
	}
	if o.Hour != "" {
		fields["hour12"] = strconv.FormatBool(f.twelveHour())
	}
	key := func(names ...string) string {
		var parts []string
		for _, k := range dateFieldOrder {
			if v := fields[k]; v != "" && contains(names, k) {
				parts = append(parts, k+"="+v)
			}
		}
		return strings.Join(parts, ",")
	}
	dateKey := key("weekday", "year", "month", "day")
	timeKey := key("hour", "minute", "second", "hour12")
	zoneKey := key("hour", "minute", "second", "hour12", "timeZoneName")
	var out []token
	switch {
	case dateKey == "":
		out = d.Times[zoneKey]
	case timeKey == "":
		out = d.Dates[dateKey]
		if zoneKey != "" {
			out = withZone(out, nil, d.Times[zoneKey])
		}
	default:
		if c, ok := d.Combined[dateKey+","+timeKey]; ok && timeKey != "" {
			out = append([]token(nil), c...)
		} else {
			out = append(append(append([]token(nil), d.Dates[dateKey]...), d.Glue[dateKey]...), d.Times[timeKey]...)
		}
		if zoneKey != timeKey {
			out = withZone(out, d.Times[timeKey], d.Times[zoneKey])
		}
	}
	if o.DayPeriod != "" {
		out = withDayPeriod(out, o.DayPeriod, o.Hour != "" && f.twelveHour())
	}
	if o.Era != "" {
		out = withEra(out, o.Era, strings.HasPrefix(o.Locale, "ja") || strings.HasPrefix(o.Locale, "zh"))
	}
	if o.FractionalSecondDigits > 0 {
		out = withFraction(out, f.decimal, o.FractionalSecondDigits)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// withZone puts the zone's name where the time's own pattern with the
// zone puts it: before the time's first field, or at the end.
func withZone(pattern, time, timeWithZone []token) []token {
	if len(timeWithZone) == 0 {
		return pattern
	}
	zoneAt := 0
	for i, t := range timeWithZone {
		if t[0] == "timeZoneName" {
			zoneAt = i
		}
	}
	if len(time) == 0 {
		// A date with a zone's name and no time: the zone's pattern alone
		// holds the default date; its name and the literal before it
		// follow the date.
		from := zoneAt
		if from > 0 && timeWithZone[from-1][0] == "literal" {
			from--
		}
		return append(append([]token(nil), pattern...), timeWithZone[from:]...)
	}
	if zoneAt == 0 {
		// The name and what follows it come before the time.
		lead := timeWithZone[:len(timeWithZone)-len(time)]
		for i, t := range pattern {
			if isTimeField(t[0]) || t[0] == "dayPeriod" {
				return append(append(append([]token(nil), pattern[:i]...), lead...), pattern[i:]...)
			}
		}
		return pattern
	}
	// The name follows the time: what the time's pattern with the name
	// has beyond their common start replaces the rest of the time.
	k := commonPrefixLen(time, timeWithZone)
	return append(append([]token(nil), pattern[:len(pattern)-(len(time)-k)]...), timeWithZone[k:]...)
}

func commonPrefixLen(a, b []token) int {
	n := 0
	for n < len(a) && n < len(b) && equalToken(a[n], b[n]) {
		n++
	}
	return n
}

func equalToken(a, b token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func isTimeField(t string) bool { return t == "hour" || t == "minute" || t == "second" }

// withDayPeriod shows the dayPeriod option's names ("in the morning"):
// alone when the pattern has no fields, in place of am and pm in a
// twelve-hour time, and not at all in a 24-hour time.
func withDayPeriod(pattern []token, width string, twelveHour bool) []token {
	if len(pattern) == 0 {
		return []token{{"dayPeriod", "flexible-" + width}}
	}
	if !twelveHour {
		return pattern
	}
	out := make([]token, len(pattern))
	for i, t := range pattern {
		out[i] = t
		if t[0] == "dayPeriod" {
			out[i] = token{"dayPeriod", "flexible-" + width}
			// ICU spaces "10 in the morning" with a plain space where
			// "10 AM" has a narrow no-break one.
			if i > 0 && out[i-1][0] == "literal" {
				out[i-1] = token{"literal", strings.ReplaceAll(out[i-1][1], "\u202f", " ")}
			}
		}
	}
	return out
}

// withEra puts the era next to the year: before it in Japanese and
// Chinese, after it elsewhere.
func withEra(pattern []token, width string, before bool) []token {
	var out []token
	for _, t := range pattern {
		if t[0] == "year" && before {
			out = append(out, token{"era", width})
		}
		out = append(out, t)
		if t[0] == "year" && !before {
			out = append(out, token{"literal", " "}, token{"era", width})
		}
	}
	return out
}

// withFraction puts the fraction of the second after the second.
func withFraction(pattern []token, decimal string, digits int) []token {
	var out []token
	for _, t := range pattern {
		out = append(out, t)
		if t[0] == "second" {
			out = append(out, token{"literal", decimal}, token{"fractionalSecond", strconv.Itoa(digits)})
		}
	}
	return out
}

// components are the fields the pattern shows and their widths, as
// resolvedOptions reports them.
func (f *dateFormatter) components() map[string]string {
	out := map[string]string{}
	for _, t := range f.pattern {
		if t[0] == "literal" || t[0] == "fractionalSecond" || t[0] == "dayPeriod" && !strings.HasPrefix(t[1], "flexible-") {
			continue // the hour cycle's am or pm
		}
		w := strings.TrimPrefix(strings.TrimSuffix(t[1], "-standalone"), "flexible-")
		if t[0] == "timeZoneName" {
			w = f.opts.TimeZoneName
			if w == "" {
				continue
			}
		}
		out[t[0]] = w
	}
	return out
}

// format writes the instant ms (milliseconds since the epoch) as parts.
func (f *dateFormatter) format(ms int64) []part {
	t := time.UnixMilli(ms).In(f.loc)
	names := &f.data.Names
	var out []part
	for _, tok := range f.pattern {
		kind, width := tok[0], tok[1]
		var v string
		switch kind {
		case "literal":
			v = width
		case "year":
			y := t.Year()
			if y <= 0 { // years before 1 count back in the era before
				y = 1 - y
			}
			if width == "2-digit" {
				v = pad2(y % 100)
			} else {
				v = strconv.Itoa(y)
			}
		case "month":
			v = numberOrName(int(t.Month()), width, names.Months, int(t.Month())-1)
		case "day":
			v = numberOrName(t.Day(), width, nil, 0)
		case "weekday":
			v = name(names.Weekdays, width, int(t.Weekday()))
		case "era":
			era := 1
			if t.Year() <= 0 {
				era = 0
			}
			if e, ok := names.Eras[width]; ok && len(e) == 2 {
				v = e[era]
			}
		case "dayPeriod":
			if flexible, ok := names.FlexibleDayPeriods[strings.TrimPrefix(width, "flexible-")]; ok && len(flexible) == 48 && width != "short" {
				i := t.Hour() * 2
				if t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
					i++
				}
				v = flexible[i]
			} else if len(names.DayPeriods) == 2 {
				v = names.DayPeriods[t.Hour()/12]
			}
		case "hour":
			v = numberOrName(f.hour(t.Hour()), width, nil, 0)
		case "minute":
			v = numberOrName(t.Minute(), width, nil, 0)
		case "second":
			v = numberOrName(t.Second(), width, nil, 0)
		case "fractionalSecond":
			n, _ := strconv.Atoi(width)
			v = pad3(t.Nanosecond() / 1e6)[:n]
		case "timeZoneName":
			style := width
			if f.opts.TimeZoneName != "" {
				style = f.opts.TimeZoneName
			}
			v = zoneName(f.data, f.opts.TimeZone, style, t)
		}
		out = append(out, part{kind, v})
	}
	return out
}

// hour is the hour as the hour cycle counts it.
func (f *dateFormatter) hour(h int) int {
	switch f.opts.HourCycle {
	case "h11":
		return h % 12
	case "h12":
		if h%12 == 0 {
			return 12
		}
		return h % 12
	case "h24":
		if h == 0 {
			return 24
		}
	}
	return h
}

func numberOrName(n int, width string, table map[string]map[string][]string, index int) string {
	switch width {
	case "numeric":
		return strconv.Itoa(n)
	case "2-digit":
		return pad2(n)
	}
	return name(table, width, index)
}

// name looks a month or weekday up by width ("short", or
// "short-standalone").
func name(table map[string]map[string][]string, width string, index int) string {
	context := "format"
	if w, ok := strings.CutSuffix(width, "-standalone"); ok {
		width, context = w, "standalone"
	}
	if list := table[context][width]; index < len(list) {
		return list[index]
	}
	return ""
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func pad3(n int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", 3-len(s)) + s
}
