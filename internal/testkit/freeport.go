package testkit

import (
	"net"
	"testing"
)

// FreePort is a loopback TCP port nothing listens on at the moment, for a
// process under test that must be told its port before it starts.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
