package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/oauth"
	"github.com/mcpexec/mcpexec/pool"
)

// oauthFlags say how the demo authorizes MCP servers that require OAuth.
type oauthFlags struct {
	tokens      string        // token directory; "" = oauth.DefaultDir()
	openBrowser bool          // open the authorization URL, not only print it
	port        int           // loopback redirect port; 0 = any free one
	wait        time.Duration // how long to wait for a person to authorize; 0 = defaultAuthWait
}

// defaultAuthWait is how long a command waits for a person to authorize
// before it runs without the server.
const defaultAuthWait = 5 * time.Minute

func addOAuthFlags(fs *flag.FlagSet, f *oauthFlags) {
	fs.StringVar(&f.tokens, "oauth-tokens", "", "`DIR` where OAuth tokens are kept (default: mcpexec/oauth in the user's config directory)")
	fs.BoolVar(&f.openBrowser, "open-browser", false, "open OAuth authorization pages in a browser ($BROWSER, else the system's opener)")
	fs.IntVar(&f.port, "oauth-port", 0, "loopback `PORT` receiving OAuth redirects (default: any free port)")
	durationFlag(fs, &f.wait, "auth-wait", 0, "how long to wait for OAuth authorizations before running without those servers, a `duration` (default 5m)")
}

// demoAuthorizer prints authorization URLs (and opens them on request) and
// receives the redirects on a loopback listener.
type demoAuthorizer struct {
	*oauth.Loopback
	out         io.Writer
	st          style
	openBrowser bool
}

func newDemoAuthorizer(f oauthFlags, out io.Writer, st style) (*demoAuthorizer, error) {
	a := &demoAuthorizer{out: out, st: st, openBrowser: f.openBrowser}
	addr := "127.0.0.1:" + strconv.Itoa(f.port)
	lb, err := oauth.NewLoopback(addr, a.show)
	if err != nil {
		return nil, err
	}
	a.Loopback = lb
	return a, nil
}

// show tells the person which server wants authorization and where to go.
func (a *demoAuthorizer) show(_ context.Context, req oauth.Request) error {
	fmt.Fprintf(a.out, "%s\n  %s\n", a.st.bold(fmt.Sprintf("MCP server %q needs authorization; open this page:", req.Server)), req.URL)
	if a.openBrowser {
		if err := openBrowser(req.URL); err != nil {
			fmt.Fprintf(a.out, "%s\n", a.st.bad("could not open a browser: "+err.Error()))
		}
	}
	return nil
}

// openBrowser starts $BROWSER, or the system's URL opener, on url. It does
// not wait for the browser; the process is reaped in the background.
func openBrowser(url string) error {
	name, args := os.Getenv("BROWSER"), []string{url}
	if name == "" {
		switch runtime.GOOS {
		case "darwin":
			name = "open"
		case "windows":
			name, args = "rundll32", []string{"url.dll,FileProtocolHandler", url}
		default:
			name = "xdg-open"
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// oauthOptions sets the authorizer and the token store of a session.
func oauthOptions(opts *mcpexec.Options, f oauthFlags, a *demoAuthorizer) error {
	opts.Authorizer = a
	dir := f.tokens
	if dir == "" {
		var err error
		if dir, err = oauth.DefaultDir(); err != nil {
			return err
		}
	}
	opts.OAuthStore = oauth.FileStore{Dir: dir}
	return nil
}

// waitAuthorized waits while a server that needed a person's authorization
// when the start-up wait ended is still waiting for it or connecting after
// it, up to wait: a one-shot command is only useful once the person has
// authorized. Servers merely slow to start are not waited for here.
func waitAuthorized(ctx context.Context, s *mcpexec.System, wait time.Duration) error {
	asked := map[string]bool{}
	for _, srv := range s.Servers() {
		if srv.State == pool.StateAuthorizationRequired {
			asked[srv.Name] = true
		}
	}
	if len(asked) == 0 {
		return nil
	}
	if wait <= 0 {
		wait = defaultAuthWait
	}
	give := time.NewTimer(wait)
	defer give.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		pending := false
		for _, srv := range s.Servers() {
			if asked[srv.Name] && (srv.State == pool.StateConnecting || srv.State == pool.StateAuthorizationRequired) {
				pending = true
			}
		}
		if !pending {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-give.C:
			return nil
		case <-tick.C:
		}
	}
}
