package pool

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// startServer runs s until the Manager closes or s is stopped.
func (m *Manager) startServer(s *server) {
	ctx, stop := context.WithCancel(m.ctx)
	s.stop = stop
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer close(s.done)
		defer stop()
		s.run(ctx)
	}()
}

// lookup returns the configured server name, or nil.
func (m *Manager) lookup(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers[name]
}

// configuredNames returns the configured server names, sorted.
func (m *Manager) configuredNames() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.names
}

// SetServers makes servers the configured set, as when the servers file
// was edited: a server no longer listed is stopped and its tools leave the
// pool, a new one starts connecting, and one whose entry changed is
// restarted with the new entry. A server whose entry is unchanged keeps its
// connection. Two servers with one name are an error, and nothing changes.
// It returns once the stopped servers are gone.
func (m *Manager) SetServers(servers []ServerConfig) error {
	want := make(map[string]ServerConfig, len(servers))
	for _, cfg := range servers {
		if _, dup := want[cfg.Name]; dup {
			return fmt.Errorf("mcp server %q is configured twice", cfg.Name)
		}
		if cfg.Err == nil {
			cfg.Err = cfg.Validate()
		}
		want[cfg.Name] = cfg
	}
	m.reconfigure.Lock()
	defer m.reconfigure.Unlock()

	m.mu.Lock()
	var stopping []*server
	why := map[*server]error{}
	for name, s := range m.servers {
		cfg, ok := want[name]
		switch {
		case !ok:
			why[s] = errRemovedByConfig
		case !sameEntry(s.cfg, cfg):
			why[s] = errRestartedByConfig
		default:
			continue
		}
		stopping = append(stopping, s)
	}
	m.mu.Unlock()
	// A stopping server may still publish until its run returns; only then
	// are its traces removed, so none comes back.
	for _, s := range stopping {
		if s.stop != nil {
			s.stopFor(why[s])
			<-s.done
		}
	}

	m.mu.Lock()
	for _, s := range stopping {
		delete(m.servers, s.cfg.Name)
		delete(m.status, s.cfg.Name)
		delete(m.live, s.cfg.Name)
	}
	var starting []*server
	for name, cfg := range want {
		if _, running := m.servers[name]; running {
			continue
		}
		s := newServer(m, cfg)
		m.servers[name] = s
		switch {
		case cfg.Disabled:
			m.status[name] = ServerStatus{Name: name, State: StateDisabled}
			continue
		case cfg.Err != nil:
			m.status[name] = ServerStatus{Name: name, State: StateInvalid, Err: cfg.Err}
			continue
		}
		m.status[name] = ServerStatus{Name: name, State: StateConnecting}
		starting = append(starting, s)
	}
	m.names = slices.Sorted(maps.Keys(m.servers))
	m.redactor = m.newRedactorLocked()
	m.rebuildLocked()
	m.mu.Unlock()

	for _, s := range starting {
		m.startServer(s)
	}
	return nil
}

// sameEntry reports whether two entries configure the same server: the same
// command line, address and settings (a Dial function is compared by
// identity).
func sameEntry(a, b ServerConfig) bool {
	if reflect.ValueOf(a.Dial).Pointer() != reflect.ValueOf(b.Dial).Pointer() {
		return false
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	a.Dial, b.Dial = nil, nil
	if errText(a.Err) != errText(b.Err) {
		return false
	}
	a.Err, b.Err = nil, nil
	return reflect.DeepEqual(a, b)
}
