// Object.groupBy and Map.groupBy (ES2024), which goja lacks, as the
// specification writes them (GroupBy): the iteration protocol step by step,
// the iterator closed when the callback throws, property keys coerced for
// Object.groupBy and -0 normalized for Map.groupBy.
(function () {
	'use strict';
	const defineProperty = Object.defineProperty, create = Object.create, ownKeys = Reflect.ownKeys;
	const iteratorSymbol = Symbol.iterator;
	const mapGet = Map.prototype.get, mapSet = Map.prototype.set;
	const maxIndex = 2 ** 53 - 1;

	const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';

	// closeAfterThrow is IteratorClose for a throw completion: the
	// iterator's return is called, and whatever it does yields to the
	// original error.
	function closeAfterThrow(iterator) {
		try {
			const ret = iterator.return;
			if (ret !== undefined && ret !== null) ret.call(iterator);
		} catch (ignored) { /* the original error wins */ }
	}

	// propertyKey is ToPropertyKey, as a computed property name applies it.
	const propertyKey = (key) => ownKeys({ [key]: 0 })[0];

	function groupBy(items, callback, coerce) {
		if (items === undefined || items === null) {
			throw new TypeError('groupBy called on null or undefined');
		}
		if (typeof callback !== 'function') {
			throw new TypeError(String(typeof callback) + ' is not a function');
		}
		// groups keeps the groups in the order their keys first came;
		// index finds a key's group (SameValueZero, as the keys are
		// coerced before they are compared).
		const groups = [], index = new Map();
		const method = items[iteratorSymbol];
		if (typeof method !== 'function') throw new TypeError('object is not iterable');
		const iterator = method.call(items);
		if (!isObject(iterator)) throw new TypeError('Result of the Symbol.iterator method is not an object');
		const next = iterator.next;
		for (let k = 0; ; k++) {
			if (k >= maxIndex) {
				const error = new TypeError('Too many elements to group');
				closeAfterThrow(iterator);
				throw error;
			}
			const result = next.call(iterator);
			if (!isObject(result)) throw new TypeError('Iterator result ' + String(result) + ' is not an object');
			if (result.done) return groups;
			const value = result.value;
			let key;
			try {
				key = callback(value, k);
				key = coerce(key);
			} catch (e) {
				closeAfterThrow(iterator);
				throw e;
			}
			const group = mapGet.call(index, key);
			if (group) {
				group.elements.push(value);
			} else {
				const fresh = { key, elements: [value] };
				groups.push(fresh);
				mapSet.call(index, key, fresh);
			}
		}
	}

	const method = (target, name, fn) => defineProperty(target, name, {
		value: fn, writable: true, enumerable: false, configurable: true,
	});
	method(Object, 'groupBy', {
		groupBy(items, callback) {
			const groups = groupBy(items, callback, propertyKey);
			const result = create(null);
			for (const g of groups) {
				defineProperty(result, g.key, { value: g.elements, writable: true, enumerable: true, configurable: true });
			}
			return result;
		},
	}.groupBy);
	method(Map, 'groupBy', {
		groupBy(items, callback) {
			const groups = groupBy(items, callback, (key) => (key === 0 ? 0 : key));
			const result = new Map();
			for (const g of groups) mapSet.call(result, g.key, g.elements);
			return result;
		},
	}.groupBy);
})();
