package nodes_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"testing"

	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/nodes"
)

// handshake runs one TLS handshake between a server and a client with the
// given configurations, and returns the server's error and the client's.
func handshake(t *testing.T, server, client *tls.Config) (serverErr, clientErr error) {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", server)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer conn.Close()
		err = conn.(*tls.Conn).Handshake()
		if err == nil {
			_, err = conn.Write([]byte("x"))
		}
		done <- err
	}()
	conn, err := tls.Dial("tcp", ln.Addr().String(), client)
	if err == nil {
		// TLS 1.3: the client learns of a refused certificate on its
		// first read.
		_, err = io.ReadFull(conn, make([]byte, 1))
		conn.Close()
	}
	return <-done, err
}

func config(t *testing.T, files testcerts.Files) *tls.Config {
	t.Helper()
	cfg, err := nodes.TLSFiles(files).Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The daemon and its nodes authenticate each other: each side accepts only
// a peer whose certificate their CA signed. A daemon from another CA is
// refused by the node, and a node from another CA by the daemon.
func TestMutualTLSRefusesAPeerFromAnotherAuthority(t *testing.T) {
	ours, theirs := testcerts.NewAuthority(t), testcerts.NewAuthority(t)
	node, daemon := config(t, ours.Issue("node")), config(t, ours.Issue("daemon"))

	if serverErr, clientErr := handshake(t, node, daemon); serverErr != nil || clientErr != nil {
		t.Fatalf("daemon and node of one CA: server %v, client %v", serverErr, clientErr)
	}

	// A stranger that trusts our CA, so that only our side can refuse.
	stranger := config(t, theirs.Issue("stranger"))
	stranger.RootCAs, stranger.ClientCAs = node.RootCAs, node.RootCAs

	var unknown x509.UnknownAuthorityError
	if serverErr, _ := handshake(t, node, stranger); !errors.As(serverErr, &unknown) {
		t.Errorf("the node let in a daemon whose certificate another CA signed: %v", serverErr)
	}
	if _, clientErr := handshake(t, stranger, daemon); !errors.As(clientErr, &unknown) {
		t.Errorf("the daemon let in a node whose certificate another CA signed: %v", clientErr)
	}

	// A peer with no certificate at all is refused too.
	bare := &tls.Config{RootCAs: node.RootCAs, MinVersion: tls.VersionTLS13}
	if serverErr, _ := handshake(t, node, bare); serverErr == nil {
		t.Errorf("the node accepted a daemon without a certificate")
	}
}
