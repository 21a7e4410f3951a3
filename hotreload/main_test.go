package hotreload

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// The test binary doubles as a writer process for the tests that need a
// second process: one that adds rules and exits, and one that kills itself
// in the middle of a write.
const (
	childPathEnv  = "HOTRELOAD_TEST_CHILD_PATH"
	childRulesEnv = "HOTRELOAD_TEST_CHILD_RULES"
	childKillEnv  = "HOTRELOAD_TEST_CHILD_KILL_AT"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(childPathEnv); path != "" {
		os.Exit(runChildWriter(path))
	}
	os.Exit(m.Run())
}

func runChildWriter(path string) int {
	if point := os.Getenv(childKillEnv); point != "" {
		writeHook = func(p string) {
			if p == point {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
	}
	for _, rule := range strings.Split(os.Getenv(childRulesEnv), ",") {
		if err := AddAllowRule(path, rule); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	return 0
}
