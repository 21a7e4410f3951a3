package intl

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zones are the binary's own, not the machine's
)

// timeZoneNames are the canonical IANA zones (as ICU lists them).
var timeZoneNames = sync.OnceValue(func() []string {
	raw, err := cldr.ReadFile("cldr/timezones.json")
	if err != nil {
		panic("intl: " + err.Error())
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		panic("intl: timezones.json: " + err.Error())
	}
	return names
})

// utcNames are the names ECMA-402 resolves to "UTC".
var utcNames = map[string]bool{"UTC": true, "ETC/UTC": true, "GMT": true, "ETC/GMT": true, "ETC/UCT": true, "UCT": true,
	"ETC/UNIVERSAL": true, "UNIVERSAL": true, "ETC/ZULU": true, "ZULU": true, "ETC/GREENWICH": true, "GREENWICH": true,
	"ETC/GMT0": true, "GMT0": true, "ETC/GMT+0": true, "GMT+0": true, "ETC/GMT-0": true, "GMT-0": true}

// canonicalTimeZone checks a timeZone option and writes it as Intl
// reports it: an IANA name in its own case, "UTC" for UTC's names, or an
// offset as ±HH:MM. ok is false for a zone that does not exist.
func canonicalTimeZone(name string) (string, bool) {
	if offset, ok := parseOffsetZone(name); ok {
		return formatOffsetZone(offset), true
	}
	if utcNames[strings.ToUpper(name)] {
		return "UTC", true
	}
	for _, n := range timeZoneNames() {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	if isZoneName(name) {
		if _, err := time.LoadLocation(name); err == nil {
			return name, true
		}
		// An alias in another case: find its spelling among the zones Go
		// knows by trying the common case forms.
		for _, c := range []string{titleZone(name)} {
			if _, err := time.LoadLocation(c); err == nil {
				return c, true
			}
		}
	}
	return "", false
}

func isZoneName(s string) bool {
	if s == "" || strings.HasPrefix(s, "/") || strings.Contains(s, "..") || strings.Contains(s, "\\") {
		return false
	}
	for _, c := range s {
		if !(c == '/' || c == '_' || c == '-' || c == '+' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

// titleZone writes "asia/calcutta" as "Asia/Calcutta".
func titleZone(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// parseOffsetZone reads ±HH:MM, ±HHMM or ±HH as minutes east of UTC.
func parseOffsetZone(s string) (int, bool) {
	if len(s) < 3 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	digits := strings.Replace(s[1:], ":", "", 1)
	if (len(s) == 6 && s[3] != ':') || !isDigits(digits) || (len(digits) != 2 && len(digits) != 4) {
		return 0, false
	}
	h := int(digits[0]-'0')*10 + int(digits[1]-'0')
	m := 0
	if len(digits) == 4 {
		m = int(digits[2]-'0')*10 + int(digits[3]-'0')
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	total := h*60 + m
	if s[0] == '-' {
		total = -total
	}
	return total, true
}

func formatOffsetZone(minutes int) string {
	sign := '+'
	if minutes < 0 {
		sign = '-'
		minutes = -minutes
	}
	return fmt.Sprintf("%c%02d:%02d", sign, minutes/60, minutes%60)
}

// location is the zone Go computes local times in.
func location(zone string) *time.Location {
	if offset, ok := parseOffsetZone(zone); ok {
		return time.FixedZone(zone, offset*60)
	}
	if zone == "UTC" {
		return time.UTC
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// zoneName is the zone's name in a locale and style at instant t.
func zoneName(d *dateData, zone, style string, t time.Time) string {
	_, offset := t.Zone()
	lookup := zone
	if offset, ok := parseOffsetZone(zone); ok {
		_ = offset
		lookup = ""
	}
	if names, ok := d.Zones[lookup]; ok {
		if byDST, ok := names[style]; ok && len(byDST) == 2 {
			if t.IsDST() {
				return byDST[1]
			}
			return byDST[0]
		}
	}
	switch style {
	case "long", "longOffset", "longGeneric":
		return offsetName(d, offset, true)
	}
	return offsetName(d, offset, false)
}

// offsetName writes an offset as the locale's GMT format does.
func offsetName(d *dateData, seconds int, long bool) string {
	if seconds == 0 {
		if long {
			return d.GMT.ZeroLong
		}
		return d.GMT.Zero
	}
	prefix := d.GMT.Short
	if i := strings.IndexAny(prefix, "+-"); i >= 0 {
		prefix = prefix[:i]
	}
	sign := "+"
	if seconds < 0 {
		sign = "-"
		if i := len(prefix); i < len(d.GMT.Negative) {
			r := []rune(d.GMT.Negative[i:])
			sign = string(r[0])
		}
		seconds = -seconds
	}
	h, m := seconds/3600, seconds/60%60
	if long {
		return fmt.Sprintf("%s%s%02d:%02d", prefix, sign, h, m)
	}
	if m != 0 {
		return fmt.Sprintf("%s%s%d:%02d", prefix, sign, h, m)
	}
	return fmt.Sprintf("%s%s%d", prefix, sign, h)
}
