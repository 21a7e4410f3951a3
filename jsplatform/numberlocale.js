// Number.prototype.toLocaleString for English, as Node formats it: goja's
// ignores the locale. Node's default (English) groups thousands and keeps at
// most three fraction digits; English locales and the fraction-digit and
// grouping options are formatted as Node does, anything else keeps goja's
// answer. It is called with the platform's conversion to a number.
(function (number) {
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
})
