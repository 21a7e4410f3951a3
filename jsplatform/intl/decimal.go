package intl

import (
	"strings"
)

// decimal is an exact non-negative decimal number: the digits, without
// leading or trailing zeros, and where the point goes. Its value is
// 0.d₀d₁d₂… × 10^point; zero has no digits. Intl rounds and pads the
// decimal form of a number, not its binary double, so the formatter works
// on the digits JavaScript's Number::toString writes (or a BigInt's, or a
// numeric string's).
type decimal struct {
	digits []byte // '0'..'9'
	point  int
}

// parseDecimal reads an unsigned decimal numeral with an optional fraction
// and exponent ("1234.5", "1.5e-7", "12e+21"). ok is false for anything
// else.
func parseDecimal(s string) (d decimal, ok bool) {
	mantissa, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa = s[:i]
		e, ok := parseExponent(s[i+1:])
		if !ok {
			return decimal{}, false
		}
		exp = e
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	if whole == "" && fraction == "" {
		return decimal{}, false
	}
	for _, c := range whole + fraction {
		if c < '0' || c > '9' {
			return decimal{}, false
		}
	}
	d.digits = []byte(whole + fraction)
	d.point = len(whole) + exp
	d.trim()
	return d, true
}

func parseExponent(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// trim drops leading and trailing zeros.
func (d *decimal) trim() {
	lead := 0
	for lead < len(d.digits) && d.digits[lead] == '0' {
		lead++
	}
	d.digits = d.digits[lead:]
	d.point -= lead
	end := len(d.digits)
	for end > 0 && d.digits[end-1] == '0' {
		end--
	}
	d.digits = d.digits[:end]
	if len(d.digits) == 0 {
		d.point = 0
	}
}

func (d decimal) isZero() bool { return len(d.digits) == 0 }

// magnitude is the power of ten of the leading digit (0 for zero).
func (d decimal) magnitude() int {
	if d.isZero() {
		return 0
	}
	return d.point - 1
}

// shift multiplies by 10^n.
func (d decimal) shift(n int) decimal {
	if d.isZero() {
		return d
	}
	d.point += n
	return d
}

// isInteger reports whether d has no fraction.
func (d decimal) isInteger() bool { return len(d.digits) <= d.point }

// fractionLength is how many fraction digits d has.
func (d decimal) fractionLength() int { return max(len(d.digits)-d.point, 0) }

// roundingMode is ECMA-402's rounding mode.
type roundingMode string

// roundAt keeps the digits down to the 10^-fractionDigits place, rounding
// the rest away by mode; negative says the number it belongs to is below
// zero (ceil and floor depend on it).
func (d decimal) roundAt(fractionDigits int, mode roundingMode, negative bool) decimal {
	return d.roundKeeping(d.point+fractionDigits, mode, negative)
}

// roundSignificant keeps n significant digits.
func (d decimal) roundSignificant(n int, mode roundingMode, negative bool) decimal {
	return d.roundKeeping(n, mode, negative)
}

// roundIncrement rounds to a multiple of increment × 10^-fractionDigits
// (increment is 1, 2, 5, 10, 20, 25, 50, ... 5000).
func (d decimal) roundIncrement(increment, fractionDigits int, mode roundingMode, negative bool) decimal {
	if increment == 1 {
		return d.roundAt(fractionDigits, mode, negative)
	}
	// Divide by the increment exactly enough: scale so the rounding unit is
	// the increment, round to an integer in units of it, scale back. With
	// increments of 1, 2, 5 and 25 times a power of ten, halving or
	// quintupling the digits keeps it exact.
	q := divideExact(d.shift(fractionDigits), increment)
	q = q.roundAt(0, mode, negative)
	return multiplySmall(q, increment).shift(-fractionDigits)
}

// roundKeeping keeps the first keep digits (keep may be zero or negative:
// the rounding place is left of the leading digit).
func (d decimal) roundKeeping(keep int, mode roundingMode, negative bool) decimal {
	if keep >= len(d.digits) {
		return d
	}
	var first byte = '0'
	restNonZero := false
	if keep >= 0 {
		first = d.digits[keep]
		restNonZero = len(d.digits) > keep+1
	} else {
		restNonZero = true // digits all lie below the first discarded place
	}
	// cmp: how the discarded part compares with half a unit.
	cmp := 0
	switch {
	case first > '5' || (first == '5' && restNonZero):
		cmp = 1
	case first < '5':
		cmp = -1
	}
	lastKeptOdd := keep > 0 && (d.digits[keep-1]-'0')%2 == 1
	up := roundsAway(mode, cmp, negative, lastKeptOdd)
	unitPoint := d.point - keep // the rounding unit is 10^unitPoint... as 0.1×10^(unitPoint+1)
	if keep <= 0 {
		if !up {
			return decimal{}
		}
		return decimal{digits: []byte{'1'}, point: unitPoint + 1}
	}
	out := decimal{digits: append([]byte(nil), d.digits[:keep]...), point: d.point}
	if up {
		i := keep - 1
		for i >= 0 && out.digits[i] == '9' {
			out.digits[i] = '0'
			i--
		}
		if i < 0 {
			out.digits = append([]byte{'1'}, out.digits...)
			out.point++
		} else {
			out.digits[i]++
		}
	}
	out.trim()
	return out
}

// roundsAway decides whether a discarded non-zero part rounds the kept
// digits away from zero. cmp compares the discarded part with half a unit.
func roundsAway(mode roundingMode, cmp int, negative, lastKeptOdd bool) bool {
	switch mode {
	case "ceil":
		return !negative
	case "floor":
		return negative
	case "expand":
		return true
	case "trunc":
		return false
	}
	if cmp != 0 {
		return cmp > 0
	}
	switch mode {
	case "halfCeil":
		return !negative
	case "halfFloor":
		return negative
	case "halfTrunc":
		return false
	case "halfEven":
		return lastKeptOdd
	default: // halfExpand
		return true
	}
}

// divideExact divides d by n (2, 5, 25, … times a power of ten), exactly:
// such a division of a finite decimal is finite.
func divideExact(d decimal, n int) decimal {
	for n%10 == 0 {
		n /= 10
		d = d.shift(-1)
	}
	// Multiply by 10^k/n, which is an integer for n = 2^a 5^b.
	k, m := 0, n
	for m%2 == 0 {
		m /= 2
		k++
	}
	j := 0
	for m%5 == 0 {
		m /= 5
		j++
	}
	if m != 1 {
		return d // not an increment ECMA-402 allows; leave as is
	}
	scale := max(k, j)
	factor := 1
	for range scale {
		factor *= 10
	}
	return multiplySmall(d, factor/n).shift(-scale)
}

// multiplySmall multiplies d by a small positive integer.
func multiplySmall(d decimal, n int) decimal {
	if d.isZero() {
		return d
	}
	out := make([]byte, len(d.digits)+12)
	carry := 0
	j := len(out) - 1
	for i := len(d.digits) - 1; i >= 0; i-- {
		v := int(d.digits[i]-'0')*n + carry
		out[j] = byte('0' + v%10)
		carry = v / 10
		j--
	}
	for carry > 0 {
		out[j] = byte('0' + carry%10)
		carry /= 10
		j--
	}
	grown := len(out) - 1 - j - len(d.digits)
	r := decimal{digits: out[j+1:], point: d.point + grown}
	r.trim()
	return r
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// integerAndFraction writes d with at least minFraction fraction digits
// and at least minInteger integer digits.
func (d decimal) integerAndFraction(minInteger, minFraction int) (integer, fraction string) {
	var ib, fb strings.Builder
	for i := 0; i < d.point; i++ {
		if i < len(d.digits) {
			ib.WriteByte(d.digits[i])
		} else {
			ib.WriteByte('0')
		}
	}
	for i := d.point; i < len(d.digits); i++ {
		if i < 0 {
			fb.WriteByte('0')
		} else {
			fb.WriteByte(d.digits[i])
		}
	}
	integer, fraction = ib.String(), fb.String()
	if len(integer) < minInteger {
		integer = strings.Repeat("0", minInteger-len(integer)) + integer
	}
	if len(fraction) < minFraction {
		fraction += strings.Repeat("0", minFraction-len(fraction))
	}
	return integer, fraction
}
