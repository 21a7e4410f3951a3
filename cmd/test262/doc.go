// Command test262 runs the ECMAScript conformance suite, test262, through
// the sandbox exactly as Exec runs a script: in sandbox worker processes,
// each file in a fresh realm with the lockdown, the JavaScript platform and
// the transform, evaluated as global script code.
//
//	go run ./cmd/test262 -dir CHECKOUT [-filter REGEXP] [-engine sandbox|goja|node] [-j N] [-v]
//
// -filter is a Go regexp on each file's slash path relative to -dir (say
// '^test/built-ins/Array/'). The output is one line per directory that
// holds test files directly,
//
//	test/built-ins/Array/from: 47 passed, 1 failed, 0 skipped
//
// then the totals, "N passed, M failed". The exit code is 0 when no file
// failed, 1 otherwise, 2 on a bad command line. -engine goja runs bare
// goja and -engine node Node (-node BINARY), under the same rules, to
// compare; -v names each failed file and why on standard error. The rules
// are in package internal/test262. The repository does not include the
// suite: check it out (github.com/tc39/test262) and point -dir at it.
package main
