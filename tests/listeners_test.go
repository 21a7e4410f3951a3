package tests

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
)

// listeningSockets returns the local addresses (hex, as /proc/net/tcp
// writes them) of the listening TCP sockets process pid holds.
func listeningSockets(t *testing.T, pid int) []string {
	t.Helper()
	fdDir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return nil // gone
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join(fdDir, fd.Name())); err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var local []string
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "net", table))
		if err != nil {
			continue
		}
		lines := bufio.NewScanner(f)
		for lines.Scan() {
			fields := strings.Fields(lines.Text())
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fields) > 9 && fields[3] == "0A" && inodes[fields[9]] {
				local = append(local, fields[1])
			}
		}
		f.Close()
	}
	return local
}

// onAllInterfaces reports whether a /proc/net/tcp{,6} local address is the
// unspecified address (0.0.0.0 or ::).
func onAllInterfaces(local string) bool {
	host, _, _ := strings.Cut(local, ":")
	return strings.Trim(host, "0") == ""
}

// A sandbox node told to listen on loopback, and the serve that uses it,
// listen on loopback only: the node's remote and its membership endpoint,
// serve's HTTP endpoint and remote, and none of their children listens on
// every interface. The membership endpoint answers only a peer with a
// certificate of the cluster's authority.
func TestSandboxNodeAndServeListenOnlyWhereTheyAreTold(t *testing.T) {
	ca := testcerts.NewAuthority(t)
	mark := newRunMark(t)
	membershipPort := testkit.FreePort(t)
	node := startSandboxNode(t, ca.Issue("node"), testkit.FreePort(t), membershipPort, mark)
	daemon := ca.Issue("daemon")
	g := startHTTPGatewayWith(t, mark, nil, "--node", node.membership, "--node-listen", "127.0.0.1:0",
		"--tls-cert", daemon.Cert, "--tls-key", daemon.Key, "--tls-ca", daemon.CA)
	cs := g.connect(t)
	waitFor(t, "a script to run on the sandbox node", func() bool {
		text, failed := execText(t, cs, `return 6 * 7`)
		return !failed && strings.Contains(text, "42")
	})

	var membershipSeen bool
	wantMembership := strings.ToUpper(strconv.FormatInt(int64(membershipPort), 16))
	for _, p := range processesMarked(t, mark) {
		pid, _ := strconv.Atoi(strings.Fields(p)[0])
		for _, local := range listeningSockets(t, pid) {
			if onAllInterfaces(local) {
				t.Errorf("%s listens on every interface (%s)", p, local)
			}
			if strings.HasSuffix(local, ":"+strings.Repeat("0", 4-len(wantMembership))+wantMembership) {
				membershipSeen = true
			}
		}
	}
	if !membershipSeen {
		t.Errorf("found no listener on the membership port %d", membershipPort)
	}

	// Membership is not for anyone on the network: plain HTTP and HTTPS
	// without a certificate of the cluster's authority get nothing.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for name, client := range map[string]*http.Client{
		"plain HTTP":                         {},
		"HTTPS without a client certificate": {Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: certPool(t, daemon.CA)}}},
	} {
		scheme := "http://"
		if name != "plain HTTP" {
			scheme = "https://"
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, scheme+node.membership+"/_health", nil)
		if res, err := client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				t.Errorf("membership answered %s", name)
			}
		}
	}
}

func certPool(t *testing.T, caFile string) *x509.CertPool {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return pool
}
