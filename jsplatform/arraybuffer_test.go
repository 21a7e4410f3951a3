package jsplatform

import "testing"

// TestResizableArrayBufferMatchesNode runs resizable ArrayBuffers,
// length-tracking and out-of-bounds views, and transfer as code that
// buffers bytes writes them, and compares each answer with Node 22's,
// recorded in testdata/arraybuffer_node.json by
// testdata/gen_arraybuffer_node.js.
func TestResizableArrayBufferMatchesNode(t *testing.T) {
	checkMatchesNode(t, "testdata/arraybuffer_node.json")
}
