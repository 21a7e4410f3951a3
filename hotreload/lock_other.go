//go:build !unix

package hotreload

import "os"

// lockFile is a no-op where flock does not exist; the process lock still
// serialises writers inside one process.
func lockFile(*os.File) error { return nil }

// syncDir is a no-op where directories cannot be synced.
func syncDir(string) error { return nil }
