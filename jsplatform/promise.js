// Promise.withResolvers (ES2024), which goja lacks: NewPromiseCapability
// on the this value, as the specification writes it.
(function () {
	'use strict';
	// isConstructor asks without touching the function: a proxy's construct
	// trap runs only when its target is a constructor.
	const isConstructor = (f) => {
		try {
			return Boolean(new (new Proxy(f, { construct: () => ({}) }))());
		} catch (e) {
			return false;
		}
	};
	Object.defineProperty(Promise, 'withResolvers', {
		value: {
			withResolvers() {
				const C = this;
				if (!isConstructor(C)) throw new TypeError('Promise.withResolvers called on a non-constructor');
				let resolve, reject;
				const promise = new C((res, rej) => {
					if (resolve !== undefined) throw new TypeError('Promise executor has already been invoked with a resolve function');
					if (reject !== undefined) throw new TypeError('Promise executor has already been invoked with a reject function');
					resolve = res;
					reject = rej;
				});
				if (typeof resolve !== 'function') throw new TypeError('Promise resolve function is not callable');
				if (typeof reject !== 'function') throw new TypeError('Promise reject function is not callable');
				return { promise, resolve, reject };
			},
		}.withResolvers,
		writable: true, enumerable: false, configurable: true,
	});
})();
