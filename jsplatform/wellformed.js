// String.prototype.isWellFormed and toWellFormed (ES2024), which goja
// lacks: a lone surrogate makes a string ill-formed, and toWellFormed
// replaces each with U+FFFD.
(function () {
	'use strict';
	const defineProperty = Object.defineProperty;
	const stringOf = (value, name) => {
		if (value === undefined || value === null) {
			throw new TypeError('String.prototype.' + name + ' called on null or undefined');
		}
		return `${value}`;
	};
	// loneSurrogate finds the first lone surrogate at or after i, or -1.
	function loneSurrogate(s, i) {
		for (; i < s.length; i++) {
			const c = s.charCodeAt(i);
			if (c < 0xd800 || c > 0xdfff) continue;
			if (c <= 0xdbff && i + 1 < s.length) {
				const d = s.charCodeAt(i + 1);
				if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
			}
			return i;
		}
		return -1;
	}
	const method = (name, fn) => defineProperty(String.prototype, name, {
		value: fn, writable: true, enumerable: false, configurable: true,
	});
	method('isWellFormed', {
		isWellFormed() { return loneSurrogate(stringOf(this, 'isWellFormed'), 0) < 0; },
	}.isWellFormed);
	method('toWellFormed', {
		toWellFormed() {
			const s = stringOf(this, 'toWellFormed');
			const parts = [];
			let from = 0;
			for (let i = loneSurrogate(s, 0); i >= 0; i = loneSurrogate(s, i + 1)) {
				parts.push(s.slice(from, i), '\ufffd');
				from = i + 1;
			}
			if (from === 0) return s;
			parts.push(s.slice(from));
			return parts.join('');
		},
	}.toWellFormed);
})();
