package oauth_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcpexec/mcpexec/oauth"
)

// A grant round-trips through its file, which only the owner can read, and
// no server name reaches outside the directory.
func TestFileStoreKeepsOneOwnerOnlyFilePerServer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oauth")
	store := oauth.FileStore{Dir: dir}
	ctx := context.Background()
	if g, err := store.Load(ctx, "github"); g != nil || err != nil {
		t.Fatalf("Load of a server never saved: %+v, %v", g, err)
	}
	want := &oauth.Grant{
		ServerURL: "https://mcp.example/mcp", ClientID: "id", ClientSecret: "secret", TokenURL: "https://as.example/token",
		AuthStyle: oauth2.AuthStyleInHeader, Scopes: []string{"read"},
		Token: &oauth2.Token{AccessToken: "at", RefreshToken: "rt", TokenType: "Bearer", Expiry: time.Unix(2e9, 0).UTC()},
	}
	for _, name := range []string{"github", "../escape", "a/b"} {
		if err := store.Save(ctx, name, want); err != nil {
			t.Fatal(err)
		}
		got, err := store.Load(ctx, name)
		if err != nil || got == nil || got.ClientSecret != "secret" || got.Token.RefreshToken != "rt" ||
			!got.Token.Expiry.Equal(want.Token.Expiry) || got.AuthStyle != oauth2.AuthStyleInHeader {
			t.Errorf("%q: Load = %+v, %v", name, got, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Errorf("files %v, want one per server and nothing else", entries)
	}
	for _, e := range entries {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", info.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.json")); !os.IsNotExist(err) {
		t.Errorf("a server name reached outside the directory: %v", err)
	}
}

// A grant file that is not JSON is an error naming the file, not its content.
func TestFileStoreReportsABrokenFileWithoutItsContent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"token": {"access_token": "secret-at"`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := oauth.FileStore{Dir: dir}.Load(context.Background(), "s")
	if err == nil || strings.Contains(err.Error(), "secret-at") || !strings.Contains(err.Error(), "s.json") {
		t.Errorf("err = %v", err)
	}
}
