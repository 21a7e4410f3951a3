// Package messages holds plain values that several actors and packages
// share: the effective configuration and the config actor's announcements
// of it. It is a leaf (the standard library only), so the pure packages can
// use these values without the actor runtime, the engine or the MCP SDK.
// Messages that name actors (subscriptions) or carry another package's
// values live beside the actor that receives them.
package messages
