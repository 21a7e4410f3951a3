// The Intl object after ECMA-402, made in the realm that runs this program.
// What reads options, resolves locales and checks receivers is written here,
// as the specification says it; what knows a locale's data (patterns,
// symbols, names, collation, plural rules, time zones) is the Go half,
// lent as `native`. The program's value is a function of native and the
// defaults that returns { Intl, repairPrototypes }.
(function (native, defaultLocaleWanted, defaultTimeZoneWanted) {
	'use strict';
	const ObjectCreate = Object.create, defineProperty = Object.defineProperty, ObjectToString = Object.prototype.toString;
	const ArrayIsArray = Array.isArray;
	const WeakMapGet = WeakMap.prototype.get, WeakMapSet = WeakMap.prototype.set, WeakMapHas = WeakMap.prototype.has;
	const StringValue = String, NumberValue = native.toNumber;

	// slots hold each Intl object's internal slots, by kind.
	const makeSlots = () => {
		const m = new WeakMap();
		return {
			get: (o) => (o !== null && (typeof o === 'object' || typeof o === 'function')) ? WeakMapGet.call(m, o) : undefined,
			set: (o, v) => { WeakMapSet.call(m, o, v); },
			has: (o) => (o !== null && typeof o === 'object') && WeakMapHas.call(m, o),
		};
	};

	const toText = native.toText; // ToString, which refuses a symbol
	const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');
	const toObject = (v) => {
		if (v === undefined || v === null) throw new TypeError('Cannot convert undefined or null to object');
		return Object(v);
	};
	const toLength = (v) => {
		const n = Math.trunc(NumberValue(v));
		return !(n > 0) ? 0 : Math.min(n, Number.MAX_SAFE_INTEGER);
	};

	// methods defines functions as methods: non-enumerable, not
	// constructors, named after their keys.
	const methods = (target, obj) => {
		for (const key of Reflect.ownKeys(obj)) {
			const d = Object.getOwnPropertyDescriptor(obj, key);
			d.enumerable = false;
			defineProperty(target, key, d);
		}
	};
	// receiverText describes a wrong receiver without calling into it (its
	// own toString may be the method that refused it).
	const receiverText = (o) => {
		if (typeof o === 'symbol') return 'Symbol()';
		if (isObject(o)) return ObjectToString.call(o);
		return typeof o === 'string' ? `"${o}"` : StringValue(o);
	};
	// fallbackSymbol is %Intl%.[[FallbackSymbol]], where a legacy call of
	// NumberFormat or DateTimeFormat leaves the object it made.
	const fallbackSymbol = Symbol('IntlLegacyConstructedSymbol');
	const hasInstance = Function.prototype[Symbol.hasInstance];
	// record makes an object's internal slots: without a prototype, so that
	// what a script puts on Object.prototype never sees or refuses them.
	const ObjectAssign = Object.assign;
	const record = (o) => ObjectAssign(ObjectCreate(null), o);
	// createData is CreateDataProperty: it defines, where an assignment
	// would call a setter a script put on Object.prototype or
	// Array.prototype.
	const createData = (o, key, value) => defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
	const toStringTag = (proto, tag) => defineProperty(proto, Symbol.toStringTag, { value: tag, configurable: true });

	// --- Locales -----------------------------------------------------------

	const available = native.availableLocales;
	const isAvailable = (l) => available.includes(l);

	const bestAvailableLocale = (locale) => {
		let candidate = locale;
		for (;;) {
			if (isAvailable(candidate)) return candidate;
			let pos = candidate.lastIndexOf('-');
			if (pos < 0) return undefined;
			if (pos >= 2 && candidate[pos - 2] === '-') pos -= 2;
			candidate = candidate.slice(0, pos);
		}
	};

	const canonicalize = (tag) => {
		const c = native.canonicalizeTag(tag);
		if (c === undefined) throw new RangeError(`Incorrect locale information provided`);
		return c;
	};

	const defaultLocale = (() => {
		const c = typeof defaultLocaleWanted === 'string' ? native.canonicalizeTag(defaultLocaleWanted) : undefined;
		return (c && bestAvailableLocale(c.replace(/-u(-[a-z0-9]{2,8})+/, ''))) || 'en-US';
	})();

	const localeSlots = makeSlots(); // Intl.Locale objects: their tag

	const canonicalizeLocaleList = (locales) => {
		if (locales === undefined) return [];
		const seen = [];
		let O;
		if (typeof locales === 'string' || localeSlots.has(locales)) O = [locales];
		else O = toObject(locales);
		const len = toLength(O.length);
		for (let k = 0; k < len; k++) {
			if (!(k in O)) continue;
			const kValue = O[k];
			if (typeof kValue !== 'string' && !isObject(kValue)) throw new TypeError('Language ID should be string or object.');
			const tag = localeSlots.has(kValue) ? localeSlots.get(kValue).tag : toText(kValue);
			const canonical = canonicalize(tag);
			if (!seen.includes(canonical)) createData(seen, seen.length, canonical); // not push, which a script may replace
		}
		return seen;
	};

	const removeUnicodeExtension = (locale) => {
		const m = /-u((?:-[a-z0-9]{2,8})+?)(?=-[a-z0-9]-|$)/.exec(locale);
		if (!m || /(^|-)x-/.test(locale.slice(0, m.index + 1))) return [locale, ''];
		return [locale.slice(0, m.index) + locale.slice(m.index + m[0].length), m[0]];
	};

	const lookupMatcher = (requested) => {
		for (const locale of requested) {
			const [noExtension, extension] = removeUnicodeExtension(locale);
			const found = bestAvailableLocale(noExtension);
			if (found !== undefined) return { locale: found, extension };
		}
		return { locale: defaultLocale, extension: '' };
	};

	// unicodeKeyword finds key's value in a -u- extension: undefined when
	// absent, 'true' for a key without a value.
	const unicodeKeyword = (extension, key) => {
		const subtags = extension.split('-').slice(2);
		for (let i = 0; i < subtags.length; i++) {
			if (subtags[i].length !== 2) continue;
			if (subtags[i] !== key) continue;
			const value = [];
			for (let j = i + 1; j < subtags.length && subtags[j].length > 2; j++) value.push(subtags[j]);
			return value.length ? value.join('-') : 'true';
		}
		return undefined;
	};

	const insertExtension = (locale, extension) => {
		const x = locale.indexOf('-x-');
		if (x < 0) return locale + extension;
		return locale.slice(0, x) + extension + locale.slice(x);
	};

	// resolveLocale is ECMA-402's ResolveLocale: keyData(locale, key) lists
	// the values the locale supports for key, its default first.
	const resolveLocale = (requested, options, relevantKeys, keyData) => {
		const r = lookupMatcher(requested);
		let foundLocale = r.locale, supported = '';
		const result = ObjectCreate(null);
		for (const key of relevantKeys) {
			const values = keyData(foundLocale, key);
			let value = values[0], addition = '';
			if (r.extension) {
				const requestedValue = unicodeKeyword(r.extension, key);
				if (requestedValue !== undefined) {
					if (requestedValue !== 'true' && values.includes(requestedValue)) {
						value = requestedValue;
						addition = '-' + key + '-' + value;
					} else if (requestedValue === 'true' && values.includes('true')) {
						value = 'true';
						addition = '-' + key;
					}
				}
			}
			let optionsValue = options[key];
			if (typeof optionsValue === 'string') {
				optionsValue = optionsValue.toLowerCase();
				if (optionsValue === '') optionsValue = 'true';
			}
			if (optionsValue !== undefined && values.includes(optionsValue) && optionsValue !== value) {
				value = optionsValue;
				addition = '';
			} else if (optionsValue !== undefined && optionsValue === value) {
				// keep the extension's addition: the option agrees with it
			}
			result[key] = value;
			supported += addition;
		}
		if (supported.length > 0) foundLocale = insertExtension(foundLocale, '-u' + supported);
		result.locale = foundLocale;
		result.dataLocale = r.locale;
		return result;
	};

	const getOptionsObject = (options) => {
		if (options === undefined) return ObjectCreate(null);
		if (isObject(options)) return options;
		throw new TypeError('Options must be an object');
	};
	const coerceOptionsToObject = (options) => (options === undefined ? ObjectCreate(null) : toObject(options));

	const getOption = (options, property, type, values, fallback, owner) => {
		let value = options[property];
		if (value === undefined) return fallback;
		if (type === 'boolean') value = Boolean(value);
		else value = toText(value);
		if (values !== undefined && !values.includes(value)) {
			throw new RangeError(`Value ${value} out of range for ${owner || 'Intl'} options property ${property}`);
		}
		return value;
	};

	const defaultNumberOption = (value, minimum, maximum, fallback, property) => {
		if (value === undefined) return fallback;
		value = NumberValue(value);
		if (Number.isNaN(value) || value < minimum || value > maximum) throw new RangeError(`${property} value is out of range.`);
		return Math.floor(value);
	};
	const getNumberOption = (options, property, minimum, maximum, fallback) =>
		defaultNumberOption(options[property], minimum, maximum, fallback, property);

	const supportedLocales = (requested, options) => {
		options = coerceOptionsToObject(options);
		getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit');
		const out = [];
		for (const locale of requested) {
			if (bestAvailableLocale(removeUnicodeExtension(locale)[0]) !== undefined) createData(out, out.length, locale);
		}
		return out;
	};

	const isTypeSequence = (s) => /^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*$/i.test(s);

	const supportedLocalesOf = {
		supportedLocalesOf(locales, options = undefined) {
			return supportedLocales(canonicalizeLocaleList(locales), options);
		},
	}.supportedLocalesOf;

	// makeConstructor gives a constructor its shape: length, prototype
	// (non-writable), supportedLocalesOf and the prototype's tag.
	const makeConstructor = (C, length, tag) => {
		defineProperty(C, 'length', { value: length, configurable: true });
		defineProperty(C, 'prototype', { writable: false, enumerable: false, configurable: false });
		methods(C, { supportedLocalesOf });
		toStringTag(C.prototype, tag);
	};

	// bound makes the function a getter such as format returns: anonymous,
	// of the given length, not a constructor.
	const anonymous = (fn) => {
		defineProperty(fn, 'name', { value: '', configurable: true });
		return fn;
	};

	// --- Numbers -------------------------------------------------------------

	const toPrimitiveNumber = (x) => {
		if (!isObject(x)) return x;
		const exotic = x[Symbol.toPrimitive];
		if (exotic !== undefined && exotic !== null) {
			const v = exotic.call(x, 'number');
			if (isObject(v)) throw new TypeError('Cannot convert object to primitive value');
			return v;
		}
		for (const name of ['valueOf', 'toString']) {
			const f = x[name];
			if (typeof f === 'function') {
				const v = f.call(x);
				if (!isObject(v)) return v;
			}
		}
		throw new TypeError('Cannot convert object to primitive value');
	};

	const numberText = (n) => {
		if (Number.isNaN(n)) return 'NaN';
		if (Object.is(n, -0)) return '-0';
		return StringValue(n);
	};

	// toIntlMathematicalValue writes x as the decimal numeral Go formats:
	// a string keeps all its digits, as ECMA-402 says.
	const toIntlMathematicalValue = (x) => {
		const prim = toPrimitiveNumber(x);
		if (typeof prim === 'bigint') return StringValue(prim);
		if (typeof prim === 'string') {
			const s = prim.trim();
			if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
				return s.replace(/^\+/, '').replace(/^(-?)\./, '$10.');
			}
			if (/^[+-]?Infinity$/.test(s)) return s.replace(/^\+/, '');
			return numberText(NumberValue(s));
		}
		return numberText(NumberValue(prim));
	};

	const roundingIncrements = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];
	const roundingModes = ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'];

	// setDigitOptions is ECMA-402's SetNumberFormatDigitOptions.
	const setDigitOptions = (r, options, mnfdDefault, mxfdDefault, notation) => {
		const mnid = getNumberOption(options, 'minimumIntegerDigits', 1, 21, 1);
		let mnfd = options.minimumFractionDigits;
		let mxfd = options.maximumFractionDigits;
		let mnsd = options.minimumSignificantDigits;
		let mxsd = options.maximumSignificantDigits;
		r.minimumIntegerDigits = mnid;
		const roundingIncrement = getNumberOption(options, 'roundingIncrement', 1, 5000, 1);
		if (!roundingIncrements.includes(roundingIncrement)) throw new RangeError('roundingIncrement value is out of range.');
		const roundingMode = getOption(options, 'roundingMode', 'string', roundingModes, 'halfExpand');
		const roundingPriority = getOption(options, 'roundingPriority', 'string', ['auto', 'morePrecision', 'lessPrecision'], 'auto');
		const trailingZeroDisplay = getOption(options, 'trailingZeroDisplay', 'string', ['auto', 'stripIfInteger'], 'auto');
		if (roundingIncrement !== 1) mxfdDefault = mnfdDefault;
		r.roundingIncrement = roundingIncrement;
		r.roundingMode = roundingMode;
		r.trailingZeroDisplay = trailingZeroDisplay;
		const hasSd = mnsd !== undefined || mxsd !== undefined;
		const hasFd = mnfd !== undefined || mxfd !== undefined;
		let needSd = true, needFd = true;
		if (roundingPriority === 'auto') {
			needSd = hasSd;
			if (needSd || (!hasFd && notation === 'compact')) needFd = false;
		}
		if (needSd) {
			if (hasSd) {
				mnsd = defaultNumberOption(mnsd, 1, 21, 1, 'minimumSignificantDigits');
				mxsd = defaultNumberOption(mxsd, mnsd, 21, 21, 'maximumSignificantDigits');
				r.minimumSignificantDigits = mnsd;
				r.maximumSignificantDigits = mxsd;
			} else {
				r.minimumSignificantDigits = 1;
				r.maximumSignificantDigits = 21;
			}
		}
		if (needFd) {
			if (hasFd) {
				mnfd = defaultNumberOption(mnfd, 0, 100, undefined, 'minimumFractionDigits');
				mxfd = defaultNumberOption(mxfd, 0, 100, undefined, 'maximumFractionDigits');
				if (mnfd === undefined) mnfd = Math.min(mnfdDefault, mxfd);
				else if (mxfd === undefined) mxfd = Math.max(mxfdDefault, mnfd);
				else if (mnfd > mxfd) throw new RangeError('maximumFractionDigits value is out of range.');
				r.minimumFractionDigits = mnfd;
				r.maximumFractionDigits = mxfd;
			} else {
				r.minimumFractionDigits = mnfdDefault;
				r.maximumFractionDigits = mxfdDefault;
			}
		}
		if (!needSd && !needFd) {
			r.minimumFractionDigits = 0;
			r.maximumFractionDigits = 0;
			r.minimumSignificantDigits = 1;
			r.maximumSignificantDigits = 2;
			r.roundingType = 'morePrecision';
			r.roundingPriority = 'morePrecision';
		} else if (roundingPriority === 'auto') {
			r.roundingType = needSd ? 'significantDigits' : 'fractionDigits';
			r.roundingPriority = 'auto';
		} else {
			r.roundingType = roundingPriority;
			r.roundingPriority = roundingPriority;
		}
		if (roundingIncrement !== 1) {
			if (r.roundingType !== 'fractionDigits') throw new TypeError('roundingIncrement requires fraction digits rounding');
			if (r.maximumFractionDigits !== r.minimumFractionDigits) throw new RangeError('maximumFractionDigits must equal minimumFractionDigits with a roundingIncrement');
		}
	};

	const isWellFormedCurrencyCode = (c) => /^[A-Za-z]{3}$/.test(c);
	const sanctionedUnits = native.units;
	const isWellFormedUnit = (unit) => {
		if (sanctionedUnits.includes(unit)) return true;
		const i = unit.indexOf('-per-');
		return i > 0 && sanctionedUnits.includes(unit.slice(0, i)) && sanctionedUnits.includes(unit.slice(i + 5));
	};

	const numberFormatSlots = makeSlots();
	const numberKeyData = (locale, key) => (key === 'nu' ? native.numberingSystems : [null]);

	// initializeNumberFormat is ECMA-402's InitializeNumberFormat; it
	// returns the slots (the resolved options and the Go formatter).
	const initializeNumberFormat = (locales, options) => {
		const requested = canonicalizeLocaleList(locales);
		options = coerceOptionsToObject(options);
		const opt = ObjectCreate(null);
		opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit');
		const numberingSystem = getOption(options, 'numberingSystem', 'string', undefined, undefined);
		if (numberingSystem !== undefined && !isTypeSequence(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
		opt.nu = numberingSystem;
		const r = resolveLocale(requested, opt, ['nu'], numberKeyData);
		const s = record({ locale: r.locale, dataLocale: r.dataLocale, numberingSystem: r.nu });
		const owner = 'Intl.NumberFormat';
		const style = getOption(options, 'style', 'string', ['decimal', 'percent', 'currency', 'unit'], 'decimal', owner);
		s.style = style;
		const currency = getOption(options, 'currency', 'string', undefined, undefined);
		if (currency === undefined) {
			if (style === 'currency') throw new TypeError('Currency code is required with currency style.');
		} else if (!isWellFormedCurrencyCode(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
		const currencyDisplay = getOption(options, 'currencyDisplay', 'string', ['code', 'symbol', 'narrowSymbol', 'name'], 'symbol', owner);
		const currencySign = getOption(options, 'currencySign', 'string', ['standard', 'accounting'], 'standard', owner);
		const unit = getOption(options, 'unit', 'string', undefined, undefined);
		if (unit === undefined) {
			if (style === 'unit') throw new TypeError('Unit is required with unit style.');
		} else if (!isWellFormedUnit(unit)) throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
		const unitDisplay = getOption(options, 'unitDisplay', 'string', ['short', 'narrow', 'long'], 'short', owner);
		if (style === 'currency') {
			s.currency = currency.toUpperCase();
			s.currencyDisplay = currencyDisplay;
			s.currencySign = currencySign;
		}
		if (style === 'unit') {
			s.unit = unit;
			s.unitDisplay = unitDisplay;
		}
		const notation = getOption(options, 'notation', 'string', ['standard', 'scientific', 'engineering', 'compact'], 'standard', owner);
		s.notation = notation;
		let mnfdDefault, mxfdDefault;
		if (style === 'currency') {
			mnfdDefault = mxfdDefault = native.currencyDigits(s.currency);
		} else {
			mnfdDefault = 0;
			mxfdDefault = style === 'percent' ? 0 : 3;
		}
		setDigitOptions(s, options, mnfdDefault, mxfdDefault, notation);
		const compactDisplay = getOption(options, 'compactDisplay', 'string', ['short', 'long'], 'short', owner);
		const defaultUseGrouping = notation === 'compact' ? 'min2' : 'auto';
		s.useGrouping = getGroupingOption(options, defaultUseGrouping);
		if (notation === 'compact') s.compactDisplay = compactDisplay;
		s.signDisplay = getOption(options, 'signDisplay', 'string', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto', owner);
		s.formatter = native.numberFormatter(s);
		return s;
	};

	const getGroupingOption = (options, fallback) => {
		let value = options.useGrouping;
		if (value === undefined) return fallback;
		if (value === true) return 'always';
		if (!value) return false;
		value = toText(value);
		if (value === 'true' || value === 'false') return fallback;
		if (!['min2', 'auto', 'always'].includes(value)) throw new RangeError(`Value ${value} out of range for Intl.NumberFormat options property useGrouping`);
		return value;
	};

	const numberParts = (s, x) => s.formatter(toIntlMathematicalValue(x));
	const joinParts = (parts) => {
		let out = '';
		for (let i = 0; i < parts.length; i++) out += parts[i].value;
		return out;
	};

	const thisNumberFormat = (nf, method) => {
		// format and resolvedOptions unwrap an object the constructor,
		// called as a function, chained to a new NumberFormat.
		if ((method === 'format' || method === 'resolvedOptions') && !numberFormatSlots.has(nf) && isObject(nf) && hasInstance.call(NumberFormat, nf)) nf = nf[fallbackSymbol];
		const s = numberFormatSlots.get(nf);
		if (s === undefined) throw new TypeError(`Method Intl.NumberFormat.prototype.${method} called on incompatible receiver ${receiverText(nf)}`);
		return s;
	};

	function NumberFormat(locales = undefined, options = undefined) {
		const target = new.target === undefined ? NumberFormat : new.target;
		const proto = isObject(target.prototype) ? target.prototype : NumberFormat.prototype;
		const nf = ObjectCreate(proto);
		numberFormatSlots.set(nf, initializeNumberFormat(locales, options));
		// ChainNumberFormat (normative optional): called as a function on
		// a NumberFormat, the constructor hangs the new one on it.
		if (new.target === undefined && isObject(this) && hasInstance.call(NumberFormat, this)) {
			defineProperty(this, fallbackSymbol, { value: nf, writable: false, enumerable: false, configurable: false });
			return this;
		}
		return nf;
	}
	makeConstructor(NumberFormat, 0, 'Intl.NumberFormat');
	methods(NumberFormat.prototype, {
		formatToParts(value) {
			const s = thisNumberFormat(this, 'formatToParts');
			return numberParts(s, value);
		},
		formatRange(start, end) {
			const s = thisNumberFormat(this, 'formatRange');
			return joinParts(rangeParts(s, start, end));
		},
		formatRangeToParts(start, end) {
			const s = thisNumberFormat(this, 'formatRangeToParts');
			return rangeParts(s, start, end);
		},
		resolvedOptions() {
			const s = thisNumberFormat(this, 'resolvedOptions');
			const out = {};
			for (const key of ['locale', 'numberingSystem', 'style', 'currency', 'currencyDisplay', 'currencySign', 'unit', 'unitDisplay',
				'minimumIntegerDigits', 'minimumFractionDigits', 'maximumFractionDigits', 'minimumSignificantDigits',
				'maximumSignificantDigits', 'useGrouping', 'notation', 'compactDisplay', 'signDisplay', 'roundingIncrement',
				'roundingMode', 'roundingPriority', 'trailingZeroDisplay']) {
				if (s[key] !== undefined) createData(out, key, s[key]);
			}
			return out;
		},
	});
	defineProperty(NumberFormat.prototype, 'format', {
		get: Object.getOwnPropertyDescriptor({ get format() {
			const s = thisNumberFormat(this, 'format');
			if (s.boundFormat === undefined) s.boundFormat = anonymous((value) => joinParts(numberParts(s, value)));
			return s.boundFormat;
		} }, 'format').get,
		enumerable: false, configurable: true,
	});

	// rangeParts formats a range as CLDR's range pattern does, with the
	// parts marked by source; equal ends show once, approximately.
	// rangeParts is formatRangeToParts as ICU writes a range: the ends'
	// affixes said once when they agree and are more than one character
	// ("US$3.00–5.00", "3–5 km"), else said twice with the separator
	// spaced ("$3.00 – $5.00", "-5 – -3").
	const numericPartTypes = ['integer', 'group', 'decimal', 'fraction', 'exponentSeparator', 'exponentMinusSign', 'exponentInteger', 'nan', 'infinity'];
	const splitAffixes = (parts) => {
		let first = parts.findIndex((p) => numericPartTypes.includes(p.type));
		let last = parts.length - 1;
		while (last >= 0 && !numericPartTypes.includes(parts[last].type)) last--;
		if (first < 0) first = last = parts.length;
		return { prefix: parts.slice(0, first), core: parts.slice(first, last + 1), suffix: parts.slice(last + 1) };
	};
	const rangeParts = (s, start, end) => {
		if (start === undefined || end === undefined) throw new TypeError('start and end are required');
		const x = toIntlMathematicalValue(start), y = toIntlMathematicalValue(end);
		if (x === 'NaN' || y === 'NaN') throw new RangeError('Invalid range: NaN');
		const a = s.formatter(x), b = s.formatter(y);
		const signs = native.rangeSigns(s.dataLocale);
		const tag = (parts, source) => parts.map((p) => ({ type: p.type, value: p.value, source }));
		if (joinParts(a) === joinParts(b)) {
			return [{ type: 'approximatelySign', value: signs.approximately, source: 'shared' }, ...tag(a, 'shared')];
		}
		const pa = splitAffixes(a), pb = splitAffixes(b);
		const separator = (spaced) => ({ type: 'literal', value: spaced && !/^\s/.test(signs.separator) ? ' ' + signs.separator + ' ' : signs.separator, source: 'shared' });
		if (s.style === 'unit') {
			// The unit is said once, after the range, in the end's plural.
			const middle = (p) => joinParts([...p.prefix, ...p.suffix].filter((q) => q.type === 'minusSign' || q.type === 'plusSign'));
			const repeated = middle(pa) !== '' || middle(pb) !== '';
			const startParts = [...pa.prefix.filter((q) => q.type !== 'unit' && q.type !== 'literal'), ...pa.core];
			return [...tag(startParts, 'startRange'), separator(repeated), ...tag([...pb.prefix, ...pb.core], 'endRange'), ...tag(pb.suffix, 'shared')];
		}
		const affixA = joinParts([...pa.prefix, ...pa.suffix]), affixB = joinParts([...pb.prefix, ...pb.suffix]);
		if (affixA === affixB && [...affixA].length > 1) {
			return [...tag(pa.prefix, 'shared'), ...tag(pa.core, 'startRange'), separator(false), ...tag(pb.core, 'endRange'), ...tag(pb.suffix, 'shared')];
		}
		return [...tag(a, 'startRange'), separator(affixA !== '' || affixB !== ''), ...tag(b, 'endRange')];
	};

	// --- Collator ------------------------------------------------------------

	const collatorSlots = makeSlots();
	const collatorKeyData = (locale, key) => {
		switch (key) {
			case 'co': return [null];
			case 'kn': return ['false', 'true'];
			case 'kf': return ['false', 'lower', 'upper'];
		}
		return [null];
	};

	const initializeCollator = (locales, options) => {
		const requested = canonicalizeLocaleList(locales);
		options = coerceOptionsToObject(options);
		const owner = 'Intl.Collator';
		const usage = getOption(options, 'usage', 'string', ['sort', 'search'], 'sort', owner);
		const opt = ObjectCreate(null);
		opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
		const collation = getOption(options, 'collation', 'string', undefined, undefined);
		if (collation !== undefined && !isTypeSequence(collation)) throw new RangeError(`Invalid collation : ${collation}`);
		opt.co = collation;
		let numeric = getOption(options, 'numeric', 'boolean', undefined, undefined);
		if (numeric !== undefined) numeric = toText(numeric);
		opt.kn = numeric;
		opt.kf = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined, owner);
		const r = resolveLocale(requested, opt, ['co', 'kf', 'kn'], collatorKeyData);
		const s = record({
			locale: r.locale, dataLocale: r.dataLocale, usage,
			collation: r.co === null ? 'default' : r.co,
			numeric: r.kn === 'true',
			caseFirst: r.kf === null ? 'false' : r.kf,
		});
		let sensitivity = getOption(options, 'sensitivity', 'string', ['base', 'accent', 'case', 'variant'], undefined, owner);
		if (sensitivity === undefined) sensitivity = 'variant';
		s.sensitivity = sensitivity;
		s.ignorePunctuation = getOption(options, 'ignorePunctuation', 'boolean', undefined, false);
		s.compare = native.collator(s);
		return s;
	};

	const thisCollator = (c, method) => {
		const s = collatorSlots.get(c);
		if (s === undefined) throw new TypeError(`Method Intl.Collator.prototype.${method} called on incompatible receiver ${receiverText(c)}`);
		return s;
	};

	function Collator(locales = undefined, options = undefined) {
		const target = new.target === undefined ? Collator : new.target;
		const proto = isObject(target.prototype) ? target.prototype : Collator.prototype;
		const c = ObjectCreate(proto);
		collatorSlots.set(c, initializeCollator(locales, options));
		return c;
	}
	makeConstructor(Collator, 0, 'Intl.Collator');
	methods(Collator.prototype, {
		resolvedOptions() {
			const s = thisCollator(this, 'resolvedOptions');
			return {
				locale: s.locale, usage: s.usage, sensitivity: s.sensitivity, ignorePunctuation: s.ignorePunctuation,
				collation: s.collation, numeric: s.numeric, caseFirst: s.caseFirst,
			};
		},
	});
	defineProperty(Collator.prototype, 'compare', {
		get: Object.getOwnPropertyDescriptor({ get compare() {
			const s = thisCollator(this, 'compare');
			if (s.boundCompare === undefined) {
				const compare = s.compare;
				s.boundCompare = anonymous((x, y) => compare(toText(x), toText(y)));
			}
			return s.boundCompare;
		} }, 'compare').get,
		enumerable: false, configurable: true,
	});

	// --- PluralRules -----------------------------------------------------------

	const pluralSlots = makeSlots();
	const thisPluralRules = (p, method) => {
		const s = pluralSlots.get(p);
		if (s === undefined) throw new TypeError(`Method Intl.PluralRules.prototype.${method} called on incompatible receiver ${receiverText(p)}`);
		return s;
	};
	class PluralRules {
		constructor(locales = undefined, options = undefined) {
			const requested = canonicalizeLocaleList(locales);
			options = coerceOptionsToObject(options);
			const opt = ObjectCreate(null);
			const owner = 'Intl.PluralRules';
			opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
			const type = getOption(options, 'type', 'string', ['cardinal', 'ordinal'], 'cardinal', owner);
			const notation = getOption(options, 'notation', 'string', ['standard', 'scientific', 'engineering', 'compact'], 'standard', owner);
			const compactDisplay = getOption(options, 'compactDisplay', 'string', ['short', 'long'], 'short', owner);
			const s = record({ type, notation });
			if (notation === 'compact') s.compactDisplay = compactDisplay;
			setDigitOptions(s, options, 0, 3, notation);
			const r = resolveLocale(requested, opt, [], () => [null]);
			s.locale = r.locale;
			s.dataLocale = r.dataLocale;
			s.style = 'decimal';
			s.useGrouping = false;
			s.signDisplay = 'auto';
			s.formatter = native.numberFormatter(s);
			s.select = native.pluralRules(s);
			pluralSlots.set(this, s);
		}
		select(n) {
			const s = thisPluralRules(this, 'select');
			return s.select(numberText(NumberValue(n)));
		}
		selectRange(start, end) {
			const s = thisPluralRules(this, 'selectRange');
			if (start === undefined || end === undefined) throw new TypeError('start and end are required');
			const x = NumberValue(start), y = NumberValue(end);
			if (Number.isNaN(x) || Number.isNaN(y)) throw new RangeError('Invalid range: NaN');
			return s.select(numberText(y));
		}
		resolvedOptions() {
			const s = thisPluralRules(this, 'resolvedOptions');
			const out = { locale: s.locale, type: s.type, notation: s.notation };
			if (s.compactDisplay !== undefined) createData(out, 'compactDisplay', s.compactDisplay);
			createData(out, 'minimumIntegerDigits', s.minimumIntegerDigits);
			for (const key of ['minimumFractionDigits', 'maximumFractionDigits', 'minimumSignificantDigits', 'maximumSignificantDigits']) {
				if (s[key] !== undefined) createData(out, key, s[key]);
			}
			createData(out, 'pluralCategories', native.pluralCategories(s));
			for (const key of ['roundingIncrement', 'roundingMode', 'roundingPriority', 'trailingZeroDisplay']) createData(out, key, s[key]);
			return out;
		}
	}
	makeConstructor(PluralRules, 0, 'Intl.PluralRules');
	for (const key of ['select', 'selectRange', 'resolvedOptions']) {
		defineProperty(PluralRules.prototype, key, { enumerable: false });
	}


	// --- DateTimeFormat ------------------------------------------------------

	const dateTimeFormatSlots = makeSlots();
	const dateFields = [
		['weekday', ['narrow', 'short', 'long']], ['era', ['narrow', 'short', 'long']], ['year', ['2-digit', 'numeric']],
		['month', ['2-digit', 'numeric', 'narrow', 'short', 'long']], ['day', ['2-digit', 'numeric']],
		['dayPeriod', ['narrow', 'short', 'long']], ['hour', ['2-digit', 'numeric']], ['minute', ['2-digit', 'numeric']],
		['second', ['2-digit', 'numeric']], ['fractionalSecondDigits'],
		['timeZoneName', ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']],
	];
	const dateKeyData = (locale, key) => {
		switch (key) {
			case 'ca': return ['gregory'];
			case 'nu': return native.numberingSystems;
			case 'hc': return [null, 'h11', 'h12', 'h23', 'h24'];
		}
		return [null];
	};

	const defaultTimeZone = (() => {
		const c = typeof defaultTimeZoneWanted === 'string' && defaultTimeZoneWanted !== '' ? native.canonicalTimeZone(defaultTimeZoneWanted) : undefined;
		return c === undefined ? 'UTC' : c;
	})();

	// createDateTimeFormat is ECMA-402's CreateDateTimeFormat; required
	// and defaults say which fields the caller needs and adds.
	const createDateTimeFormat = (locales, options, required, defaults) => {
		const requested = canonicalizeLocaleList(locales);
		options = coerceOptionsToObject(options);
		const owner = 'Intl.DateTimeFormat';
		const opt = ObjectCreate(null);
		opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
		const calendar = getOption(options, 'calendar', 'string', undefined, undefined);
		if (calendar !== undefined && !isTypeSequence(calendar)) throw new RangeError(`Invalid calendar : ${calendar}`);
		opt.ca = calendar;
		const numberingSystem = getOption(options, 'numberingSystem', 'string', undefined, undefined);
		if (numberingSystem !== undefined && !isTypeSequence(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
		opt.nu = numberingSystem;
		const hour12 = getOption(options, 'hour12', 'boolean', undefined, undefined);
		let hourCycle = getOption(options, 'hourCycle', 'string', ['h11', 'h12', 'h23', 'h24'], undefined, owner);
		if (hour12 !== undefined) hourCycle = null;
		opt.hc = hourCycle;
		const r = resolveLocale(requested, opt, ['ca', 'hc', 'nu'], dateKeyData);
		const s = record({ locale: r.locale, dataLocale: r.dataLocale, calendar: r.ca, numberingSystem: r.nu });
		let timeZone = options.timeZone;
		if (timeZone === undefined) timeZone = defaultTimeZone;
		else {
			timeZone = toText(timeZone);
			const c = native.canonicalTimeZone(timeZone);
			if (c === undefined) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
			timeZone = c;
		}
		s.timeZone = timeZone;
		const f = ObjectCreate(null);
		let hasExplicit = false;
		for (const [prop, values] of dateFields) {
			const value = prop === 'fractionalSecondDigits'
				? getNumberOption(options, prop, 1, 3, undefined)
				: getOption(options, prop, 'string', values, undefined, owner);
			f[prop] = value;
			if (value !== undefined) hasExplicit = true;
		}
		getOption(options, 'formatMatcher', 'string', ['basic', 'best fit'], 'best fit', owner);
		const dateStyle = getOption(options, 'dateStyle', 'string', ['full', 'long', 'medium', 'short'], undefined, owner);
		const timeStyle = getOption(options, 'timeStyle', 'string', ['full', 'long', 'medium', 'short'], undefined, owner);
		if (dateStyle !== undefined || timeStyle !== undefined) {
			if (hasExplicit) throw new TypeError(`Can't set option ${dateFields.find(([p]) => f[p] !== undefined)[0]} when ${dateStyle !== undefined ? 'dateStyle' : 'timeStyle'} is used`);
			if (required === 'date' && timeStyle !== undefined) throw new TypeError('Invalid option : timeStyle');
			if (required === 'time' && dateStyle !== undefined) throw new TypeError('Invalid option : dateStyle');
		} else {
			let needDefaults = true;
			if (required === 'date' || required === 'any') {
				for (const p of ['weekday', 'year', 'month', 'day']) if (f[p] !== undefined) needDefaults = false;
			}
			if (required === 'time' || required === 'any') {
				for (const p of ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits']) if (f[p] !== undefined) needDefaults = false;
			}
			if (needDefaults && (defaults === 'date' || defaults === 'all')) f.year = f.month = f.day = 'numeric';
			if (needDefaults && (defaults === 'time' || defaults === 'all')) f.hour = f.minute = f.second = 'numeric';
		}
		const cycles = native.hourCycles(r.dataLocale);
		let hc = r.hc;
		if (hour12 !== undefined) hc = hour12 ? cycles.h12 : cycles.h24;
		else if (hc === null || hc === undefined) hc = cycles.default;
		const made = native.dateTimeFormatter({
			dataLocale: r.dataLocale, timeZone, hourCycle: hc, dateStyle, timeStyle,
			weekday: f.weekday, era: f.era, year: f.year, month: f.month, day: f.day, dayPeriod: f.dayPeriod,
			hour: f.hour, minute: f.minute, second: f.second, fractionalSecondDigits: f.fractionalSecondDigits,
			timeZoneName: f.timeZoneName, numberingSystem: s.numberingSystem,
		});
		s.formatter = made.format;
		const shown = made.components;
		if (shown.hour !== undefined || timeStyle !== undefined) {
			s.hourCycle = hc;
			s.hour12 = hc === 'h11' || hc === 'h12';
		}
		if (dateStyle !== undefined || timeStyle !== undefined) {
			s.dateStyle = dateStyle;
			s.timeStyle = timeStyle;
		} else {
			for (const [prop] of dateFields) {
				if (prop === 'fractionalSecondDigits') s[prop] = f[prop];
				else if (prop === 'era') s.era = f.era;
				else if (shown[prop] !== undefined) s[prop] = shown[prop];
			}
		}
		return s;
	};

	const timeClip = (t) => {
		if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) return NaN;
		return Math.trunc(t) + 0;
	};
	const dateParts = (s, date) => {
		const x = timeClip(date === undefined ? Date.now() : NumberValue(date));
		if (Number.isNaN(x)) throw new RangeError('Invalid time value');
		return s.formatter(x);
	};

	// dateText joins a date's parts as V8 does for format and the
	// toLocale methods: with a space for CLDR's narrow no-break space,
	// which formatToParts keeps.
	const dateText = (parts) => joinParts(parts).replace(/\u202f/g, ' ');

	const thisDateTimeFormat = (dtf, method) => {
		// format and resolvedOptions unwrap an object the constructor,
		// called as a function, chained to a new DateTimeFormat.
		if ((method === 'format' || method === 'resolvedOptions') && !dateTimeFormatSlots.has(dtf) && isObject(dtf) && hasInstance.call(DateTimeFormat, dtf)) dtf = dtf[fallbackSymbol];
		const s = dateTimeFormatSlots.get(dtf);
		if (s === undefined) throw new TypeError(`Method Intl.DateTimeFormat.prototype.${method} called on incompatible receiver ${receiverText(dtf)}`);
		return s;
	};

	function DateTimeFormat(locales = undefined, options = undefined) {
		const target = new.target === undefined ? DateTimeFormat : new.target;
		const proto = isObject(target.prototype) ? target.prototype : DateTimeFormat.prototype;
		const dtf = ObjectCreate(proto);
		dateTimeFormatSlots.set(dtf, createDateTimeFormat(locales, options, 'any', 'date'));
		// ChainDateTimeFormat (normative optional): called as a function
		// on a DateTimeFormat, the constructor hangs the new one on it.
		if (new.target === undefined && isObject(this) && hasInstance.call(DateTimeFormat, this)) {
			defineProperty(this, fallbackSymbol, { value: dtf, writable: false, enumerable: false, configurable: false });
			return this;
		}
		return dtf;
	}
	makeConstructor(DateTimeFormat, 0, 'Intl.DateTimeFormat');
	methods(DateTimeFormat.prototype, {
		formatToParts(date) {
			const s = thisDateTimeFormat(this, 'formatToParts');
			return dateParts(s, date);
		},
		formatRange(startDate, endDate) {
			const s = thisDateTimeFormat(this, 'formatRange');
			if (startDate === undefined || endDate === undefined) throw new TypeError('startDate and endDate are required');
			const a = joinParts(dateParts(s, startDate)), b = joinParts(dateParts(s, endDate));
			return a === b ? a : a + ' – ' + b;
		},
		formatRangeToParts(startDate, endDate) {
			const s = thisDateTimeFormat(this, 'formatRangeToParts');
			if (startDate === undefined || endDate === undefined) throw new TypeError('startDate and endDate are required');
			const a = dateParts(s, startDate), b = dateParts(s, endDate);
			const tag = (parts, source) => parts.map((p) => ({ type: p.type, value: p.value, source }));
			if (joinParts(a) === joinParts(b)) return tag(a, 'shared');
			return [...tag(a, 'startRange'), { type: 'literal', value: ' – ', source: 'shared' }, ...tag(b, 'endRange')];
		},
		resolvedOptions() {
			const s = thisDateTimeFormat(this, 'resolvedOptions');
			const out = {};
			for (const key of ['locale', 'calendar', 'numberingSystem', 'timeZone', 'hourCycle', 'hour12', 'weekday', 'era', 'year',
				'month', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits', 'timeZoneName', 'dateStyle', 'timeStyle']) {
				if (s[key] !== undefined) createData(out, key, s[key]);
			}
			return out;
		},
	});
	defineProperty(DateTimeFormat.prototype, 'format', {
		get: Object.getOwnPropertyDescriptor({ get format() {
			const s = thisDateTimeFormat(this, 'format');
			if (s.boundFormat === undefined) s.boundFormat = anonymous((date) => dateText(dateParts(s, date)));
			return s.boundFormat;
		} }, 'format').get,
		enumerable: false, configurable: true,
	});


	// --- RelativeTimeFormat ----------------------------------------------------

	const relativeSlots = makeSlots();
	const relativeUnits = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];
	const thisRelative = (o, method) => {
		const s = relativeSlots.get(o);
		if (s === undefined) throw new TypeError(`Method Intl.RelativeTimeFormat.prototype.${method} called on incompatible receiver ${receiverText(o)}`);
		return s;
	};
	const relativeParts = (s, value, unit) => {
		value = NumberValue(value);
		unit = toText(unit);
		if (!Number.isFinite(value)) throw new RangeError('Invalid time value');
		let singular = unit;
		if (!relativeUnits.includes(singular) && singular.endsWith('s') && relativeUnits.includes(singular.slice(0, -1))) singular = singular.slice(0, -1);
		if (!relativeUnits.includes(singular)) throw new RangeError(`Invalid unit argument for format() '${unit}'`);
		return s.formatter(numberText(value), singular);
	};
	class RelativeTimeFormat {
		constructor(locales = undefined, options = undefined) {
			const requested = canonicalizeLocaleList(locales);
			options = coerceOptionsToObject(options);
			const owner = 'Intl.RelativeTimeFormat';
			const opt = ObjectCreate(null);
			opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
			const numberingSystem = getOption(options, 'numberingSystem', 'string', undefined, undefined);
			if (numberingSystem !== undefined && !isTypeSequence(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
			opt.nu = numberingSystem;
			const r = resolveLocale(requested, opt, ['nu'], numberKeyData);
			const s = record({ locale: r.locale, dataLocale: r.dataLocale, numberingSystem: r.nu });
			s.style = getOption(options, 'style', 'string', ['long', 'short', 'narrow'], 'long', owner);
			s.numeric = getOption(options, 'numeric', 'string', ['always', 'auto'], 'always', owner);
			s.formatter = native.relativeTimeFormatter(s);
			relativeSlots.set(this, s);
		}
		format(value, unit) {
			return joinParts(relativeParts(thisRelative(this, 'format'), value, unit));
		}
		formatToParts(value, unit) {
			return relativeParts(thisRelative(this, 'formatToParts'), value, unit);
		}
		resolvedOptions() {
			const s = thisRelative(this, 'resolvedOptions');
			return { locale: s.locale, style: s.style, numeric: s.numeric, numberingSystem: s.numberingSystem };
		}
	}
	makeConstructor(RelativeTimeFormat, 0, 'Intl.RelativeTimeFormat');
	for (const key of ['format', 'formatToParts', 'resolvedOptions']) defineProperty(RelativeTimeFormat.prototype, key, { enumerable: false });

	// --- ListFormat --------------------------------------------------------------

	const listSlots = makeSlots();
	const thisList = (o, method) => {
		const s = listSlots.get(o);
		if (s === undefined) throw new TypeError(`Method Intl.ListFormat.prototype.${method} called on incompatible receiver ${receiverText(o)}`);
		return s;
	};
	const stringList = (iterable) => {
		const list = [];
		if (iterable === undefined) return list;
		for (const item of iterable) {
			if (typeof item !== 'string') throw new TypeError(`Iterable yielded ${receiverText(item)} which is not a string`);
			list.push(item);
		}
		return list;
	};
	// Spanish writes "e" for "y" before an i sound, "u" for "o" before an o.
	const spanishLiteral = (literal, next) => {
		if (literal === ' y ' && /^(i|hi$|hi[^ae])/i.test(next)) return ' e ';
		if (literal === ' o ' && /^((o|ho|8)|11$)/i.test(next)) return ' u ';
		return literal;
	};
	const listParts = (s, list) => {
		const p = s.patterns;
		const out = [];
		const n = list.length;
		for (let i = 0; i < n; i++) {
			if (i > 0) {
				let literal = n === 2 ? p.pair : i === 1 ? p.start : i === n - 1 ? p.end : p.middle;
				if (s.spanish) literal = spanishLiteral(literal, list[i]);
				out.push({ type: 'literal', value: literal });
			}
			out.push({ type: 'element', value: list[i] });
		}
		return out;
	};
	class ListFormat {
		constructor(locales = undefined, options = undefined) {
			const requested = canonicalizeLocaleList(locales);
			options = getOptionsObject(options);
			const owner = 'Intl.ListFormat';
			const opt = ObjectCreate(null);
			opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
			const r = resolveLocale(requested, opt, [], () => [null]);
			const s = record({ locale: r.locale });
			s.type = getOption(options, 'type', 'string', ['conjunction', 'disjunction', 'unit'], 'conjunction', owner);
			s.style = getOption(options, 'style', 'string', ['long', 'short', 'narrow'], 'long', owner);
			s.patterns = native.listPatterns(r.dataLocale, s.type, s.style);
			s.spanish = r.dataLocale.startsWith('es');
			listSlots.set(this, s);
		}
		format(list) {
			const s = thisList(this, 'format');
			return joinParts(listParts(s, stringList(list)));
		}
		formatToParts(list) {
			const s = thisList(this, 'formatToParts');
			return listParts(s, stringList(list));
		}
		resolvedOptions() {
			const s = thisList(this, 'resolvedOptions');
			return { locale: s.locale, type: s.type, style: s.style };
		}
	}
	makeConstructor(ListFormat, 0, 'Intl.ListFormat');
	for (const key of ['format', 'formatToParts', 'resolvedOptions']) defineProperty(ListFormat.prototype, key, { enumerable: false });


	// --- DisplayNames ------------------------------------------------------------

	const displayNamesSlots = makeSlots();
	const dateTimeFields = ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName'];
	// A unicode_language_id: language, script, region and variants, with
	// no variant twice.
	const languageId = /^([a-z]{2,3}|[a-z]{5,8})(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?((-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)$/i;
	// canonicalCode is CanonicalCodeForDisplayNames: code checked against
	// its type's grammar and spelled as its type's codes are.
	const canonicalCode = (type, code) => {
		const invalid = () => new RangeError(`invalid_argument: ${code} is not a valid ${type} code`);
		switch (type) {
			case 'language': {
				const m = languageId.exec(code);
				if (!m) throw invalid();
				const variants = m[5] ? m[5].slice(1).toLowerCase().split('-') : [];
				if (new Set(variants).size !== variants.length) throw invalid();
				return canonicalize(code);
			}
			case 'region':
				if (!/^([a-z]{2}|[0-9]{3})$/i.test(code)) throw invalid();
				return code.toUpperCase();
			case 'script':
				if (!/^[a-z]{4}$/i.test(code)) throw invalid();
				return code[0].toUpperCase() + code.slice(1).toLowerCase();
			case 'currency':
				if (!/^[a-z]{3}$/i.test(code)) throw invalid();
				return code.toUpperCase();
			case 'calendar':
				if (!isTypeSequence(code)) throw invalid();
				return code.toLowerCase();
			default:
				if (!dateTimeFields.includes(code)) throw invalid();
				return code;
		}
	};
	class DisplayNames {
		constructor(locales, options) {
			const requested = canonicalizeLocaleList(locales);
			if (options === undefined) throw new TypeError('Intl.DisplayNames needs options with a type');
			options = getOptionsObject(options);
			const owner = 'Intl.DisplayNames';
			const opt = ObjectCreate(null);
			opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
			const r = resolveLocale(requested, opt, [], () => [null]);
			const style = getOption(options, 'style', 'string', ['narrow', 'short', 'long'], 'long', owner);
			const type = getOption(options, 'type', 'string', ['language', 'region', 'script', 'currency', 'calendar', 'dateTimeField'], undefined, owner);
			if (type === undefined) throw new TypeError('Intl.DisplayNames needs the option type');
			const fallback = getOption(options, 'fallback', 'string', ['code', 'none'], 'code', owner);
			const languageDisplay = getOption(options, 'languageDisplay', 'string', ['dialect', 'standard'], 'dialect', owner);
			displayNamesSlots.set(this, { locale: r.locale, dataLocale: r.dataLocale, style, type, fallback, languageDisplay });
		}
		of(code) {
			const s = displayNamesSlots.get(this);
			if (s === undefined) throw new TypeError(`Method Intl.DisplayNames.prototype.of called on incompatible receiver ${receiverText(this)}`);
			code = canonicalCode(s.type, toText(code));
			const name = native.displayName(s, code);
			if (name !== undefined) return name;
			return s.fallback === 'code' ? code : undefined;
		}
		resolvedOptions() {
			const s = displayNamesSlots.get(this);
			if (s === undefined) throw new TypeError(`Method Intl.DisplayNames.prototype.resolvedOptions called on incompatible receiver ${receiverText(this)}`);
			const o = { locale: s.locale, style: s.style, type: s.type, fallback: s.fallback };
			if (s.type === 'language') createData(o, 'languageDisplay', s.languageDisplay);
			return o;
		}
	}
	makeConstructor(DisplayNames, 2, 'Intl.DisplayNames');
	for (const key of ['of', 'resolvedOptions']) defineProperty(DisplayNames.prototype, key, { enumerable: false });

	// --- Segmenter ---------------------------------------------------------------

	const segmenterSlots = makeSlots(), segmentsSlots = makeSlots(), segmentIteratorSlots = makeSlots();
	const thisSegmenter = (o, method) => {
		const s = segmenterSlots.get(o);
		if (s === undefined) throw new TypeError(`Method Intl.Segmenter.prototype.${method} called on incompatible receiver ${receiverText(o)}`);
		return s;
	};
	// breaks are where a Segments object's string breaks, found the first
	// time they are asked for.
	const breaks = (s) => {
		if (s.ends === undefined) {
			const b = native.segment(s.string, s.granularity);
			s.ends = b.ends;
			s.wordLike = b.wordLike;
		}
		return s;
	};
	// segmentData is CreateSegmentDataObject for the segment that ends at
	// ends[i].
	const segmentData = (s, i) => {
		const start = i === 0 ? 0 : s.ends[i - 1], end = s.ends[i];
		const o = { segment: s.string.slice(start, end), index: start, input: s.string };
		if (s.granularity === 'word') createData(o, 'isWordLike', s.wordLike[i]);
		return o;
	};
	// segmentAt finds the segment holding code unit n by binary search.
	const segmentAt = (s, n) => {
		let lo = 0, hi = s.ends.length - 1;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (s.ends[mid] <= n) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	const SegmentsPrototype = {};
	methods(SegmentsPrototype, {
		containing(index) {
			const s = segmentsSlots.get(this);
			if (s === undefined) throw new TypeError('Method %Segments.prototype%.containing called on incompatible receiver');
			let n = +index; // ToNumber: a BigInt or a Symbol throws
			n = Number.isNaN(n) ? 0 : Math.trunc(n);
			if (n < 0 || n >= s.string.length) return undefined;
			breaks(s);
			return segmentData(s, segmentAt(s, n));
		},
		[Symbol.iterator]() {
			const s = segmentsSlots.get(this);
			if (s === undefined) throw new TypeError('Method %Segments.prototype%[@@iterator] called on incompatible receiver');
			const it = ObjectCreate(SegmentIteratorPrototype);
			segmentIteratorSlots.set(it, { segments: s, next: 0 });
			return it;
		},
	});
	const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
	const SegmentIteratorPrototype = ObjectCreate(IteratorPrototype);
	methods(SegmentIteratorPrototype, {
		next() {
			const it = segmentIteratorSlots.get(this);
			if (it === undefined) throw new TypeError('Method %SegmentIterator.prototype%.next called on incompatible receiver');
			const s = breaks(it.segments);
			if (it.next >= s.ends.length) return { value: undefined, done: true };
			return { value: segmentData(s, it.next++), done: false };
		},
	});
	toStringTag(SegmentIteratorPrototype, 'Segmenter String Iterator');
	class Segmenter {
		constructor(locales = undefined, options = undefined) {
			const requested = canonicalizeLocaleList(locales);
			options = getOptionsObject(options);
			const owner = 'Intl.Segmenter';
			const opt = ObjectCreate(null);
			opt.localeMatcher = getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', owner);
			const r = resolveLocale(requested, opt, [], () => [null]);
			const granularity = getOption(options, 'granularity', 'string', ['grapheme', 'word', 'sentence'], 'grapheme', owner);
			segmenterSlots.set(this, { locale: r.locale, granularity });
		}
		segment(string) {
			const s = thisSegmenter(this, 'segment');
			const segments = ObjectCreate(SegmentsPrototype);
			segmentsSlots.set(segments, { string: toText(string), granularity: s.granularity });
			return segments;
		}
		resolvedOptions() {
			const s = thisSegmenter(this, 'resolvedOptions');
			return { locale: s.locale, granularity: s.granularity };
		}
	}
	makeConstructor(Segmenter, 0, 'Intl.Segmenter');
	for (const key of ['segment', 'resolvedOptions']) defineProperty(Segmenter.prototype, key, { enumerable: false });

	// --- Locale ------------------------------------------------------------------

	const localeKeys = ['ca', 'co', 'hc', 'kf', 'kn', 'nu'];
	// splitTag parts a canonical tag: its language id, the keywords of its
	// -u- extension (key -> value, '' for none), and the rest.
	const splitTag = (tag) => {
		const [noExtension, extension] = removeUnicodeExtension(tag);
		const keywords = new Map();
		const attributes = [];
		if (extension) {
			const subtags = extension.split('-').slice(2);
			let key = null;
			for (const sub of subtags) {
				if (sub.length === 2) { key = sub; if (!keywords.has(key)) keywords.set(key, ''); }
				else if (key === null) attributes.push(sub);
				else keywords.set(key, keywords.get(key) ? keywords.get(key) + '-' + sub : sub);
			}
		}
		return { noExtension, keywords, attributes };
	};
	const baseNameOf = (tag) => {
		const parts = tag.split('-');
		let i = 1;
		while (i < parts.length && parts[i].length !== 1) i++;
		return parts.slice(0, i).join('-');
	};
	const withKeywords = (noExtension, attributes, keywords) => {
		const keys = [...keywords.keys()].sort();
		let ext = attributes.join('-');
		for (const k of keys) {
			const v = keywords.get(k);
			ext += (ext ? '-' : '') + k + (v && v !== 'true' ? '-' + v : '');
		}
		if (!ext) return noExtension;
		// The -u- extension goes among the others in singleton order.
		const parts = noExtension.split('-');
		let i = 1;
		while (i < parts.length && parts[i].length !== 1) i++;
		while (i < parts.length && parts[i] !== 'x' && parts[i] < 'u') {
			i++;
			while (i < parts.length && parts[i].length !== 1) i++;
		}
		return [...parts.slice(0, i), 'u', ext, ...parts.slice(i)].join('-');
	};
	class Locale {
		constructor(tag, options = undefined) {
			if (typeof tag !== 'string' && !isObject(tag)) throw new TypeError('First argument to Intl.Locale constructor can\'t be empty or missing');
			tag = localeSlots.has(tag) ? localeSlots.get(tag).tag : toText(tag);
			options = coerceOptionsToObject(options);
			if (native.canonicalizeTag(tag) === undefined) throw new RangeError('Incorrect locale information provided');
			const language = getOption(options, 'language', 'string', undefined, undefined);
			if (language !== undefined && !/^([a-z]{2,3}|[a-z]{5,8})$/i.test(language)) throw new RangeError('Incorrect locale information provided');
			const script = getOption(options, 'script', 'string', undefined, undefined);
			if (script !== undefined && !/^[a-z]{4}$/i.test(script)) throw new RangeError('Incorrect locale information provided');
			const region = getOption(options, 'region', 'string', undefined, undefined);
			if (region !== undefined && !/^([a-z]{2}|\d{3})$/i.test(region)) throw new RangeError('Incorrect locale information provided');
			const variantsOption = getOption(options, 'variants', 'string', undefined, undefined);
			if (variantsOption !== undefined) {
				const list = variantsOption.toLowerCase().split('-');
				if (!list.every((v) => /^([a-z0-9]{5,8}|[0-9][a-z0-9]{3})$/.test(v)) || new Set(list).size !== list.length) throw new RangeError('Incorrect locale information provided');
			}
			tag = canonicalize(tag);
			if (language !== undefined || script !== undefined || region !== undefined || variantsOption !== undefined) {
				const { noExtension } = splitTag(tag);
				const base = baseNameOf(noExtension).split('-');
				const rest = noExtension.slice(baseNameOf(noExtension).length);
				let lang = base[0], scr, reg, i = 1;
				if (base[i] && base[i].length === 4) scr = base[i++];
				if (base[i] && (base[i].length === 2 || /^\d{3}$/.test(base[i]))) reg = base[i++];
				const variants = variantsOption !== undefined ? variantsOption.split('-') : base.slice(i);
				if (language !== undefined) lang = language;
				if (script !== undefined) scr = script;
				if (region !== undefined) reg = region;
				const rebuilt = [lang, scr, reg, ...variants].filter((x) => x !== undefined).join('-');
				tag = canonicalize(rebuilt + rest + tag.slice(noExtension.length));
			}
			const opt = ObjectCreate(null);
			const typeOption = (name) => {
				const v = getOption(options, name, 'string', undefined, undefined);
				if (v !== undefined && !isTypeSequence(v)) throw new RangeError(`Incorrect locale information provided`);
				return v;
			};
			opt.ca = typeOption('calendar');
			opt.co = typeOption('collation');
			opt.hc = getOption(options, 'hourCycle', 'string', ['h11', 'h12', 'h23', 'h24'], undefined, 'Intl.Locale');
			opt.kf = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined, 'Intl.Locale');
			const kn = getOption(options, 'numeric', 'boolean', undefined, undefined);
			opt.kn = kn === undefined ? undefined : toText(kn);
			opt.nu = typeOption('numberingSystem');
			const { noExtension, keywords, attributes } = splitTag(tag);
			for (const key of localeKeys) {
				if (opt[key] !== undefined) keywords.set(key, opt[key].toLowerCase());
			}
			tag = canonicalize(withKeywords(noExtension, attributes, keywords));
			const final = splitTag(tag).keywords;
			const slot = record({ tag });
			for (const key of localeKeys) {
				if (final.has(key)) slot[key] = final.get(key) === '' ? 'true' : final.get(key);
			}
			localeSlots.set(this, slot);
		}
		maximize() {
			const s = thisLocale(this, 'maximize');
			return new Locale(native.likelySubtags(s.tag, true));
		}
		minimize() {
			const s = thisLocale(this, 'minimize');
			return new Locale(native.likelySubtags(s.tag, false));
		}
		toString() { return thisLocale(this, 'toString').tag; }
		get baseName() { return baseNameOf(splitTag(thisLocale(this, 'baseName').tag).noExtension); }
		get calendar() { return thisLocale(this, 'calendar').ca; }
		get caseFirst() {
			const v = thisLocale(this, 'caseFirst').kf;
			return v === 'true' ? '' : v;
		}
		get collation() { return thisLocale(this, 'collation').co; }
		get hourCycle() { return thisLocale(this, 'hourCycle').hc; }
		get numeric() {
			const v = thisLocale(this, 'numeric').kn;
			return v === 'true' || v === '';
		}
		get numberingSystem() { return thisLocale(this, 'numberingSystem').nu; }
		get language() { return baseNameOf(thisLocale(this, 'language').tag).split('-')[0]; }
		get script() {
			const p = baseNameOf(thisLocale(this, 'script').tag).split('-');
			return /^[a-z]{4}$/i.test(p[1] || '') ? p[1] : undefined;
		}
		get region() {
			const p = baseNameOf(thisLocale(this, 'region').tag).split('-');
			const i = /^[a-z]{4}$/i.test(p[1] || '') ? 2 : 1;
			return p[i] && (p[i].length === 2 || /^\d{3}$/.test(p[i])) ? p[i] : undefined;
		}
		get variants() {
			const p = baseNameOf(thisLocale(this, 'variants').tag).split('-');
			let i = /^[a-z]{4}$/i.test(p[1] || '') ? 2 : 1;
			if (p[i] && (p[i].length === 2 || /^\d{3}$/.test(p[i]))) i++;
			return i < p.length ? p.slice(i).join('-') : undefined;
		}
	}
	const thisLocale = (o, method) => {
		const s = localeSlots.get(o);
		if (s === undefined) throw new TypeError(`Method Intl.Locale.prototype.${method} called on incompatible receiver ${receiverText(o)}`);
		return s;
	};
	defineProperty(Locale, 'length', { value: 1, configurable: true });
	defineProperty(Locale, 'prototype', { writable: false, enumerable: false, configurable: false });
	toStringTag(Locale.prototype, 'Intl.Locale');
	for (const key of Reflect.ownKeys(Locale.prototype)) {
		if (key !== 'constructor' && key !== Symbol.toStringTag) defineProperty(Locale.prototype, key, { enumerable: false });
	}

	// --- Intl ----------------------------------------------------------------

	const Intl = {};
	toStringTag(Intl, 'Intl');
	methods(Intl, {
		getCanonicalLocales(locales) {
			return canonicalizeLocaleList(locales);
		},
		supportedValuesOf(key) {
			key = toText(key);
			const values = native.supportedValues(key);
			if (values === undefined) throw new RangeError(`Invalid key : ${key}`);
			return values;
		},
	});
	for (const [name, C] of [['Collator', Collator], ['DateTimeFormat', DateTimeFormat], ['DisplayNames', DisplayNames], ['ListFormat', ListFormat], ['Locale', Locale], ['NumberFormat', NumberFormat], ['PluralRules', PluralRules], ['RelativeTimeFormat', RelativeTimeFormat], ['Segmenter', Segmenter]]) {
		defineProperty(Intl, name, { value: C, writable: true, enumerable: false, configurable: true });
	}

	// --- The built-ins' locale-sensitive methods -----------------------------

	// cached keeps the formatter of the default locale and options, and of
	// a locale given alone as a string, so that sorting with localeCompare
	// or formatting in a loop does not build one per call.
	const cached = (make) => {
		const byLocale = new Map();
		return (locales, options) => {
			if (options !== undefined || (locales !== undefined && typeof locales !== 'string')) return make(locales, options);
			const key = locales === undefined ? '' : locales;
			let v = byLocale.get(key);
			if (v === undefined) {
				v = make(locales, options);
				if (byLocale.size < 64) byLocale.set(key, v);
			}
			return v;
		};
	};
	const numberFormatFor = cached((l, o) => initializeNumberFormat(l, o));
	const collatorFor = cached((l, o) => initializeCollator(l, o));
	const dateTimeFormatFor = {
		any: cached((l, o) => createDateTimeFormat(l, o, 'any', 'all')),
		date: cached((l, o) => createDateTimeFormat(l, o, 'date', 'date')),
		time: cached((l, o) => createDateTimeFormat(l, o, 'time', 'time')),
	};

	const repairPrototypes = () => {
		const numberValueOf = Number.prototype.valueOf;
		const bigintValueOf = BigInt.prototype.valueOf;
		methods(Number.prototype, {
			toLocaleString(locales = undefined, options = undefined) {
				const x = numberValueOf.call(this);
				return joinParts(numberParts(numberFormatFor(locales, options), x));
			},
		});
		methods(BigInt.prototype, {
			toLocaleString(locales = undefined, options = undefined) {
				const x = bigintValueOf.call(this);
				return joinParts(numberParts(numberFormatFor(locales, options), x));
			},
		});
		const dateValueOf = Date.prototype.getTime;
		const localeDate = (kind) => function (locales = undefined, options = undefined) {
			const x = dateValueOf.call(this);
			if (Number.isNaN(x)) return 'Invalid Date';
			return dateText(dateParts(dateTimeFormatFor[kind](locales, options), x));
		};
		methods(Date.prototype, {
			toLocaleString: { toLocaleString(locales = undefined, options = undefined) { return localeDate('any').call(this, locales, options); } }.toLocaleString,
			toLocaleDateString: { toLocaleDateString(locales = undefined, options = undefined) { return localeDate('date').call(this, locales, options); } }.toLocaleDateString,
			toLocaleTimeString: { toLocaleTimeString(locales = undefined, options = undefined) { return localeDate('time').call(this, locales, options); } }.toLocaleTimeString,
		});
		// Languages with casing of their own; the others case as String's
		// toUpperCase and toLowerCase do.
		const ownCasing = /^(tr|az|lt)(-|$)/;
		const stringUpper = String.prototype.toUpperCase, stringLower = String.prototype.toLowerCase;
		const localeCase = (self, locales, upper) => {
			if (self === undefined || self === null) throw new TypeError('String.prototype.toLocale' + (upper ? 'Upper' : 'Lower') + 'Case called on null or undefined');
			const s = toText(self);
			const requested = canonicalizeLocaleList(locales);
			const locale = requested.length ? removeUnicodeExtension(requested[0])[0] : defaultLocale;
			if (ownCasing.test(locale)) return native.changeCase(s, locale, upper);
			return (upper ? stringUpper : stringLower).call(s);
		};
		methods(String.prototype, {
			toLocaleUpperCase(locales = undefined) { return localeCase(this, locales, true); },
			toLocaleLowerCase(locales = undefined) { return localeCase(this, locales, false); },
		});
		methods(String.prototype, {
			localeCompare(that, locales = undefined, options = undefined) {
				if (this === undefined || this === null) throw new TypeError('String.prototype.localeCompare called on null or undefined');
				const s = toText(this), t = toText(that);
				return collatorFor(locales, options).compare(s, t);
			},
		});
		methods(Array.prototype, {
			toLocaleString(locales = undefined, options = undefined) {
				const array = toObject(this);
				const len = toLength(array.length);
				let out = '';
				for (let k = 0; k < len; k++) {
					if (k > 0) out += ',';
					const element = array[k];
					if (element !== undefined && element !== null) {
						const f = toObject(element).toLocaleString;
						if (typeof f !== 'function') throw new TypeError('toLocaleString is not a function');
						out += toText(f.call(element, locales, options));
					}
				}
				return out;
			},
		});
	};

	return { Intl, repairPrototypes };
})
