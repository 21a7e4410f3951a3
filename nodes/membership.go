package nodes

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
)

// StaticMembership is a protoactor cluster provider for a static list of
// members, in the manner of protoactor's automanaged provider (each member
// answers GET /_health with its address and kinds; every side polls the
// list and publishes the members that answered), with what a shared network
// needs and the automanaged provider lacks: a member's endpoint listens on
// the address it is given, not on every interface, and it speaks HTTPS with
// the TLS configuration given, so that with mutual TLS (the same as the
// remote's) only a peer holding a certificate of the cluster's authority
// learns or takes part in membership. It depends on nothing of mcpexec.
type StaticMembership struct {
	// Bind is where a member's endpoint listens, host:port; a client
	// (StartClient) listens nowhere.
	Bind string
	// Peers are the endpoints polled, host:port.
	Peers []string
	// TLS serves the endpoint and polls the peers; required.
	TLS *tls.Config
	// Refresh is how often the peers are polled.
	Refresh time.Duration

	mu      sync.Mutex
	stopped chan struct{}
	done    sync.WaitGroup
	server  *http.Server
	client  *http.Client
}

// healthPath is the automanaged provider's: a node answers it.
const healthPath = "/_health"

// pollTimeout bounds one poll of one peer.
const pollTimeout = 2 * time.Second

// memberModel is what a member's endpoint answers: the automanaged
// provider's NodeModel.
type memberModel struct {
	ID             string   `json:"id"`
	Address        string   `json:"address"`
	AutoManagePort int      `json:"auto_manage_port"`
	Port           int      `json:"port"`
	Kinds          []string `json:"kinds"`
	ClusterName    string   `json:"cluster_name"`
}

// StartMember serves the member's endpoint on Bind and polls the peers.
// It returns an error when Bind cannot be listened on.
func (p *StaticMembership) StartMember(c *cluster.Cluster) error {
	if p.TLS == nil {
		return errors.New("nodes: membership needs a TLS configuration")
	}
	host, port, err := c.ActorSystem.GetHostPort()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", p.Bind)
	if err != nil {
		return fmt.Errorf("nodes: membership endpoint on %s: %w", p.Bind, err)
	}
	_, bindPort, _ := net.SplitHostPort(ln.Addr().String())
	self := memberModel{ID: c.ActorSystem.ID, Address: host, Port: port, Kinds: c.GetClusterKinds(), ClusterName: c.Config.Name}
	_, _ = fmt.Sscan(bindPort, &self.AutoManagePort)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+healthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(self)
	})
	p.server = &http.Server{Handler: mux, ReadHeaderTimeout: pollTimeout}
	p.start(c)
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		_ = p.server.Serve(tls.NewListener(ln, p.TLS))
	}()
	return nil
}

// StartClient polls the peers.
func (p *StaticMembership) StartClient(c *cluster.Cluster) error {
	if p.TLS == nil {
		return errors.New("nodes: membership needs a TLS configuration")
	}
	p.start(c)
	return nil
}

// Shutdown stops polling and closes the endpoint; it returns once both
// have stopped.
func (p *StaticMembership) Shutdown(bool) error {
	p.mu.Lock()
	stopped := p.stopped
	p.mu.Unlock()
	if stopped != nil {
		select {
		case <-stopped:
		default:
			close(stopped)
		}
	}
	if p.server != nil {
		_ = p.server.Close()
	}
	p.done.Wait()
	if p.client != nil {
		p.client.CloseIdleConnections()
	}
	return nil
}

func (p *StaticMembership) start(c *cluster.Cluster) {
	p.mu.Lock()
	p.stopped = make(chan struct{})
	stopped := p.stopped
	p.mu.Unlock()
	p.client = &http.Client{Timeout: pollTimeout, Transport: &http.Transport{TLSClientConfig: p.TLS.Clone()}}
	refresh := p.Refresh
	if refresh <= 0 {
		refresh = DefaultRefreshInterval
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		for {
			p.poll(c)
			select {
			case <-stopped:
				return
			case <-time.After(refresh):
			}
		}
	}()
}

// poll asks every peer and publishes those that answered. When none did,
// the topology is left as it was, as the automanaged provider does: the
// daemon's placement tells a node that is down by its connection.
func (p *StaticMembership) poll(c *cluster.Cluster) {
	found := make([]*memberModel, len(p.Peers))
	var wg sync.WaitGroup
	for i, peer := range p.Peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i] = p.ask(peer)
		}()
	}
	wg.Wait()
	var members []*cluster.Member
	for _, m := range found {
		if m != nil && m.ClusterName == c.Config.Name {
			members = append(members, &cluster.Member{Id: m.ID, Host: m.Address, Port: int32(m.Port), Kinds: m.Kinds})
		}
	}
	if len(members) == 0 && len(p.Peers) > 0 {
		return
	}
	c.MemberList.UpdateClusterTopology(members)
}

// ask reads one peer's member model; nil when it did not answer.
func (p *StaticMembership) ask(peer string) *memberModel {
	ctx, cancel := context.WithTimeout(context.Background(), pollTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+peer+healthPath, nil)
	if err != nil {
		return nil
	}
	res, err := p.client.Do(req)
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil
	}
	var m memberModel
	if json.NewDecoder(res.Body).Decode(&m) != nil {
		return nil
	}
	return &m
}
