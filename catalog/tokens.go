package catalog

import (
	"encoding/binary"
	"unicode/utf8"
)

// estimateTokens prices text at one token per four characters, rounded up,
// over the whole text (NFR-7). Characters are counted as UTF-16 code units,
// the length a JavaScript host measures, so our figures compare directly
// with the flat declarations' cost measured the same way.
func estimateTokens(s string) int {
	return (utf16Len(s) + 3) / 4
}

// EstimateTokens is the token estimate of a model-visible text, priced as
// the catalog budget prices it.
func EstimateTokens(s string) int { return estimateTokens(s) }

func estimateTokensBytes(b []byte) int {
	return (utf16LenBytes(b) + 3) / 4
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// utf16LenBytes is utf16Len over bytes, skipping ASCII eight bytes at a
// time: blocks are mostly ASCII.
func utf16LenBytes(b []byte) int {
	i := 0
	for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
		i += 8
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return i + utf16Len(string(b[i:]))
		}
	}
	return len(b)
}
