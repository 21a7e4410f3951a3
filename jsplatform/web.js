// Web-standard globals for the sandbox: atob, btoa, TextEncoder, TextDecoder,
// URL, URLSearchParams, structuredClone, crypto, performance, queueMicrotask.
//
// This file is compiled once per process. A run builds these globals only
// when its script first touches one of them (see lazyGlobals), by calling
// the function below in its own realm: everything here is created in that
// realm. The host lends: random bytes, the run's clock, text, which converts
// a value to a string as Web IDL does (a symbol is refused) in JavaScript's
// words when it cannot, and the encodings (base64 both ways and UTF-8
// decoding, in linear time; each answers null where the caller throws); the
// realm's own setTimeout is passed in as it was before the script ran.
(function (randomBytes, now, setTimeoutOfRealm, text, encodings) {
	'use strict';
	const defineProperty = Object.defineProperty;

	function queueMicrotask(callback) {
		if (typeof callback !== 'function') {
			throw new TypeError('The callback of queueMicrotask must be a function.');
		}
		// An exception in a microtask is uncaught, as in Node: it ends the
		// run through a timer that rethrows it.
		Promise.resolve().then(() => callback()).then(undefined, (e) => {
			setTimeoutOfRealm(() => { throw e; }, 0);
		});
	}

	return buildWeb(randomBytes, now);

	function buildWeb(randomBytes, now) {
		const fromCharCode = String.fromCharCode;

		// --- encoding ---------------------------------------------------

		function utf8Encode(s) {
			s = text(s);
			const out = [];
			for (let i = 0; i < s.length; i++) {
				let c = s.charCodeAt(i);
				if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
					const d = s.charCodeAt(i + 1);
					if (d >= 0xdc00 && d <= 0xdfff) {
						c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
						i++;
					}
				}
				if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
				if (c < 0x80) out.push(c);
				else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
				else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
				else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
			}
			return out;
		}

		function utf8Decode(bytes, fatal) {
			const s = encodings.utf8Decode(bytes.buffer, bytes.byteOffset, bytes.byteLength, fatal);
			if (s === null) throw new TypeError('The encoded data was not valid for encoding utf-8');
			return s;
		}

		function viewBytes(input) {
			if (input === undefined) return new Uint8Array(0);
			if (input instanceof ArrayBuffer) return new Uint8Array(input);
			if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
			throw new TypeError('The "input" argument must be an ArrayBuffer or an ArrayBufferView.');
		}

		class TextEncoder {
			get encoding() { return 'utf-8'; }
			encode(input = '') { return new Uint8Array(utf8Encode(input)); }
			encodeInto(source, destination) {
				let read = 0, written = 0;
				for (const ch of text(source)) {
					const bytes = utf8Encode(ch);
					if (written + bytes.length > destination.length) break;
					destination.set(bytes, written);
					written += bytes.length;
					read += ch.length;
				}
				return { read, written };
			}
		}

		class TextDecoder {
			#fatal;
			#ignoreBOM;
			constructor(label = 'utf-8', options = {}) {
				const l = text(label).trim().toLowerCase();
				if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') {
					throw new RangeError(`The "${label}" encoding is not supported`);
				}
				this.#fatal = Boolean(options && options.fatal);
				this.#ignoreBOM = Boolean(options && options.ignoreBOM);
			}
			get encoding() { return 'utf-8'; }
			get fatal() { return this.#fatal; }
			get ignoreBOM() { return this.#ignoreBOM; }
			decode(input) {
				let bytes = viewBytes(input);
				if (!this.#ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
					bytes = bytes.subarray(3);
				}
				return utf8Decode(bytes, this.#fatal);
			}
		}


		function invalidCharacter() {
			const e = new Error('Invalid character');
			e.name = 'InvalidCharacterError';
			return e;
		}

		function btoa(data) {
			if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
			const out = encodings.btoa(text(data));
			if (out === null) throw invalidCharacter();
			return out;
		}

		function atob(data) {
			if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
			const out = encodings.atob(text(data));
			if (out === null) throw invalidCharacter();
			return out;
		}

		// --- URLSearchParams ----------------------------------------------

		const hex = (b) => '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();

		// percentDecode decodes %XX sequences over the UTF-8 bytes of s;
		// malformed sequences stay as written.
		function percentDecode(s) {
			if (s.indexOf('%') < 0) return s;
			const bytes = utf8Encode(s), out = [];
			for (let i = 0; i < bytes.length; i++) {
				const b = bytes[i];
				if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
					out.push(parseInt(fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
					i += 2;
				} else {
					out.push(b);
				}
			}
			return utf8Decode(new Uint8Array(out), false);
		}
		const isHex = (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

		function formEncode(s) {
			let out = '';
			for (const b of utf8Encode(s)) {
				if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ||
					b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f) out += fromCharCode(b);
				else if (b === 0x20) out += '+';
				else out += hex(b);
			}
			return out;
		}

		function parseForm(query) {
			const list = [];
			for (const part of query.split('&')) {
				if (part === '') continue;
				const eq = part.indexOf('=');
				const name = eq < 0 ? part : part.slice(0, eq);
				const value = eq < 0 ? '' : part.slice(eq + 1);
				list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
			}
			return list;
		}

		// The URL a URLSearchParams belongs to, and the hooks by which they
		// keep each other current (set in static blocks, so that no method
		// beyond the standard ones is visible).
		const paramsOwner = new WeakMap();
		let replaceParams, setQueryOf;

		class URLSearchParams {
			#list = [];
			constructor(init = '') {
				if (init instanceof URLSearchParams) {
					this.#list = init.#list.map(([k, v]) => [k, v]);
				} else if (init !== null && typeof init === 'object') {
					if (typeof init[Symbol.iterator] === 'function') {
						for (const pair of init) {
							const p = [...pair];
							if (p.length !== 2) throw new TypeError('Each query pair must be an iterable [name, value] tuple');
							this.#list.push([text(p[0]), text(p[1])]);
						}
					} else {
						for (const key of Object.keys(init)) this.#list.push([key, text(init[key])]);
					}
				} else {
					const s = text(init);
					this.#list = parseForm(s[0] === '?' ? s.slice(1) : s);
				}
			}
			static { replaceParams = (params, query) => { params.#list = parseForm(query); }; }
			#update() {
				const url = paramsOwner.get(this);
				if (url) setQueryOf(url, this.toString());
			}
			get size() { return this.#list.length; }
			append(name, value) { this.#list.push([text(name), text(value)]); this.#update(); }
			delete(name, value) {
				name = text(name);
				this.#list = this.#list.filter(([k, v]) => k !== name || (value !== undefined && v !== text(value)));
				this.#update();
			}
			get(name) {
				name = text(name);
				const found = this.#list.find(([k]) => k === name);
				return found ? found[1] : null;
			}
			getAll(name) { name = text(name); return this.#list.filter(([k]) => k === name).map(([, v]) => v); }
			has(name, value) {
				name = text(name);
				return this.#list.some(([k, v]) => k === name && (value === undefined || v === text(value)));
			}
			set(name, value) {
				name = text(name);
				value = text(value);
				let found = false;
				this.#list = this.#list.filter((pair) => {
					if (pair[0] !== name) return true;
					if (found) return false;
					found = true;
					pair[1] = value;
					return true;
				});
				if (!found) this.#list.push([name, value]);
				this.#update();
			}
			sort() {
				this.#list = this.#list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map(([p]) => p);
				this.#update();
			}
			forEach(callback, thisArg) {
				for (const [k, v] of this.#list) callback.call(thisArg, v, k, this);
			}
			*entries() { for (const [k, v] of this.#list) yield [k, v]; }
			*keys() { for (const [k] of this.#list) yield k; }
			*values() { for (const [, v] of this.#list) yield v; }
			[Symbol.iterator]() { return this.entries(); }
			toString() { return this.#list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&'); }
			get [Symbol.toStringTag]() { return 'URLSearchParams'; }
		}

		// --- URL -----------------------------------------------------------

		const specialPorts = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };
		const isSpecial = (scheme) => Object.prototype.hasOwnProperty.call(specialPorts, scheme);

		// Characters percent-encoded in each component, besides controls and
		// non-ASCII (the WHATWG URL percent-encode sets).
		const fragmentSet = ' "<>`';
		const querySet = ' "#<>';
		const pathSet = ' "#<>?`{}';
		const userinfoSet = pathSet + '/:;=@[\\]^|';

		function encodeSet(s, set, keepPercent = true) {
			let out = '';
			for (const ch of s) {
				const c = ch.codePointAt(0);
				if (c < 0x20 || c === 0x7f || c > 0x7e || set.indexOf(ch) >= 0 || (!keepPercent && ch === '%')) {
					for (const b of utf8Encode(ch)) out += hex(b);
				} else {
					out += ch;
				}
			}
			return out;
		}

		function invalidURL(input) {
			const e = new TypeError('Invalid URL');
			e.code = 'ERR_INVALID_URL';
			e.input = input;
			return e;
		}

		const forbiddenHost = /[\u0000\t\n\r #/:<>?@[\\\]^|%]/;

		function parseHost(host, special, input) {
			if (host[0] === '[') {
				if (host[host.length - 1] !== ']' || !/^\[[0-9A-Fa-f:.]+\]$/.test(host)) throw invalidURL(input);
				return host.toLowerCase();
			}
			if (!special) {
				if (/[\u0000\t\n\r #/:<>?@[\\\]^|]/.test(host)) throw invalidURL(input);
				return encodeSet(host, '');
			}
			const h = percentDecode(host).toLowerCase();
			if (h === '' || forbiddenHost.test(h) || /[^\u0000-\u007f]/.test(h)) throw invalidURL(input);
			if (/^[0-9.]+$/.test(h) && /^\d+(\.\d+){0,3}\.?$/.test(h)) {
				const parts = h.replace(/\.$/, '').split('.').map(Number);
				if (parts.some((p, i) => p > (i === parts.length - 1 ? Math.pow(256, 5 - parts.length) - 1 : 255))) {
					throw invalidURL(input);
				}
				let n = parts.pop() || 0;
				parts.forEach((p, i) => { n += p * Math.pow(256, 3 - i); });
				return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
			}
			return h;
		}

		// normalizePath resolves "." and ".." segments of a hierarchical path.
		function normalizePath(segments, special) {
			const out = [];
			segments.forEach((seg, i) => {
				const s = seg.toLowerCase();
				const last = i === segments.length - 1;
				if (s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e') {
					if (out.length > 0) out.pop();
					if (last) out.push('');
				} else if (s === '.' || s === '%2e') {
					if (last) out.push('');
				} else {
					out.push(encodeSet(seg, pathSet));
				}
			});
			return '/' + out.join('/');
		}

		function splitPath(path, special) {
			return (special ? path.replace(/\\/g, '/') : path).split('/');
		}

		// parse returns the URL record of input, resolved against base.
		function parse(input, base) {
			let s = text(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
			const record = { scheme: '', username: '', password: '', host: null, port: '', path: '', opaque: false, query: null, fragment: null };
			const hashAt = s.indexOf('#');
			if (hashAt >= 0) {
				record.fragment = encodeSet(s.slice(hashAt + 1), fragmentSet);
				s = s.slice(0, hashAt);
			}
			const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
			if (!m) {
				if (!base) throw invalidURL(input);
				return resolve(s, base, record, input);
			}
			record.scheme = m[1].toLowerCase() + ':';
			let rest = s.slice(m[0].length);
			const special = isSpecial(record.scheme);
			if (special && base && base.scheme === record.scheme && !/^[/\\]/.test(rest)) {
				return resolve(rest, base, record, input);
			}
			const queryAt = rest.indexOf('?');
			if (queryAt >= 0) {
				record.query = encodeSet(rest.slice(queryAt + 1), special ? querySet + "'" : querySet);
				rest = rest.slice(0, queryAt);
			}
			const slashes = special ? /^[/\\]*/.exec(rest)[0] : (rest.startsWith('//') ? '//' : '');
			if (special && record.scheme !== 'file:' || slashes.length >= 2) {
				rest = rest.slice(slashes.length);
				const end = rest.search(special ? /[/\\]/ : /\//);
				const authority = end < 0 ? rest : rest.slice(0, end);
				rest = end < 0 ? '' : rest.slice(end);
				parseAuthority(authority, record, special, input);
				record.path = rest === '' && special ? '/' : (rest === '' ? '' : normalizePath(splitPath(rest, special).slice(1), special));
			} else if (record.scheme === 'file:') {
				record.host = '';
				record.path = normalizePath(splitPath(rest.replace(/^[/\\]*/, ''), true), true);
			} else if (rest.startsWith('/')) {
				record.path = normalizePath(splitPath(rest, false).slice(1), false);
			} else {
				record.opaque = true;
				record.path = encodeSet(rest, '');
			}
			return record;
		}

		function parseAuthority(authority, record, special, input) {
			const at = authority.lastIndexOf('@');
			if (at >= 0) {
				const info = authority.slice(0, at);
				const colon = info.indexOf(':');
				record.username = encodeSet(colon < 0 ? info : info.slice(0, colon), userinfoSet);
				record.password = colon < 0 ? '' : encodeSet(info.slice(colon + 1), userinfoSet);
				authority = authority.slice(at + 1);
			}
			let host = authority, port = '';
			if (authority[0] === '[') {
				const close = authority.indexOf(']');
				if (close < 0) throw invalidURL(input);
				host = authority.slice(0, close + 1);
				const after = authority.slice(close + 1);
				if (after !== '' && after[0] !== ':') throw invalidURL(input);
				port = after.slice(1);
			} else if (authority.indexOf(':') >= 0) {
				host = authority.slice(0, authority.indexOf(':'));
				port = authority.slice(authority.indexOf(':') + 1);
			}
			if (port !== '') {
				if (!/^\d+$/.test(port) || Number(port) > 65535) throw invalidURL(input);
				port = String(Number(port));
				record.port = port === specialPorts[record.scheme] ? '' : port;
			}
			if (host === '' && special && record.scheme !== 'file:') throw invalidURL(input);
			record.host = host === '' ? '' : parseHost(host, special, input);
		}

		function resolve(s, base, record, input) {
			if (base.opaque) {
				if (s !== '' || record.fragment === null) throw invalidURL(input);
			}
			const special = isSpecial(base.scheme);
			record.scheme = base.scheme;
			if (/^[/\\]{2}/.test(s) && (special || s.startsWith('//'))) {
				return parse(record.scheme + s + (record.fragment !== null ? '#' + record.fragment : ''));
			}
			const queryAt = s.indexOf('?');
			let query = null;
			if (queryAt >= 0) {
				query = encodeSet(s.slice(queryAt + 1), special ? querySet + "'" : querySet);
				s = s.slice(0, queryAt);
			}
			record.username = base.username;
			record.password = base.password;
			record.host = base.host;
			record.port = base.port;
			record.opaque = base.opaque;
			if (s === '') {
				record.path = base.path;
				record.query = queryAt >= 0 ? query : base.query;
				return record;
			}
			record.query = query;
			if (/^[/\\]/.test(s) && (special || s[0] === '/')) {
				record.path = normalizePath(splitPath(s, special).slice(1), special);
			} else {
				const dir = base.path.slice(0, base.path.lastIndexOf('/') + 1);
				record.path = normalizePath(splitPath(dir + s, special).slice(1), special);
			}
			return record;
		}

		function serialize(r, excludeFragment) {
			let out = r.scheme;
			if (r.host !== null) {
				out += '//';
				if (r.username !== '' || r.password !== '') {
					out += r.username + (r.password !== '' ? ':' + r.password : '') + '@';
				}
				out += r.host + (r.port !== '' ? ':' + r.port : '');
			} else if (!r.opaque && r.path.startsWith('//')) {
				out += '/.';
			}
			out += r.path;
			if (r.query !== null) out += '?' + r.query;
			if (!excludeFragment && r.fragment !== null) out += '#' + r.fragment;
			return out;
		}

		class URL {
			#r;
			#params;
			constructor(url, base) {
				if (arguments.length === 0) throw new TypeError('The "url" argument must be specified');
				const b = base === undefined ? undefined : (base instanceof URL ? base.#r : parse(base));
				this.#r = parse(url, b);
				this.#params = new URLSearchParams(this.#r.query || '');
				paramsOwner.set(this.#params, this);
			}
			static { setQueryOf = (url, query) => { url.#r.query = query === '' ? null : query; }; }
			static canParse(url, base) {
				try { new URL(url, base); return true; } catch { return false; }
			}
			static parse(url, base) {
				try { return new URL(url, base); } catch { return null; }
			}
			get href() { return serialize(this.#r); }
			set href(value) {
				this.#r = parse(value);
				replaceParams(this.#params, this.#r.query || '');
			}
			get origin() {
				const r = this.#r;
				if (r.scheme === 'blob:') {
					try { return new URL(r.path).origin; } catch { return 'null'; }
				}
				if (!isSpecial(r.scheme) || r.scheme === 'file:') return 'null';
				return r.scheme + '//' + r.host + (r.port !== '' ? ':' + r.port : '');
			}
			get protocol() { return this.#r.scheme; }
			set protocol(value) {
				const m = /^([A-Za-z][A-Za-z0-9+.-]*):?/.exec(text(value));
				if (!m) return;
				const scheme = m[1].toLowerCase() + ':';
				if (isSpecial(scheme) !== isSpecial(this.#r.scheme)) return;
				this.#r.scheme = scheme;
				if (this.#r.port === specialPorts[scheme]) this.#r.port = '';
			}
			get username() { return this.#r.username; }
			set username(value) { if (this.#r.host) this.#r.username = encodeSet(text(value), userinfoSet); }
			get password() { return this.#r.password; }
			set password(value) { if (this.#r.host) this.#r.password = encodeSet(text(value), userinfoSet); }
			get host() {
				const r = this.#r;
				if (r.host === null) return '';
				return r.host + (r.port !== '' ? ':' + r.port : '');
			}
			set host(value) {
				if (this.#r.opaque) return;
				try {
					const next = parse(this.#r.scheme + '//' + text(value));
					this.#r.host = next.host;
					if (/:\d+$/.test(text(value))) this.#r.port = next.port;
				} catch { /* an invalid host is ignored, as in browsers */ }
			}
			get hostname() { return this.#r.host === null ? '' : this.#r.host; }
			set hostname(value) {
				if (this.#r.opaque) return;
				try { this.#r.host = parse(this.#r.scheme + '//' + text(value).replace(/:.*$/, '')).host; } catch { /* ignored */ }
			}
			get port() { return this.#r.port; }
			set port(value) {
				const s = text(value);
				if (s === '') { this.#r.port = ''; return; }
				const m = /^\d+/.exec(s);
				if (!m || Number(m[0]) > 65535) return;
				const p = String(Number(m[0]));
				this.#r.port = p === specialPorts[this.#r.scheme] ? '' : p;
			}
			get pathname() { return this.#r.path; }
			set pathname(value) {
				if (this.#r.opaque) return;
				const special = isSpecial(this.#r.scheme);
				let s = text(value);
				if (!/^[/\\]/.test(s)) s = '/' + s;
				this.#r.path = normalizePath(splitPath(s, special).slice(1), special);
			}
			get search() { const q = this.#r.query; return q === null || q === '' ? '' : '?' + q; }
			set search(value) {
				let s = text(value);
				if (s[0] === '?') s = s.slice(1);
				this.#r.query = s === '' ? null : encodeSet(s, isSpecial(this.#r.scheme) ? querySet + "'" : querySet);
				replaceParams(this.#params, s);
			}
			get searchParams() { return this.#params; }
			get hash() { const f = this.#r.fragment; return f === null || f === '' ? '' : '#' + f; }
			set hash(value) {
				let s = text(value);
				if (s[0] === '#') s = s.slice(1);
				this.#r.fragment = s === '' ? null : encodeSet(s, fragmentSet);
			}
			toString() { return this.href; }
			toJSON() { return this.href; }
			get [Symbol.toStringTag]() { return 'URL'; }
		}

		// --- structuredClone -------------------------------------------------

		function dataCloneError(value) {
			const e = new Error(`${typeof value === 'function' ? 'function' : String(value)} could not be cloned.`);
			e.name = 'DataCloneError';
			return e;
		}

		const typedArrays = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
			Int32Array, Uint32Array, Float32Array, Float64Array];
		const errorTypes = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

		// define makes a clone's own property: assigning would run a setter,
		// and an own "__proto__" key would set the clone's prototype instead.
		const define = (o, k, value) => defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });

		function structuredClone(value) {
			if (arguments.length === 0) throw new TypeError('The "value" argument must be specified');
			const seen = new Map();
			const clone = (v) => {
				if (typeof v === 'symbol' || typeof v === 'function') throw dataCloneError(v);
				if (v === null || typeof v !== 'object') return v;
				if (seen.has(v)) return seen.get(v);
				let out;
				const tag = Object.prototype.toString.call(v);
				if (Array.isArray(v)) {
					out = new Array(v.length);
					seen.set(v, out);
					for (const k of Object.keys(v)) define(out, k, clone(v[k]));
					return out;
				}
				switch (tag) {
				case '[object Date]': out = new Date(v.getTime()); break;
				case '[object RegExp]': out = new RegExp(v.source, v.flags); break;
				case '[object Boolean]': out = Object(Boolean.prototype.valueOf.call(v)); break;
				case '[object Number]': out = Object(Number.prototype.valueOf.call(v)); break;
				case '[object String]': out = Object(String.prototype.valueOf.call(v)); break;
				case '[object ArrayBuffer]': out = v.slice(0); break;
				case '[object Map]':
					out = new Map();
					seen.set(v, out);
					for (const [k, x] of v) out.set(clone(k), clone(x));
					return out;
				case '[object Set]':
					out = new Set();
					seen.set(v, out);
					for (const x of v) out.add(clone(x));
					return out;
				case '[object Error]': {
					const ctor = errorTypes[v.name] || Error;
					out = new ctor(v.message);
					seen.set(v, out);
					if ('cause' in v) out.cause = clone(v.cause);
					if (typeof v.stack === 'string') out.stack = v.stack;
					return out;
				}
				default:
					for (const T of typedArrays) {
						if (v instanceof T) { out = new T(v); break; }
					}
					if (!out && v instanceof DataView) out = new DataView(v.buffer.slice(0), v.byteOffset, v.byteLength);
					if (!out && (tag === '[object Promise]' || tag === '[object WeakMap]' || tag === '[object WeakSet]')) {
						throw dataCloneError(v);
					}
				}
				if (out) { seen.set(v, out); return out; }
				out = {};
				seen.set(v, out);
				for (const k of Object.keys(v)) define(out, k, clone(v[k]));
				return out;
			};
			return clone(value);
		}

		// --- crypto and performance --------------------------------------

		const integerArrays = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array];
		if (typeof BigInt64Array === 'function') integerArrays.push(BigInt64Array, BigUint64Array);

		const crypto = {
			getRandomValues(array) {
				if (!integerArrays.some((T) => array instanceof T)) {
					const e = new TypeError('The data argument must be an integer-type TypedArray');
					e.name = 'TypeMismatchError';
					throw e;
				}
				if (array.byteLength > 65536) {
					const e = new RangeError(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`);
					e.name = 'QuotaExceededError';
					throw e;
				}
				new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(new Uint8Array(randomBytes(array.byteLength)));
				return array;
			},
			randomUUID() {
				const b = new Uint8Array(randomBytes(16));
				b[6] = (b[6] & 0x0f) | 0x40;
				b[8] = (b[8] & 0x3f) | 0x80;
				const h = Array.from(b, (x) => (x < 16 ? '0' : '') + x.toString(16)).join('');
				return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
			},
		};
		defineProperty(crypto, Symbol.toStringTag, { value: 'Crypto' });

		const timeOrigin = Date.now();
		const performance = {
			now() { return now(); },
			get timeOrigin() { return timeOrigin; },
			toJSON() { return { timeOrigin }; },
		};
		defineProperty(performance, Symbol.toStringTag, { value: 'Performance' });

		return {
			atob, btoa, TextEncoder, TextDecoder, URL, URLSearchParams,
			structuredClone, crypto, performance, queueMicrotask,
		};
	}
})
