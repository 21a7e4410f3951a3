package sandbox

import (
	"sync"

	"github.com/dop251/goja"
)

// compiled keeps the programs of the scripts compiled last in this process,
// so that a script run again (a retry, the same script for another task)
// skips the transform, the parse and the compile, as Node does through V8's
// compilation cache. A goja program is not tied to a runtime: any run may
// run it, at the same time as others.
var compiled = compileCache{maxBytes: compileCacheBytes}

// compileCacheBytes bounds the cached scripts' source (and their
// transforms); the programs kept are several times that in memory, counted
// against a worker's memory cap: each process has a cache of its own. A
// script over an eighth of it is never kept.
const compileCacheBytes = 256 << 10

type compileCache struct {
	mu       sync.Mutex
	maxBytes int
	entries  map[string]compiledScript
	order    []string // oldest first
	bytes    int
}

type compiledScript struct {
	prog *goja.Program
	js   string // the JavaScript compiled (the script, or its transform)
}

// compileCached is compile, through the cache.
func compileCached(code string) (*goja.Program, string, error) {
	if c, ok := compiled.get(code); ok {
		return c.prog, c.js, nil
	}
	prog, js, err := compile(code)
	if err == nil {
		compiled.put(code, compiledScript{prog: prog, js: js})
	}
	return prog, js, err
}

func (c *compileCache) get(code string) (compiledScript, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.entries[code]
	return s, ok
}

func (c *compileCache) put(code string, s compiledScript) {
	size := len(code) + len(s.js)
	if size > c.maxBytes/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[code]; ok {
		return
	}
	if c.entries == nil {
		c.entries = make(map[string]compiledScript)
	}
	for c.bytes+size > c.maxBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(oldest) + len(c.entries[oldest].js)
		delete(c.entries, oldest)
	}
	c.entries[code] = s
	c.order = append(c.order, code)
	c.bytes += size
}
