// Package jsplatform is the JavaScript platform a sandbox realm gets beyond
// what goja builds: the web globals that are safe in a sandbox (URL,
// URLSearchParams, atob, btoa, TextEncoder, TextDecoder, structuredClone,
// crypto, performance, queueMicrotask, and the timers the embedder lends),
// and the repairs of goja's built-ins that scripts rely on (JSON.parse with
// V8's messages, Symbol.asyncIterator, typed-array from over strings), and
// Intl (package intl), with the built-ins' locale-sensitive methods.
//
// Install puts the platform into one runtime; everything it makes is
// created in that runtime's realm, so a script reaches no function of
// another realm and no Go value behind one. Nothing is made before a script
// needs it: a global is built the first time it is read (the global
// object's prototype is a dynamic object that makes it), and a repair of a
// built-in runs only for code that mentions what it repairs (Prepare),
// because building one of goja's lazily made intrinsics costs a trivial run
// more than the repair is worth when the script never uses it.
//
// The platform holds no clock, randomness or event loop of its own beyond
// what Config lends it: a sandbox run lends its timers and its clock.
package jsplatform
