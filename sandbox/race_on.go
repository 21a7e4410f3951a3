//go:build race

package sandbox

// raceMemoryFactor widens the worker's data limit under the race detector:
// ThreadSanitizer's shadow memory counts against RLIMIT_DATA, several times
// the size of the heap it shadows, and a race-built worker would otherwise
// die on its first heap growth.
const raceMemoryFactor = 8
