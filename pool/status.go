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
