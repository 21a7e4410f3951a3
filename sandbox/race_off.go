//go:build !race

package sandbox

// raceMemoryFactor is 1 outside race-detector builds; see race_on.go.
const raceMemoryFactor = 1
