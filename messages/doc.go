// Package messages holds the plain structs the actors exchange: the actor
// protocol, one file per actor. Messages carry values only (no channels, no
// callbacks that reach back into another actor's state), so each actor's
// behaviour can be read from its Receive and its message file alone.
package messages
