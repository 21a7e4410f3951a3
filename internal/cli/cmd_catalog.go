package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
)

var errNoCatalog = errors.New("the pool is empty: there is no MCP tool to catalog")

// cmdCatalog runs `demo catalog`: the catalog message a model would find
// appended to a fresh conversation, exactly as it would read it.
func cmdCatalog(ctx context.Context, args []string, c console) error {
	f, err := parseCatalogFlags(args, c.stderr)
	if err != nil {
		return err
	}
	s, err := startSession(ctx, sessionConfig{
		servers: f.servers, options: mcpexec.Options{CatalogBudget: f.budget}, oauth: f.oauth,
	}, c.stderr, c.err)
	if err != nil {
		return err
	}
	defer s.close()
	msg, ok, err := catalogMessage(s.System, broadcast.NewHistory())
	if err != nil {
		return err
	}
	if !ok {
		return errNoCatalog
	}
	fmt.Fprintln(c.stdout, msg.Text)
	return nil
}

// catalogMessage returns the catalog message Broadcast would append to
// history now, leaving history as it was.
func catalogMessage(s *mcpexec.System, history broadcast.Channel) (broadcast.Message, bool, error) {
	msgs, err := s.Broadcast(history, mcpexec.DeclareOptions{})
	if err != nil {
		return broadcast.Message{}, false, err
	}
	for _, m := range msgs {
		if m.Catalog != nil {
			return m, true, nil
		}
	}
	return broadcast.Message{}, false, nil
}
