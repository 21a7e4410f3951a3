package pool

import (
	"context"
	"errors"
)

// Why a connection ended, in words for the model and the person: a server
// that is not connected always says why, from the moment its session ends.
var (
	errRestartedByConfig = errors.New("its entry in the MCP servers configuration changed, so it is restarting")
	errRemovedByConfig   = errors.New("it was removed from the MCP servers configuration")
	errConnectionEnding  = errors.New("its connection ended and it is reconnecting")
)

// stopFor stops the server's run, recording why first.
func (s *server) stopFor(why error) {
	s.stopping.Store(&why)
	s.stop()
}

// endReason says why a connection is ending: its error, or why the run
// was stopped (a servers-file change, the Manager closing).
func (s *server) endReason(ctx context.Context, err error) error {
	if err != nil {
		return err
	}
	if why := s.stopping.Load(); why != nil {
		return *why
	}
	if ctx.Err() != nil {
		return errManagerClosed
	}
	return errConnectionEnding
}

// stoppedOnPurpose reports whether err is a stop mcpexec made, which says
// on its own what happens next.
func stoppedOnPurpose(err error) bool {
	return errors.Is(err, errRestartedByConfig) || errors.Is(err, errRemovedByConfig) || errors.Is(err, errManagerClosed)
}
