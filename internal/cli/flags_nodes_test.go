package cli

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/nodes"
)

var nodeTLS = []string{"--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-ca", "ca.pem"}

func TestParseSandboxNodeFlags(t *testing.T) {
	var errOut bytes.Buffer
	got, err := parseSandboxNodeFlags(mcpexecProgram, append([]string{
		"--listen", "10.0.0.11:7400", "--membership-port", "7401", "--workers", "3", "--max-workers", "9",
	}, nodeTLS...), &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	want := sandboxNodeFlags{listen: "10.0.0.11:7400", membershipPort: 7401, warm: 3, maxWorkers: 9, memoryMB: 512,
		tls: tlsFlags{nodes.TLSFiles{Cert: "c.pem", Key: "k.pem", CA: "ca.pem"}}}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// A sandbox node and a daemon with nodes talk over mutual TLS only: a
// command line that leaves out a TLS file, or names TLS files without
// nodes, is refused with a reason.
func TestNodeFlagsRequireMutualTLS(t *testing.T) {
	tests := []struct {
		name  string
		parse func(args []string, errOut *bytes.Buffer) error
		args  []string
		want  string
	}{
		{"node without a CA", func(args []string, errOut *bytes.Buffer) error {
			_, err := parseSandboxNodeFlags(mcpexecProgram, args, errOut)
			return err
		}, []string{"--listen", "127.0.0.1:7400", "--membership-port", "7401", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, "mutual TLS"},
		{"node without a membership port", func(args []string, errOut *bytes.Buffer) error {
			_, err := parseSandboxNodeFlags(mcpexecProgram, args, errOut)
			return err
		}, append([]string{"--listen", "127.0.0.1:7400"}, nodeTLS...), "--membership-port"},
		{"serve with nodes and no TLS", func(args []string, errOut *bytes.Buffer) error {
			_, err := parseServeFlags(mcpexecProgram, args, errOut)
			return err
		}, []string{"--servers", "s.json", "--node", "10.0.0.11:7401"}, "mutual TLS"},
		{"serve with TLS and no nodes", func(args []string, errOut *bytes.Buffer) error {
			_, err := parseServeFlags(mcpexecProgram, args, errOut)
			return err
		}, append([]string{"--servers", "s.json"}, nodeTLS...), "apply to --node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			err := tt.parse(tt.args, &errOut)
			if !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("err %v, output %q: want a usage error naming %q", err, errOut.String(), tt.want)
			}
		})
	}
}

func TestServeFlagsTakeNodes(t *testing.T) {
	var errOut bytes.Buffer
	got, err := parseServeFlags(mcpexecProgram, append([]string{
		"--servers", "s.json", "--node", "a:1", "--node", "b:2", "--node-listen", "10.0.0.5:7400",
	}, nodeTLS...), &errOut)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	want := nodeFlags{nodes: []string{"a:1", "b:2"}, listen: "10.0.0.5:7400", tls: tlsFlags{nodes.TLSFiles{Cert: "c.pem", Key: "k.pem", CA: "ca.pem"}}}
	if !reflect.DeepEqual(got.nodes, want) {
		t.Errorf("got %+v, want %+v", got.nodes, want)
	}
}
