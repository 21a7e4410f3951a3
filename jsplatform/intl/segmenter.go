package intl

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// segmentation is where a text breaks for Intl.Segmenter: the end of each
// segment in UTF-16 code units (JavaScript's string indices), and, for
// words, whether each segment is word-like (holds a letter or a number,
// as ICU's word rule status says of words, numbers, kana and ideographs).
type segmentation struct {
	Ends     []int
	WordLike []bool
}

// segment breaks text by granularity ("grapheme", "word" or "sentence")
// after Unicode's text segmentation rules (UAX #29), which ICU's default
// rules follow. ICU alone splits Chinese, Japanese and Thai words by
// dictionary; here each ideograph, hiragana or Thai cluster stands alone,
// as UAX #29 says.
func segment(text, granularity string) segmentation {
	var s segmentation
	offset := 0
	state := -1
	for rest := text; rest != ""; {
		var piece string
		switch granularity {
		case "word":
			piece, rest, state = uniseg.FirstWordInString(rest, state)
		case "sentence":
			piece, rest, state = uniseg.FirstSentenceInString(rest, state)
		default:
			piece, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		}
		offset += utf16Length(piece)
		s.Ends = append(s.Ends, offset)
		if granularity == "word" {
			s.WordLike = append(s.WordLike, wordLike(piece))
		}
	}
	return s
}

// utf16Length is how many UTF-16 code units s takes in JavaScript, where
// goja wrote each lone surrogate as one U+FFFD.
func utf16Length(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// wordLike tells a word, number or ideograph from spaces, punctuation,
// symbols and emoji.
func wordLike(piece string) bool {
	for len(piece) > 0 {
		r, size := utf8.DecodeRuneInString(piece)
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
		piece = piece[size:]
	}
	return false
}
