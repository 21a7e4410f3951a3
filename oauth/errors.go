package oauth

import (
	"errors"
	"strings"
)

// ErrAuthorizationRequired is the state of a server that needs a person to
// authorize it before it can connect: no grant is stored (or the stored one
// was refused) and the authorization is pending, or no [Authorizer] exists.
var ErrAuthorizationRequired = errors.New("authorization required")

// redacted stands in for a secret in error text.
const redacted = "[redacted]"

// secretError is err with every known secret replaced in its text. It keeps
// err's tree for errors.Is and errors.As (the SDK's transport looks for an
// oauth2.RetrieveError to decide whether to ask again), so a caller that
// prints the unwrapped error is the caller's choice, never this package's.
type secretError struct {
	msg string
	err error
}

func (e *secretError) Error() string { return e.msg }
func (e *secretError) Unwrap() error { return e.err }

// redact returns err with every non-empty secret replaced in its text.
func redact(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, redacted)
		}
	}
	return &secretError{msg: msg, err: err}
}
