// Package pause lets code that waits for a person stop the clock of the
// wall-clock budget it runs under, and start it again when the person has
// answered.
//
// A script's budget is there to end scripts that spin, not to hurry the
// person: time a nested call spends waiting for a permission prompt or for
// a server's question (elicitation) must not count against it. The owner
// of a budget (the sandbox, for an Exec run) puts a [Clock] in the context
// of every nested call; whoever then waits for a person (the permission
// gate, the pool's elicitation handler) calls [ForPerson] with that context
// and calls the returned function when the wait is over.
//
// The package is a leaf (standard library only) so that every layer can
// use it without depending on the sandbox.
package pause

import "context"

// Clock is a budget whose clock can be stopped. Pause stops it (waits nest:
// the clock runs again when every Pause has been resumed) and returns the
// function that ends this pause; calling it more than once is harmless.
type Clock interface {
	Pause() (resume func())
}

type clockKey struct{}

// WithClock returns a context under which ForPerson stops c.
func WithClock(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}

// ForPerson stops the budget clock of ctx, if it has one, while its caller
// waits for a person, and returns the function that starts it again.
func ForPerson(ctx context.Context) (resume func()) {
	c, ok := ctx.Value(clockKey{}).(Clock)
	if !ok || c == nil {
		return func() {}
	}
	return c.Pause()
}
