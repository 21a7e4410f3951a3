package jsplatform

import "testing"

// TestBuiltinsGojaLacks uses each built-in the platform adds the way
// scripts do; the expected values are Node 22's. The test262 runner
// (cmd/test262) holds them to the specification.
func TestBuiltinsGojaLacks(t *testing.T) {
	cases := map[string]struct{ code, want string }{
		"Object.groupBy": {`
			const g = Object.groupBy([{ t: "a", n: 1 }, { t: "b", n: 2 }, { t: "a", n: 3 }], (x) => x.t);
			return [Object.getPrototypeOf(g) === null, Object.keys(g), g.a.map((x) => x.n)];`,
			`[true,["a","b"],[1,3]]`},
		"Map.groupBy": {`
			const m = Map.groupBy([1, 2, 3, 4, -0], (n) => (n % 2 === 0 ? 0 : "odd"));
			return [m instanceof Map, [...m.keys()], m.get(0)];`,
			`[true,["odd",0],[2,4,0]]`},
		"Promise.withResolvers": {`
			const { promise, resolve } = Promise.withResolvers();
			setTimeoutLike(resolve);
			return await promise;
			function setTimeoutLike(f) { Promise.resolve().then(() => f("resolved")); }`,
			`"resolved"`},
		"Array.fromAsync": {`
			const fromSync = await Array.fromAsync([Promise.resolve(1), 2], (x) => x * 10);
			const fromAsync = await Array.fromAsync({ [Symbol.asyncIterator]: () => {
				let i = 0;
				return { next: async () => (i < 2 ? { value: i++, done: false } : { done: true }) };
			} });
			return [fromSync, fromAsync, Array.fromAsync.length];`,
			`[[10,20],[0,1],1]`},
		"well-formed strings": {`
			return ["ok😀".isWellFormed(), "a\uD800b".isWellFormed(), "a\uD800b\uDC00".toWellFormed() === "a\uFFFDb\uFFFD"];`,
			`[true,false,true]`},
		"iterator helpers": {`
			function* naturals() { for (let i = 1; ; i++) yield i; }
			const evens = naturals().filter((n) => n % 2 === 0).map((n) => n * n).take(3).toArray();
			const m = new Map([["a", 1], ["b", 2]]);
			return [
				evens,
				m.values().reduce((a, b) => a + b),
				Iterator.from({ next() { return { done: true }; } }).toArray(),
				naturals().drop(5).find((n) => n % 7 === 0),
				[..."ab"].values().flatMap((c) => [c, c.toUpperCase()]).toArray(),
				typeof Iterator, Object.prototype.toString.call(naturals().map((x) => x)),
			];`,
			`[[4,16,36],3,[],7,["a","A","b","B"],"function","[object Iterator Helper]"]`},
		"Array.prototype[Symbol.unscopables]": {`
			return Reflect.ownKeys(Array.prototype[Symbol.unscopables]);`,
			`["at","copyWithin","entries","fill","find","findIndex","findLast","findLastIndex","flat","flatMap","includes","keys","toReversed","toSorted","toSpliced","values"]`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			wantJSON(t, evaluate(t, c.code), c.want)
		})
	}
}
