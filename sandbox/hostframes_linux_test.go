package sandbox

import (
	"syscall"
	"testing"
	"time"
)

// TestWakeAfterAnEarlierWakeWasTakenIsNotLost: a wake the loop took leaves
// the pipe's read deadline set; the next wait must not mistake it for a
// frame, and must still hear the next wake.
func TestWakeAfterAnEarlierWakeWasTakenIsNotLost(t *testing.T) {
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	c, source, err := processConn(uintptr(in[0]), uintptr(out[1]), func() {})
	if err != nil {
		t.Fatal(err)
	}
	frames := source.(*fdFrames)
	t.Cleanup(func() {
		_ = syscall.Close(in[1]) // the hang-up ends processConn's watcher
		_ = syscall.Close(out[0])
		_ = frames.pipe.Close()
		_ = c.w.(*rawPipe).f.Close()
	})

	for round := range 3 {
		frames.wake()
		if _, woken, err := frames.receive(); !woken || err != nil {
			t.Fatalf("round %d: a wake before the wait: woken %v, err %v", round, woken, err)
		}
	}
	got := make(chan error, 1)
	go func() {
		_, woken, err := frames.receive()
		if err == nil && !woken {
			err = errFrameTooLarge // anything: it must have been woken
		}
		got <- err
	}()
	// Let the wait meet the deadline the taken wakes left before the new
	// wake comes (on a slow machine the wake may come first: the test then
	// passes either way).
	time.Sleep(50 * time.Millisecond)
	frames.wake()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("the wait after the taken wakes ended without the new wake: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a wake after earlier ones were taken was lost: the wait is still blocked")
	}
}
