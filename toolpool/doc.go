// Package toolpool is the MCP tool pool as data: the tools of the connected
// servers, the one pool constructor ([Build]) and the immutable [Snapshot]
// it makes. Flat declarations, the catalog, search and the sandbox's
// reachable set are all derived from a Snapshot, so none of them can
// disagree about what the pool is.
//
// It is a leaf: plain Go and the standard library, so the pure packages
// that read the pool (declare, the catalog broadcaster's inputs) build
// without the MCP SDK. Package pool, which keeps the servers connected,
// publishes Snapshots and re-exports these names.
package toolpool
