// Array.fromAsync (ES2026), which goja lacks, as the specification writes
// it: an async iterable's values awaited in turn (a sync iterable's too,
// through the async-from-sync iterator), else an array-like's, each mapped
// and awaited when a mapper is given, into an array made by the this value
// when it is a constructor. It relies on Symbol.asyncIterator, which the
// platform adds to goja first.
(function () {
	'use strict';
	const defineProperty = Object.defineProperty;
	const apply = Reflect.apply;
	const maxIndex = 2 ** 53 - 1;
	const asyncIteratorSymbol = Symbol.asyncIterator, iteratorSymbol = Symbol.iterator;
	const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
	const isConstructor = (f) => {
		if (typeof f !== 'function') return false;
		try {
			return Boolean(new (new Proxy(f, { construct: () => ({}) }))());
		} catch (e) {
			return false;
		}
	};
	function getMethod(object, key) {
		const m = object[key];
		if (m === undefined || m === null) return undefined;
		if (typeof m !== 'function') throw new TypeError(String(key) + ' is not a function');
		return m;
	}
	const createDataProperty = (object, key, value) => {
		if (!Reflect.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })) {
			throw new TypeError('Cannot define property ' + key);
		}
	};
	const setLength = (object, length) => {
		if (!Reflect.set(object, 'length', length, object)) throw new TypeError('Cannot set the length');
	};

	// asyncClose is AsyncIteratorClose for a throw completion: return is
	// called and awaited, and the original error wins.
	async function closeAfterThrow(record) {
		try {
			const ret = record.iterator.return;
			if (ret !== undefined && ret !== null) await apply(ret, record.iterator, []);
		} catch (ignored) { /* the original error wins */ }
	}

	// fromSync is CreateAsyncFromSyncIterator, as far as fromAsync uses
	// it: next awaits the sync result's value, and a rejected value closes
	// the sync iterator.
	function fromSync(iterator, next) {
		return {
			iterator: {
				next() {
					const result = apply(next, iterator, []);
					if (!isObject(result)) throw new TypeError('Iterator result ' + String(result) + ' is not an object');
					const done = Boolean(result.done);
					let value;
					try {
						value = Promise.resolve(result.value);
					} catch (e) {
						if (!done) closeSyncAfterThrow(iterator);
						throw e;
					}
					return value.then((v) => ({ value: v, done }), (e) => {
						if (!done) closeSyncAfterThrow(iterator);
						throw e;
					});
				},
				return() {
					const ret = iterator.return;
					if (ret === undefined || ret === null) return { value: undefined, done: true };
					const result = apply(ret, iterator, []);
					if (!isObject(result)) throw new TypeError('The iterator\'s return method returned a non-object');
					return Promise.resolve(result.value).then((v) => ({ value: v, done: Boolean(result.done) }));
				},
			},
		};
	}
	function closeSyncAfterThrow(iterator) {
		try {
			const ret = iterator.return;
			if (ret !== undefined && ret !== null) apply(ret, iterator, []);
		} catch (ignored) { /* the original error wins */ }
	}

	defineProperty(Array, 'fromAsync', {
		value: {
			async fromAsync(asyncItems, mapper = undefined, thisArg = undefined) {
				const C = this;
				if (mapper !== undefined && typeof mapper !== 'function') {
					throw new TypeError(String(mapper) + ' is not a function');
				}
				const mapping = mapper !== undefined;
				const usingAsync = getMethod(asyncItems, asyncIteratorSymbol);
				const usingSync = usingAsync === undefined ? getMethod(asyncItems, iteratorSymbol) : undefined;
				let record;
				if (usingAsync !== undefined) {
					const iterator = apply(usingAsync, asyncItems, []);
					if (!isObject(iterator)) throw new TypeError('Result of the Symbol.asyncIterator method is not an object');
					record = { iterator, next: iterator.next };
				} else if (usingSync !== undefined) {
					const iterator = apply(usingSync, asyncItems, []);
					if (!isObject(iterator)) throw new TypeError('Result of the Symbol.iterator method is not an object');
					record = fromSync(iterator, iterator.next);
					record.next = record.iterator.next;
				}
				if (record !== undefined) {
					const A = isConstructor(C) ? new C() : [];
					for (let k = 0; ; k++) {
						if (k >= maxIndex) {
							const error = new TypeError('Too many elements');
							await closeAfterThrow(record);
							throw error;
						}
						let result = apply(record.next, record.iterator, []);
						result = await result;
						if (!isObject(result)) throw new TypeError('Iterator result ' + String(result) + ' is not an object');
						if (result.done) {
							setLength(A, k);
							return A;
						}
						const value = result.value;
						let mapped = value;
						if (mapping) {
							try {
								mapped = await apply(mapper, thisArg, [value, k]);
							} catch (e) {
								await closeAfterThrow(record);
								throw e;
							}
						}
						try {
							createDataProperty(A, String(k), mapped);
						} catch (e) {
							await closeAfterThrow(record);
							throw e;
						}
					}
				}
				const arrayLike = Object(asyncItems);
				const len = Math.min(Math.max(Math.trunc(+arrayLike.length) || 0, 0), maxIndex);
				const A = isConstructor(C) ? new C(len) : new Array(len);
				for (let k = 0; k < len; k++) {
					let value = await arrayLike[k];
					if (mapping) value = await apply(mapper, thisArg, [value, k]);
					createDataProperty(A, String(k), value);
				}
				setLength(A, len);
				return A;
			},
		}.fromAsync,
		writable: true, enumerable: false, configurable: true,
	});
})();
