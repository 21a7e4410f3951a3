package mcpexec

import "github.com/mcpexec/mcpexec/internal/telemetry"

// workerStats are the sandbox worker pool's counts, for the metrics.
func (s *System) workerStats() telemetry.WorkerStats {
	st := s.workers.Stats()
	return telemetry.WorkerStats{Alive: st.Alive, Idle: st.Idle, Spawned: st.Spawned, Restarted: st.Restarted}
}

// serverStates are the configured servers' connection states, for the
// metrics.
func (s *System) serverStates() []telemetry.ServerState {
	var out []telemetry.ServerState
	for _, st := range s.Servers() {
		out = append(out, telemetry.ServerState{Server: st.Name, State: st.State.String()})
	}
	return out
}
