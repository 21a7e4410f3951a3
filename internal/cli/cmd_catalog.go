package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
)

var errNoCatalog = errors.New("no catalog: the pool is empty, or the settings switch Exec off")

// cmdCatalog runs the catalog command: the meta messages a model would find
// appended to a fresh conversation, exactly as it would read them: the
// catalog (after the settings' deny rules), then the servers' usage
// instructions, separated by blank lines.
func cmdCatalog(ctx context.Context, args []string, c console) error {
	f, err := parseCatalogFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	s, err := startSession(ctx, sessionConfig{
		pool: f.poolFlags, options: mcpexec.Options{CatalogBudget: f.budget},
	}, c.stderr, c.err)
	if err != nil {
		return err
	}
	defer s.close()
	return s.finish(ctx, printCatalog(s, c.stdout))
}

// printCatalog prints the meta messages of a fresh conversation, separated
// by blank lines.
func printCatalog(s *session, w io.Writer) error {
	msgs, err := s.Broadcast(broadcast.NewHistory(), mcpexec.DeclareOptions{})
	if err != nil {
		return err
	}
	if len(msgs) == 0 || msgs[0].Catalog == nil {
		return errNoCatalog
	}
	for i, m := range msgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, m.Text)
	}
	return nil
}
