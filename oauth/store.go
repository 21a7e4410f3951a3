package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"golang.org/x/oauth2"

	"github.com/mcpexec/mcpexec/internal/atomicfile"
)

// Grant is what a server's authorization leaves behind: the token, and the
// client it was issued to, which a refresh needs (a dynamically registered
// client exists nowhere else).
type Grant struct {
	// ServerURL is the MCP server the grant is for. A grant whose URL is not
	// the configured one is ignored: the server entry now names another
	// resource.
	ServerURL string `json:"serverUrl"`
	// ClientID and ClientSecret are the client the token was issued to.
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// TokenURL is the authorization server's token endpoint; AuthStyle how
	// the client authenticates there (golang.org/x/oauth2.AuthStyle).
	TokenURL  string           `json:"tokenUrl"`
	AuthStyle oauth2.AuthStyle `json:"authStyle"`
	// Scopes are the scopes that were requested.
	Scopes []string `json:"scopes,omitempty"`
	// Token is the access token, its expiry and the refresh token.
	Token *oauth2.Token `json:"token"`
}

// Store keeps one Grant per server. Implementations must be safe for
// concurrent use; the pool calls them from each server's connection.
type Store interface {
	// Load returns the server's grant, or nil and no error when there is
	// none.
	Load(ctx context.Context, server string) (*Grant, error)
	// Save replaces the server's grant.
	Save(ctx context.Context, server string, g *Grant) error
}

// FileStore keeps each server's grant in its own file, <Dir>/<server>.json,
// readable and writable by the owner only (0600, in a 0700 directory).
// Writes are atomic: a crash leaves the old grant or the new one.
type FileStore struct {
	Dir string
}

// DefaultDir is where FileStore keeps grants unless told otherwise:
// mcpexec/oauth under the user's configuration directory
// ($XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on
// macOS, %AppData% on Windows).
func DefaultDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("oauth token directory: %w", err)
	}
	return filepath.Join(base, "mcpexec", "oauth"), nil
}

// path is the server's file. The name is escaped so that no server name can
// reach outside Dir.
func (s FileStore) path(server string) string {
	return filepath.Join(s.Dir, url.PathEscape(server)+".json")
}

// Load reads the server's grant.
func (s FileStore) Load(_ context.Context, server string) (*Grant, error) {
	data, err := os.ReadFile(s.path(server))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var g Grant
	if err := json.Unmarshal(data, &g); err != nil {
		// The error names the file, never its content.
		return nil, fmt.Errorf("oauth grant %s is not valid JSON", s.path(server))
	}
	return &g, nil
}

// Save writes the server's grant.
func (s FileStore) Save(_ context.Context, server string, g *Grant) error {
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path(server), data)
}
