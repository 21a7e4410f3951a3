package catalog

import "strings"

// Namespace is the grouping key of a routed tool name: its second
// "__"-separated segment, the same split the MCP funnel routes by (EDGE-17).
// A server name containing "__" therefore groups under its first part. A
// name without "__" has the empty key.
func Namespace(name string) string {
	_, rest, ok := strings.Cut(name, "__")
	if !ok {
		return ""
	}
	key, _, _ := strings.Cut(rest, "__")
	return key
}
