package oauth_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpexec/mcpexec/oauth"
)

// A program on the person's machine shows the authorization URL and gets
// the code back through its loopback listener; grants are kept in files.
// Give both to mcpexec.Options (Authorizer, OAuthStore).
func ExampleNewLoopback() {
	authorizer, err := oauth.NewLoopback("", func(_ context.Context, req oauth.Request) error {
		fmt.Fprintf(os.Stderr, "Authorize %s: open %s\n", req.Server, req.URL)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer authorizer.Close()
	dir, _ := oauth.DefaultDir()
	store := oauth.FileStore{Dir: dir}

	redirect, _ := url.Parse(authorizer.RedirectURL())
	fmt.Println(redirect.Hostname(), redirect.Path)
	fmt.Println(strings.HasSuffix(store.Dir, filepath.Join("mcpexec", "oauth")))
	// Output:
	// 127.0.0.1 /callback
	// true
}
