// Package nodes runs scripts on sandbox nodes: other machines that host
// sandbox actors and their worker processes for a daemon, through
// protoactor's remote (gRPC) and cluster. It writes no transport and no
// membership of its own.
//
// A node (StartNode, "mcpexec sandbox-node") is a protoactor cluster member
// whose one kind is the sandbox actor. It holds no MCP connection, no
// settings and no secret besides its TLS key. A daemon (Join) is a cluster
// client: it learns the nodes from membership and places each run on one
// (Placement, which actors.Execs uses): it asks the node's remote activator
// for a sandbox actor, and the run's exec actor, which stays in the daemon,
// sends it the script. From then on the run is messages between those two
// actors (package nodepb, protobuf as protoactor's remote expects): each
// nested call comes back to the exec actor as a NestedCall and goes through
// the funnel (the permission gate, the pool) as a local run's does; its
// answer goes back as a CallAnswer. A run on the daemon's own machine never
// builds these messages.
//
// # Trust
//
// A node runs model code, so the daemon does not take its word: the exec
// actor checks every call against the run's tool set and call cap
// (sandbox.RemoteRun), keeps the images, the console output and the calls
// made so far, and holds a budget of its own that starts when the node has
// a worker for the run. The daemon and its nodes authenticate each other
// with mutual TLS through gRPC credentials (TLSFiles): each accepts only a
// peer whose certificate their CA signed.
//
// # Faults
//
// The exec actor watches the run's sandbox actor. When the node is lost
// (the connection to it breaks), protoactor tells the watcher, and the run
// ends with sandbox.MsgMachineLost; its calls that completed stay in effect.
// The placement leaves a node whose connection failed out until membership
// has been refreshed, so new runs go to the other nodes; a node that starts
// again is a new member and gets work at once.
//
// # Membership
//
// DaemonOptions.Nodes is a static list of the nodes' membership endpoints,
// polled by StaticMembership: nothing else to run, for tests and small
// setups. It works as protoactor's automanaged provider does, but a node's
// endpoint listens on the host of its --listen address, not on every
// interface, and speaks HTTPS under the same mutual TLS as the runs, so a
// peer without a certificate of the cluster's authority can neither read
// nor join membership. DaemonOptions.Provider takes any other protoactor
// cluster provider (etcd, Consul, Kubernetes) instead; such a provider's
// own endpoints are as private as that provider makes them.
package nodes
