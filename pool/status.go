package pool

// State is a server's connection state.
type State int

const (
	// StateConnecting: first attempt in progress.
	StateConnecting State = iota + 1
	// StateConnected: connected and its tools are in the pool.
	StateConnected
	// StateRetrying: the last attempt failed or the connection dropped; a
	// reconnect is scheduled.
	StateRetrying
	// StateInvalid: the configuration entry is unusable (see Err).
	StateInvalid
	// StateDisabled: the entry says "disabled": true; it is never started.
	StateDisabled
	// StateAuthorizationRequired: the server needs OAuth authorization by a
	// person before it can connect; the authorization is pending, or no
	// one can be asked. Err is oauth.ErrAuthorizationRequired.
	StateAuthorizationRequired
)

func (s State) String() string {
	switch s {
	case StateConnecting:
		return "connecting"
	case StateConnected:
		return "connected"
	case StateRetrying:
		return "retrying"
	case StateInvalid:
		return "invalid"
	case StateDisabled:
		return "disabled"
	case StateAuthorizationRequired:
		return "authorization required"
	}
	return "unknown"
}

// ServerStatus describes one configured server.
type ServerStatus struct {
	Name  string
	State State
	// Tools is the number of tools the server listed (before exclusion).
	Tools int
	// Err is the last failure (configuration, connect, list, crash).
	Err error
	// Connects counts successful connections, reconnects included.
	Connects int
}

// Why says why a server that is not connected is down, in words for a
// model and a person: "still starting", "disabled in the MCP servers
// configuration", or its last error.
func (s ServerStatus) Why() string {
	switch {
	case s.State == StateConnected:
		return ""
	case s.State == StateDisabled:
		return "disabled in the MCP servers configuration"
	case s.State == StateAuthorizationRequired:
		// Not the connection error around it: the person needs to know
		// what to do, not which request found out.
		return "authorization required"
	case s.Err != nil && s.State == StateRetrying && s.Connects > 0 && !stoppedOnPurpose(s.Err):
		return "it is reconnecting: " + s.Err.Error()
	case s.Err != nil:
		return s.Err.Error()
	case s.State == StateConnecting:
		return "still starting"
	}
	return "not connected"
}
