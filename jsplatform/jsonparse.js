// JSON.parse with V8's error messages.
//
// goja's JSON.parse reports malformed text in the words of Go's JSON decoder
// ("invalid character 'a' looking for beginning of value"), two of them with
// Go internals ("Unexpected end of JSON input (EOF)", "Unexpected token at
// the end: <nil>"). Scripts parse the text of tool results all the time, and
// the model reads what went wrong: this repair keeps goja's parser and, when
// it refuses the text, throws the SyntaxError Node 22 (V8) throws for the same
// text, found by following V8's JSON parser (json-parser.cc) to its first
// error. Runs only in runs whose code mentions JSON.parse.
(function () {
	'use strict';
	const parse = JSON.parse;
	const specialSources = ['undefined', 'NaN', 'Infinity', '[object Object]'];
	const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
	const isHexDigit = (c) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

	// v8Message returns V8's message for the first error in source, or
	// undefined when V8 would accept it.
	function v8Message(source) {
		const n = source.length;
		let i = 0;

		// atPosition is a message that names where the error is, as V8 does:
		// "<what> in JSON at position 5 (line 1 column 6)".
		const atPosition = (what, p = i) => afterJSON(`${what} in JSON`, p);
		const afterJSON = (what, p) => {
			let line = 1, lineStart = 0;
			for (let k = 0; k < p; k++) {
				if (source[k] === '\r' && k < p - 1 && source[k + 1] === '\n') k++;
				if (source[k] === '\r' || source[k] === '\n') {
					line++;
					lineStart = k + 1;
				}
			}
			return `${what} at position ${p} (line ${line} column ${p - lineStart + 1})`;
		};

		// unexpected is V8's message for the character at p when no more
		// precise one applies.
		const unexpected = (p = i) => {
			if (p >= n) return 'Unexpected end of JSON input';
			const c = source[p];
			if (c === '"') return atPosition('Unexpected string', p);
			if (c === '-' || isDigit(c)) return atPosition('Unexpected number', p);
			if (specialSources.includes(source)) return `"${source}" is not valid JSON`;
			const context = 10;
			if (n < 2 * context + 1) return `Unexpected token '${c}', "${source}" is not valid JSON`;
			if (p < context) return `Unexpected token '${c}', "${source.slice(0, p + context)}"... is not valid JSON`;
			if (p < n - context) return `Unexpected token '${c}', ..."${source.slice(p - context, p + context)}"... is not valid JSON`;
			return `Unexpected token '${c}', ..."${source.slice(p - context)}" is not valid JSON`;
		};

		class Stop {
			constructor(message) { this.message = message; }
		}
		const stop = (message) => { throw new Stop(message); };

		const whitespace = () => {
			while (i < n && (source[i] === ' ' || source[i] === '\t' || source[i] === '\n' || source[i] === '\r')) i++;
		};

		const string = () => {
			i++; // the opening quote
			for (;;) {
				if (i >= n) stop(atPosition('Unterminated string'));
				const c = source.charCodeAt(i);
				if (c === 0x22) {
					i++;
					return;
				}
				if (c === 0x5c) {
					i++;
					if (i >= n) stop(unexpected(n));
					const e = source[i];
					if (e !== undefined && '"\\/bfnrt'.includes(e)) {
						i++;
						continue;
					}
					if (e === 'u') {
						for (let k = 0; k < 4; k++) {
							i++;
							if (!isHexDigit(source[i])) stop(atPosition('Bad Unicode escape'));
						}
						i++;
						continue;
					}
					stop(atPosition('Bad escaped character'));
				}
				if (c < 0x20) stop(atPosition('Bad control character in string literal'));
				i++;
			}
		};

		const number = () => {
			if (source[i] === '-') i++;
			if (source[i] === '0') {
				i++;
				if (isDigit(source[i])) stop(atPosition('Unexpected number'));
			} else {
				if (!isDigit(source[i])) stop(atPosition('No number after minus sign'));
				while (isDigit(source[i])) i++;
			}
			if (source[i] === '.') {
				i++;
				if (!isDigit(source[i])) stop(atPosition('Unterminated fractional number'));
				while (isDigit(source[i])) i++;
			}
			if (source[i] === 'e' || source[i] === 'E') {
				i++;
				if (source[i] === '-' || source[i] === '+') i++;
				if (!isDigit(source[i])) stop(atPosition('Exponent part is missing a number'));
				while (isDigit(source[i])) i++;
			}
		};

		const literal = (word) => {
			for (let k = 1; k < word.length; k++) {
				if (i + k >= n) stop(unexpected(n));
				if (source[i + k] !== word[k]) stop(unexpected(i + k));
			}
			i += word.length;
		};

		// key reads a property name and its colon; what names the message
		// when no name is there.
		const key = (what) => {
			whitespace();
			if (source[i] !== '"') stop(atPosition(what));
			string();
			whitespace();
			if (source[i] !== ':') stop(atPosition("Expected ':' after property name"));
			i++;
		};

		// The open arrays ('[') and objects ('{'), innermost last: the walk
		// is iterative, as V8's is, so deep nesting cannot overflow.
		const open = [];
		try {
			value: for (;;) {
				whitespace();
				const c = source[i];
				if (c === '"') string();
				else if (c === '-' || isDigit(c)) number();
				else if (c === 't') literal('true');
				else if (c === 'f') literal('false');
				else if (c === 'n') literal('null');
				else if (c === '{' || c === '[') {
					i++;
					whitespace();
					if (source[i] === (c === '{' ? '}' : ']')) {
						i++;
					} else {
						open.push(c);
						if (c === '{') key("Expected property name or '}'");
						continue value;
					}
				} else stop(unexpected());

				// A value is complete: close what it completes.
				for (;;) {
					whitespace();
					if (open.length === 0) {
						if (i < n) stop(afterJSON('Unexpected non-whitespace character after JSON', i));
						return undefined;
					}
					const inObject = open[open.length - 1] === '{';
					if (source[i] === ',') {
						i++;
						if (inObject) key('Expected double-quoted property name');
						continue value;
					}
					if (inObject && source[i] !== '}') stop(atPosition("Expected ',' or '}' after property value"));
					if (!inObject && source[i] !== ']') stop(atPosition("Expected ',' or ']' after array element"));
					i++;
					open.pop();
				}
			}
		} catch (e) {
			if (e instanceof Stop) return e.message;
			throw e;
		}
	}

	Object.defineProperty(JSON, 'parse', {
		value: {
			parse(text, reviver) {
				const source = `${text}`; // converted once, as JSON.parse does
				try {
					return parse(source, reviver);
				} catch (e) {
					if (e instanceof SyntaxError) {
						const message = v8Message(source);
						if (message !== undefined) throw new SyntaxError(message);
					}
					throw e;
				}
			},
		}.parse,
		writable: true, configurable: true, enumerable: false,
	});
})();
