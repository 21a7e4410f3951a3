package intl

// token is one piece of a date-time pattern: ["literal", text], or a field
// and its width ("numeric", "2-digit", "short", "long-standalone", ...).
type token []string

type dateNames struct {
	Months, Weekdays map[string]map[string][]string // context, width
	Eras             map[string][]string            // width: [BC, AD]
	DayPeriods       []string                       // [am, pm]
	// FlexibleDayPeriods are the dayPeriod option's names by width: for
	// each hour on the hour, then at half past ("noon" is 12:00 alone).
	FlexibleDayPeriods map[string][]string
}

// dateData are a locale's calendar names and date-time patterns, read off
// ICU's output by gen/tables.mjs. A pattern is looked up by the key of the
// fields it shows ("year=numeric,month=long,day=numeric").
type dateData struct {
	Names      dateNames
	HourCycles struct{ Default, H12, H24 string }
	// Dates and Times are the patterns of date fields alone and of time
	// fields (with hour12 and timeZoneName) alone; Glue goes between a
	// date and a time; Combined are the dates with times that ICU writes
	// otherwise than date, glue, time.
	Dates, Times, Glue, Combined map[string][]token
	// Styles are dateStyle/timeStyle[/hour12] patterns.
	Styles map[string][]token
	// GMT are the offset formats: of zero and of +5:30, short and long,
	// and of -5 (for the minus sign).
	GMT struct{ Zero, Short, Long, ZeroLong, Negative string }
	// Zones are the names of common zones by style, [standard, daylight].
	Zones map[string]map[string][]string
}
