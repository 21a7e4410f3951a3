package hotreload

import "github.com/asynkron/protoactor-go/actor"

// The config actor's subscriptions name actors, so they live here beside it
// rather than in package messages, which holds plain values only.

// SubscribeConfig registers Subscriber for *messages.ConfigChanged events.
// The config actor answers at once with the current state, then sends every change.
type SubscribeConfig struct {
	Subscriber *actor.PID
}

// UnsubscribeConfig removes a subscriber registered with SubscribeConfig.
type UnsubscribeConfig struct {
	Subscriber *actor.PID
}
