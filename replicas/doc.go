// Package replicas joins the replicas of one gateway, so that a request
// one replica cannot serve itself (the retry of a call whose run waits,
// parked, on another replica) is served where it can be. It writes no
// transport of its own: the replicas are protoactor actor systems joined by
// protoactor's remote (gRPC) under mutual TLS, as a daemon and its sandbox
// nodes are (nodes.TLSFiles).
//
// Each replica runs a desk actor at its Listen address. Forward sends a
// payload to a peer's desk through a relay actor of its own; the desk
// serves it on a goroutine of its own with the Handler it was given and
// sends back the live summaries (Progress) and the answer (Reply) to the
// relay. The payloads are the caller's (the gateway's JSON): this package
// moves them and knows nothing of what they say.
//
// # Faults
//
// The relay watches the peer's desk: when the peer is gone (its process
// died, its machine is unreachable, it was stopped), protoactor tells the
// relay and Forward fails with ErrReplicaGone; whatever the peer held is
// gone with it. When the caller gives up (its context ends), the relay
// tells the peer (Abandon), which cancels the request's context; when the
// replica the caller reached dies, the peer's desk sees its relay go and
// does the same.
//
// # Trust
//
// Every peer presents a certificate of the shared CA and accepts only
// such peers, as server and as client. A replica forwards only to the
// peers it was configured with (Knows).
package replicas
