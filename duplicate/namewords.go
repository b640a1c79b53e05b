package duplicate

import (
	"math"
	"strings"
	"sync"

	"github.com/casegraph/casegraph"
)

// nameWords is a name's words with their sound keys (Phonetic), as parts
// of two strings, the folded name and its words' sounds one after the
// other, computed once for all the comparisons of a run. A hundred
// thousand entities' names as strings of their own each word and each
// sound, and their slices, were a large part of what a run allocated.
type nameWords struct {
	folded, sounds string
	spans          []wordSpan
}

// wordSpan is a word's place in its name's strings, and whether it is a
// nickname (nicknames). A folded name of casegraph.MaxNameLength
// characters, and its sounds, take far fewer than 65,536 bytes; words
// past them (CompareNames of longer text) are left out.
type wordSpan struct {
	start, end, soundStart, soundEnd uint16
	nickname                         bool
}

func (n nameWords) len() int { return len(n.spans) }

func (n nameWords) word(i int) string { return n.folded[n.spans[i].start:n.spans[i].end] }

func (n nameWords) sound(i int) string { return n.sounds[n.spans[i].soundStart:n.spans[i].soundEnd] }

// stand is the sound of the name a nickname stands for, or "".
func (n nameWords) stand(i int) string {
	if !n.spans[i].nickname {
		return ""
	}
	return nicknameSounds()[n.word(i)]
}

// nicknameSounds are the sounds of the names the nicknames stand for.
var nicknameSounds = sync.OnceValue(func() map[string]string {
	out := make(map[string]string, len(nicknames))
	for nick, full := range nicknames {
		out[nick] = Phonetic(full)
	}
	return out
})

// nameSlabs hold the words and names of a run's subjects, and a buffer
// of sounds.
type nameSlabs struct {
	spans  slab[wordSpan]
	names  slab[nameWords]
	name   nameWords // the one being made
	sounds []byte    // its sounds
}

// words are the words of a folded name (NameWords').
func (t *nameSlabs) words(folded string) nameWords {
	count := 0
	eachWord(folded, func(start, end int) { count++ })
	t.begin(folded, count)
	eachWord(folded, func(start, end int) {
		if !nameParticles[folded[start:end]] {
			t.add(start, end)
		}
	})
	return t.end()
}

// nameOf is the name of words as they are (CompareNames').
func (t *nameSlabs) nameOf(words []string) nameWords {
	t.begin(strings.Join(words, " "), len(words))
	start := 0
	for _, w := range words {
		t.add(start, start+len(w))
		start += len(w) + 1
	}
	return t.end()
}

// begin starts a name of up to count words, folded the text they are in;
// add adds a word, by its place in it; end returns the name.
func (t *nameSlabs) begin(folded string, count int) {
	t.name = nameWords{folded: folded, spans: t.spans.take(count)[:0]}
	t.sounds = t.sounds[:0]
}

func (t *nameSlabs) add(start, end int) {
	w := t.name.folded[start:end]
	s := len(t.sounds)
	t.sounds = appendPhonetic(t.sounds, w)
	if end > math.MaxUint16 || len(t.sounds) > math.MaxUint16 {
		t.sounds = t.sounds[:s]
		return // beyond what a wordSpan holds: never a stored name's
	}
	_, nick := nicknames[w]
	t.name.spans = append(t.name.spans, wordSpan{uint16(start), uint16(end), uint16(s), uint16(len(t.sounds)), nick})
}

func (t *nameSlabs) end() nameWords {
	t.name.sounds = string(t.sounds)
	return t.name
}

// eachWord calls f with the place of each word of folded text
// (casegraph.Words'), in order, without making their slice.
func eachWord(folded string, f func(start, end int)) {
	start := -1
	for i, r := range folded {
		switch in := casegraph.IsWordRune(r); {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			f(start, i)
			start = -1
		}
	}
	if start >= 0 {
		f(start, len(folded))
	}
}

// slab hands out short slices of large arrays, so that a hundred
// thousand short slices of a run cost a few allocations, not one each.
type slab[T any] struct{ free []T }

// slabSize is the elements of a slab's array.
const slabSize = 8192

// take is a new slice of n elements (zero).
func (s *slab[T]) take(n int) []T {
	if cap(s.free) < n {
		s.free = make([]T, 0, max(n, slabSize))
	}
	out := s.free[:n:n]
	s.free = s.free[n:n]
	return out
}
