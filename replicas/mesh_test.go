package replicas

import (
	"context"
	"errors"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/internal/testcerts"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/nodes"
)

// testLimit bounds a wait that only a broken mesh makes long.
const testLimit = 30 * time.Second

// startPair starts two replicas, each the other's peer, over mutual TLS
// with certificates of one CA; serveB serves what reaches the second.
func startPair(t *testing.T, serveB Handler) (a, b *Mesh) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() { testkit.CheckGoroutines(t, before) }) // last, after both closed
	ca := testcerts.NewAuthority(t)
	addrA := net.JoinHostPort("127.0.0.1", strconv.Itoa(testkit.FreePort(t)))
	addrB := net.JoinHostPort("127.0.0.1", strconv.Itoa(testkit.FreePort(t)))
	start := func(name, listen, peer string, serve Handler) *Mesh {
		files := ca.Issue(name)
		cfg, err := nodes.TLSFiles{Cert: files.Cert, Key: files.Key, CA: files.CA}.Config()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Start(Options{Listen: listen, Peers: []string{peer, listen}, TLS: cfg, Serve: serve})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	refuse := func(context.Context, []byte, func(string)) []byte {
		t.Error("the first replica was forwarded a request")
		return nil
	}
	return start("a", addrA, addrB, refuse), start("b", addrB, addrA, serveB)
}

// A request forwarded to a peer is served there; the peer's live
// summaries arrive in order before its answer. A replica forwards only to
// its peers.
func TestForwardServesTheRequestOnThePeer(t *testing.T) {
	a, b := startPair(t, func(_ context.Context, payload []byte, onProgress func(string)) []byte {
		onProgress("one")
		onProgress("two")
		return append([]byte("served: "), payload...)
	})
	if !a.Knows(b.Self()) || a.Knows("127.0.0.1:1") {
		t.Fatalf("Knows: peers wrong (self %s, peer %s)", a.Self(), b.Self())
	}
	var mu sync.Mutex
	var heard []string
	ctx, cancel := context.WithTimeout(context.Background(), testLimit)
	defer cancel()
	out, err := a.Forward(ctx, b.Self(), []byte("hello"), func(s string) {
		mu.Lock()
		heard = append(heard, s)
		mu.Unlock()
	})
	if err != nil || string(out) != "served: hello" {
		t.Fatalf("Forward: %q %v", out, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(heard, ",") != "one,two" {
		t.Errorf("progress %v, want one,two before the answer", heard)
	}
	if _, err := a.Forward(ctx, "127.0.0.1:1", nil, nil); err == nil || errors.Is(err, ErrReplicaGone) {
		t.Errorf("forwarding to a stranger: %v, want it refused", err)
	}
}

// A peer that is gone, before the request or while it serves it, fails
// the request as gone.
func TestForwardToAGoneReplicaFails(t *testing.T) {
	serving := make(chan struct{})
	a, b := startPair(t, func(ctx context.Context, _ []byte, _ func(string)) []byte {
		close(serving)
		<-ctx.Done()
		return nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), testLimit)
	defer cancel()
	errs := make(chan error, 1)
	go func() {
		_, err := a.Forward(ctx, b.Self(), []byte("x"), nil)
		errs <- err
	}()
	<-serving
	b.Close()
	if err := <-errs; !errors.Is(err, ErrReplicaGone) {
		t.Errorf("the peer closed while serving: %v, want ErrReplicaGone", err)
	}
	if _, err := a.Forward(ctx, b.Self(), []byte("y"), nil); !errors.Is(err, ErrReplicaGone) {
		t.Errorf("the peer closed before the request: %v, want ErrReplicaGone", err)
	}
}

// A caller that stops waiting has the request cancelled on the peer.
func TestForwardAbandonedCancelsThePeersRequest(t *testing.T) {
	serving, cancelled := make(chan struct{}), make(chan struct{})
	a, b := startPair(t, func(ctx context.Context, _ []byte, _ func(string)) []byte {
		close(serving)
		<-ctx.Done()
		close(cancelled)
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := a.Forward(ctx, b.Self(), []byte("x"), nil)
		errs <- err
	}()
	<-serving
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("Forward after its caller gave up: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(testLimit):
		t.Fatal("the peer's request was never cancelled")
	}
}

// A replica whose certificate another CA signed reaches no replica: its
// request is never served, and it learns the peer is out of its reach.
func TestForwardFromAStrangerIsRefused(t *testing.T) {
	_, b := startPair(t, func(context.Context, []byte, func(string)) []byte {
		t.Error("a stranger's request was served")
		return nil
	})
	files := testcerts.NewAuthority(t).Issue("stranger")
	cfg, err := nodes.TLSFiles{Cert: files.Cert, Key: files.Key, CA: files.CA}.Config()
	if err != nil {
		t.Fatal(err)
	}
	listen := net.JoinHostPort("127.0.0.1", strconv.Itoa(testkit.FreePort(t)))
	stranger, err := Start(Options{Listen: listen, Peers: []string{b.Self()}, TLS: cfg,
		Serve: func(context.Context, []byte, func(string)) []byte { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stranger.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testLimit)
	defer cancel()
	if _, err := stranger.Forward(ctx, b.Self(), []byte("x"), nil); !errors.Is(err, ErrReplicaGone) {
		t.Errorf("a stranger's Forward: %v, want ErrReplicaGone", err)
	}
}
