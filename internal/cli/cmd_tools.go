package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpexec/mcpexec"
)

// cmdTools runs `demo tools`: the declarations of tools[] as JSON.
func cmdTools(ctx context.Context, args []string, c console) error {
	f, err := parseToolsFlags(c.prog, args, c.stderr)
	if err != nil {
		return err
	}
	s, err := startSession(ctx, sessionConfig{pool: f.poolFlags}, c.stderr, c.err)
	if err != nil {
		return err
	}
	defer s.close()
	decls := s.Declarations(mcpexec.DeclareOptions{})
	if decls == nil {
		decls = []mcpexec.Declaration{}
	}
	data, err := json.MarshalIndent(decls, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s\n", data)
	return s.finish(ctx, nil)
}
