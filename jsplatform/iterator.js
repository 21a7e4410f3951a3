// The Iterator global and the iterator helpers (ES2025), which goja lacks:
// Iterator.from, Iterator.prototype.map, filter, take, drop, flatMap,
// reduce, toArray, forEach, some, every and find, as the specification
// writes them. A helper is a generator underneath, which gives the
// "already running" check and the completion states; what a generator
// does not do the same way (return before the first next, closing the
// underlying iterator on an abrupt completion) is written out.
(function () {
	'use strict';
	const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, create = Object.create;
	const iteratorSymbol = Symbol.iterator, toStringTag = Symbol.toStringTag;
	const IteratorPrototype = getPrototypeOf(getPrototypeOf([][iteratorSymbol]()));
	const generatorPrototype = getPrototypeOf(function* () {}).prototype;
	const generatorNext = generatorPrototype.next, generatorReturn = generatorPrototype.return;
	const hasOwn = Object.prototype.hasOwnProperty;
	const apply = Reflect.apply;

	const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
	const typeError = (message) => new TypeError(message);

	// getMethod is GetMethod: undefined for undefined or null, else a
	// function or a TypeError.
	function getMethod(object, key) {
		const m = object[key];
		if (m === undefined || m === null) return undefined;
		if (typeof m !== 'function') throw typeError(String(key) + ' is not a function');
		return m;
	}

	// close is IteratorClose for a normal or return completion: the
	// return method's errors and a result that is not an object throw.
	function close(iterator) {
		const ret = getMethod(iterator, 'return');
		if (ret === undefined) return;
		const result = apply(ret, iterator, []);
		if (!isObject(result)) throw typeError('The iterator\'s return method returned a non-object');
	}

	// closeAfterThrow is IteratorClose for a throw completion: the
	// original error wins over whatever return does.
	function closeAfterThrow(iterator) {
		try {
			const ret = iterator.return;
			if (ret !== undefined && ret !== null) apply(ret, iterator, []);
		} catch (ignored) { /* the original error wins */ }
	}

	// direct is GetIteratorDirect: the iterator and its next method.
	function direct(object) {
		return { iterator: object, next: object.next, done: false };
	}

	// step is IteratorStep: the next result, or undefined when done.
	function step(record) {
		const result = apply(record.next, record.iterator, []);
		if (!isObject(result)) throw typeError('Iterator result ' + String(result) + ' is not an object');
		if (result.done) {
			record.done = true;
			return undefined;
		}
		return result;
	}

	// thisIterator checks the receiver of a prototype method; a failed
	// argument check then closes it (the specification closes the
	// receiver when an argument is invalid).
	function thisIterator(receiver, name) {
		if (!isObject(receiver)) throw typeError('Iterator.prototype.' + name + ' called on a non-object');
		return receiver;
	}
	function requireCallable(receiver, fn, name) {
		if (typeof fn !== 'function') {
			closeAfterThrow(receiver);
			throw typeError('Iterator.prototype.' + name + ': the argument is not a function');
		}
	}

	// --- Iterator helper objects ----------------------------------------

	const IteratorHelperPrototype = create(IteratorPrototype);
	const helpers = new WeakMap(); // helper -> its state

	// makeHelper returns a helper running body (a generator function of
	// the underlying record) over record.
	function makeHelper(record, body) {
		const helper = create(IteratorHelperPrototype);
		helpers.set(helper, { record, generator: body(record), started: false });
		return helper;
	}

	function helperState(receiver, name) {
		const state = isObject(receiver) ? helpers.get(receiver) : undefined;
		if (state === undefined) throw typeError('Iterator Helper.prototype.' + name + ' called on an incompatible receiver');
		return state;
	}

	const methods = (target, object) => {
		for (const key of Reflect.ownKeys(object)) {
			defineProperty(target, key, { value: object[key], writable: true, enumerable: false, configurable: true });
		}
	};

	methods(IteratorHelperPrototype, {
		next() {
			const state = helperState(this, 'next');
			state.started = true;
			return apply(generatorNext, state.generator, []);
		},
		return() {
			const state = helperState(this, 'return');
			if (!state.started) {
				// Suspended at the start: completed at once, the
				// underlying iterator closed, the body never run.
				state.started = true;
				apply(generatorReturn, state.generator, []);
				close(state.record.iterator);
				return { value: undefined, done: true };
			}
			return apply(generatorReturn, state.generator, []);
		},
	});
	defineProperty(IteratorHelperPrototype, toStringTag, {
		value: 'Iterator Helper', writable: false, enumerable: false, configurable: true,
	});

	// Each body below yields in a try/finally: a return() while the body
	// is suspended at the yield (the generator's return) closes the
	// underlying iterator, as the specification's IfAbruptCloseIterator.

	// --- Iterator.prototype methods --------------------------------------

	function* mapBody(record, mapper) {
		for (let counter = 0; ; counter++) {
			const result = step(record);
			if (result === undefined) return undefined;
			const value = result.value;
			let mapped;
			try {
				mapped = mapper(value, counter);
			} catch (e) {
				closeAfterThrow(record.iterator);
				throw e;
			}
			let resumed = false;
			try {
				yield mapped;
				resumed = true;
			} finally {
				if (!resumed) close(record.iterator);
			}
		}
	}

	function* filterBody(record, predicate) {
		for (let counter = 0; ; counter++) {
			const result = step(record);
			if (result === undefined) return undefined;
			const value = result.value;
			let selected;
			try {
				selected = predicate(value, counter);
			} catch (e) {
				closeAfterThrow(record.iterator);
				throw e;
			}
			if (!selected) continue;
			let resumed = false;
			try {
				yield value;
				resumed = true;
			} finally {
				if (!resumed) close(record.iterator);
			}
		}
	}

	function* takeBody(record, limit) {
		for (let remaining = limit; ; ) {
			if (remaining === 0) {
				close(record.iterator);
				return undefined;
			}
			if (remaining !== Infinity) remaining--;
			const result = step(record);
			if (result === undefined) return undefined;
			const value = result.value;
			let resumed = false;
			try {
				yield value;
				resumed = true;
			} finally {
				if (!resumed) close(record.iterator);
			}
		}
	}

	function* dropBody(record, limit) {
		for (let remaining = limit; remaining > 0; ) {
			if (remaining !== Infinity) remaining--;
			if (step(record) === undefined) return undefined;
		}
		for (;;) {
			const result = step(record);
			if (result === undefined) return undefined;
			const value = result.value;
			let resumed = false;
			try {
				yield value;
				resumed = true;
			} finally {
				if (!resumed) close(record.iterator);
			}
		}
	}

	// flattenable is GetIteratorFlattenable: an object's iterator (or the
	// object itself when it has none); a string too when allowed.
	function flattenable(value, allowStrings) {
		if (!isObject(value) && !(allowStrings && typeof value === 'string')) {
			throw typeError(String(value) + ' is not an iterator or iterable');
		}
		const method = getMethod(value, iteratorSymbol);
		const iterator = method === undefined ? value : apply(method, value, []);
		if (!isObject(iterator)) throw typeError('The iterator is not an object');
		return direct(iterator);
	}

	function* flatMapBody(record, mapper) {
		for (let counter = 0; ; counter++) {
			const result = step(record);
			if (result === undefined) return undefined;
			let inner;
			try {
				inner = flattenable(mapper(result.value, counter), false);
			} catch (e) {
				closeAfterThrow(record.iterator);
				throw e;
			}
			for (;;) {
				let innerResult;
				try {
					innerResult = step(inner);
				} catch (e) {
					closeAfterThrow(record.iterator);
					throw e;
				}
				if (innerResult === undefined) break;
				let value;
				try {
					value = innerResult.value;
				} catch (e) {
					closeAfterThrow(record.iterator);
					throw e;
				}
				let resumed = false;
				try {
					yield value;
					resumed = true;
				} finally {
					if (!resumed) {
						try {
							close(inner.iterator);
						} catch (e) {
							closeAfterThrow(record.iterator);
							throw e;
						}
						close(record.iterator);
					}
				}
			}
		}
	}

	// limitOf is the take and drop argument: a number that is not NaN, not
	// negative and not beyond the safe integers unless infinite, as an
	// integer or Infinity.
	function limitOf(receiver, limit, name) {
		let n;
		try {
			n = +limit;
		} catch (e) {
			closeAfterThrow(receiver);
			throw e;
		}
		if (n !== n || (n !== Infinity && n > 2 ** 53 - 1)) {
			closeAfterThrow(receiver);
			throw new RangeError('Iterator.prototype.' + name + ': the limit is not a number or too large');
		}
		n = Math.trunc(n);
		if (n < 0) {
			closeAfterThrow(receiver);
			throw new RangeError('Iterator.prototype.' + name + ': the limit is negative');
		}
		return n === 0 ? 0 : n;
	}

	methods(IteratorPrototype, {
		map(mapper) {
			const o = thisIterator(this, 'map');
			requireCallable(o, mapper, 'map');
			return makeHelper(direct(o), (record) => mapBody(record, mapper));
		},
		filter(predicate) {
			const o = thisIterator(this, 'filter');
			requireCallable(o, predicate, 'filter');
			return makeHelper(direct(o), (record) => filterBody(record, predicate));
		},
		take(limit) {
			const o = thisIterator(this, 'take');
			const n = limitOf(o, limit, 'take');
			return makeHelper(direct(o), (record) => takeBody(record, n));
		},
		drop(limit) {
			const o = thisIterator(this, 'drop');
			const n = limitOf(o, limit, 'drop');
			return makeHelper(direct(o), (record) => dropBody(record, n));
		},
		flatMap(mapper) {
			const o = thisIterator(this, 'flatMap');
			requireCallable(o, mapper, 'flatMap');
			return makeHelper(direct(o), (record) => flatMapBody(record, mapper));
		},
		reduce(reducer /* , initialValue */) {
			const o = thisIterator(this, 'reduce');
			requireCallable(o, reducer, 'reduce');
			const record = direct(o);
			let accumulator, counter;
			if (arguments.length < 2) {
				const first = step(record);
				if (first === undefined) throw typeError('Reduce of empty iterator with no initial value');
				accumulator = first.value;
				counter = 1;
			} else {
				accumulator = arguments[1];
				counter = 0;
			}
			for (; ; counter++) {
				const result = step(record);
				if (result === undefined) return accumulator;
				try {
					accumulator = reducer(accumulator, result.value, counter);
				} catch (e) {
					closeAfterThrow(o);
					throw e;
				}
			}
		},
		toArray() {
			const o = thisIterator(this, 'toArray');
			const record = direct(o);
			const items = [];
			for (;;) {
				const result = step(record);
				if (result === undefined) return items;
				defineProperty(items, items.length, { value: result.value, writable: true, enumerable: true, configurable: true });
			}
		},
		forEach(fn) {
			const o = thisIterator(this, 'forEach');
			requireCallable(o, fn, 'forEach');
			const record = direct(o);
			for (let counter = 0; ; counter++) {
				const result = step(record);
				if (result === undefined) return undefined;
				try {
					fn(result.value, counter);
				} catch (e) {
					closeAfterThrow(o);
					throw e;
				}
			}
		},
		some(predicate) {
			return search(this, predicate, 'some', (found) => (found ? true : undefined), false);
		},
		every(predicate) {
			return search(this, predicate, 'every', (found) => (found ? undefined : false), true);
		},
		find(predicate) {
			return search(this, predicate, 'find', (found, value) => (found ? { value } : undefined), undefined, true);
		},
	});

	// search runs a predicate over the iterator until decide, given the
	// predicate's verdict, returns an answer: the iterator is then closed.
	function search(receiver, predicate, name, decide, exhausted, boxed) {
		const o = thisIterator(receiver, name);
		requireCallable(o, predicate, name);
		const record = direct(o);
		for (let counter = 0; ; counter++) {
			const result = step(record);
			if (result === undefined) return exhausted;
			const value = result.value;
			let verdict;
			try {
				verdict = Boolean(predicate(value, counter));
			} catch (e) {
				closeAfterThrow(o);
				throw e;
			}
			const answer = decide(verdict, value);
			if (answer !== undefined) {
				close(o);
				return boxed ? answer.value : answer;
			}
		}
	}

	// --- the Iterator constructor and Iterator.from ----------------------

	// Iterator is abstract: new Iterator() throws, a subclass constructs.
	const Iterator = function Iterator() {
		if (new.target === undefined || new.target === Iterator) {
			throw typeError('Abstract class Iterator not directly constructable');
		}
	};
	defineProperty(Iterator, 'prototype', { value: IteratorPrototype, writable: false, enumerable: false, configurable: false });

	// The wrapper Iterator.from returns for an iterator that does not
	// inherit from Iterator.prototype.
	const WrapForValidIteratorPrototype = create(IteratorPrototype);
	const wrapped = new WeakMap(); // wrapper -> record
	const wrappedRecord = (receiver, name) => {
		const record = isObject(receiver) ? wrapped.get(receiver) : undefined;
		if (record === undefined) throw typeError('%WrapForValidIteratorPrototype%.' + name + ' called on an incompatible receiver');
		return record;
	};
	methods(WrapForValidIteratorPrototype, {
		next() {
			const record = wrappedRecord(this, 'next');
			return apply(record.next, record.iterator, []);
		},
		return() {
			const record = wrappedRecord(this, 'return');
			const ret = getMethod(record.iterator, 'return');
			if (ret === undefined) return { value: undefined, done: true };
			return apply(ret, record.iterator, []);
		},
	});

	const isIteratorInstance = (o) => {
		for (let p = getPrototypeOf(o); p !== null; p = getPrototypeOf(p)) {
			if (p === IteratorPrototype) return true;
		}
		return false;
	};
	methods(Iterator, {
		from(object) {
			const record = flattenable(object, true);
			if (isIteratorInstance(record.iterator)) return record.iterator;
			const wrapper = create(WrapForValidIteratorPrototype);
			wrapped.set(wrapper, record);
			return wrapper;
		},
	});

	// Iterator.prototype's constructor and Symbol.toStringTag are
	// accessors whose setter ignores the prototype itself
	// (SetterThatIgnoresPrototypeProperties).
	function setIgnoringPrototype(receiver, key, value) {
		if (!isObject(receiver)) throw typeError('Cannot set ' + String(key) + ' on a non-object');
		if (receiver === IteratorPrototype) throw typeError('Cannot set ' + String(key) + ' on Iterator.prototype');
		if (!apply(hasOwn, receiver, [key])) {
			defineProperty(receiver, key, { value, writable: true, enumerable: true, configurable: true });
		} else {
			receiver[key] = value;
		}
	}
	const accessors = {
		get constructor() { return Iterator; },
		set constructor(value) { setIgnoringPrototype(this, 'constructor', value); },
		get [toStringTag]() { return 'Iterator'; },
		set [toStringTag](value) { setIgnoringPrototype(this, toStringTag, value); },
	};
	for (const key of ['constructor', toStringTag]) {
		const d = Object.getOwnPropertyDescriptor(accessors, key);
		defineProperty(IteratorPrototype, key, { get: d.get, set: d.set, enumerable: false, configurable: true });
	}

	defineProperty(globalThis, 'Iterator', { value: Iterator, writable: true, enumerable: false, configurable: true });
})();
