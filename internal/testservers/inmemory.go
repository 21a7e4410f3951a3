package testservers

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DialInMemory returns a pool Dial function connecting to s over the SDK's
// in-memory transports; every call opens a new server session.
func DialInMemory(s *mcp.Server) func(context.Context) (mcp.Transport, error) {
	return func(context.Context) (mcp.Transport, error) {
		client, server := mcp.NewInMemoryTransports()
		if _, err := s.Connect(context.Background(), server, nil); err != nil {
			return nil, err
		}
		return client, nil
	}
}
