// Package test262 runs the ECMAScript conformance suite, test262, through
// an engine: the sandbox (worker processes, the realm, platform and
// transform an Exec script gets), bare goja, or Node, all under the same
// rules, so that their pass rates compare.
//
// The rules are the suite's own (INTERPRETING.md): the harness (assert.js,
// sta.js, doneprintHandle.js for an async test, then the frontmatter's
// includes in order) and the test are evaluated together as global script
// code; a file runs sloppy and strict unless its flags say onlyStrict,
// noStrict or raw (raw: once, as written, without the harness), and passes
// only if every mode passes; an async test passes when it prints
// Test262:AsyncTestComplete once its jobs and timers have drained; a
// negative test passes when its error arises in the phase and is of the
// type its frontmatter names. One file in one mode may take Timeout; a
// crash or timeout fails that file and the run goes on. Skipped are only
// module code, the agent tests that block, what the sandbox leaves out on
// purpose, and what Node 22 does not ship either (skip.go).
package test262
