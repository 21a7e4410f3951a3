package jsplatform

import (
	_ "embed"
)

// The standard built-ins goja lacks, written in JavaScript after the
// specification: made in the realm, so they are the realm's own functions
// and run inside the budget like any script code. Each is made only for
// code that mentions it.

//go:embed groupby.js
var groupBySource string

//go:embed promise.js
var withResolversSource string

//go:embed fromasync.js
var fromAsyncSource string

//go:embed wellformed.js
var wellFormedSource string

//go:embed iterator.js
var iteratorSource string

// iteratorMentions find code that may use an iterator helper: the Iterator
// global, or an iterator that is not an array (a generator, a Map's or
// Set's entries, keys or values, matchAll, an explicit Symbol.iterator).
// Arrays' own map and filter need none of it.
var iteratorMentions = []string{
	"Iterator", "function*", "function *", "*[", "* [", ".keys()", ".values()", ".entries()", "matchAll",
	"Symbol.iterator", ".toArray(", ".take(", ".drop(",
}

var builtins = []onDemand{
	{[]string{"groupBy"}, compiled("groupby.js", groupBySource)},
	{[]string{"withResolvers"}, compiled("promise.js", withResolversSource)},
	{[]string{"fromAsync"}, compiled("fromasync.js", fromAsyncSource)},
	{[]string{"isWellFormed", "toWellFormed"}, compiled("wellformed.js", wellFormedSource)},
	{iteratorMentions, compiled("iterator.js", iteratorSource)},
}

// parts are every part made on demand, in the order they are made.
var parts = append(append([]onDemand(nil), repairs...), builtins...)
