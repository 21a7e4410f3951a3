// Package exectool is the Exec tool as the model sees it: its name, its
// constant description and parameter schema, the validation of its
// arguments, and the result summary shown to the person (SUM-*).
//
// The description names only the sandbox's API surface. It never depends on
// the pool, so tools[] (and the cached prompt prefix it sits in) stays the
// same byte for byte however servers come and go; the pool reaches the model
// through catalog messages instead (D5, BCAST-1, NFR-5).
package exectool
