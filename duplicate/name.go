package duplicate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/casegraph/casegraph"
)

// Names are compared word by word, after folding (Fold, as the search
// does), so "Milošević" and "MILOSEVIC" are the same word. Two words match
// when they are equal, when one is the initial of the other ("J" and
// "John"), when they sound alike by Phonetic (Mohammed and Muhammad,
// Aleksandr and Alexander, Assad and Asad), or when they are spelled
// nearly alike (Jaro-Winkler of at least 0.9, a typo). Particles (al, bin,
// van, de ...; not the Spanish y, more often an initial) are left out: "Bashar al-Assad" and "Bashar Assad" are
// alike.

// Word-match values: how much one word pair adds to a name's similarity.
const (
	matchSame     = 1.0
	matchSound    = 0.9
	matchInitial  = 0.85
	matchNickname = 0.85
	minJaroWinkle = 0.9
)

// nicknames are common short forms of first names (folded), each with the
// name it stands for: Sasha and Aleksandr (and Alexander, which sounds
// alike) match as a nickname. A nickname that is not here matches
// nothing: such a pair is found by what else it shares (an identifier).
var nicknames = map[string]string{
	"sasha": "aleksandr", "sanya": "aleksandr", "shura": "aleksandr", "alyosha": "aleksei", "dima": "dmitri",
	"zhenya": "yevgeny", "seryozha": "sergei", "serezha": "sergei", "misha": "mikhail", "kolya": "nikolai",
	"volodya": "vladimir", "vova": "vladimir", "natasha": "natalia", "tanya": "tatiana", "olya": "olga",
	"pasha": "pavel", "petya": "pyotr", "vanya": "ivan", "katya": "yekaterina", "masha": "maria", "lena": "yelena",
	"hamoudi": "mohammed", "hamada": "mohammed", "abdo": "abdullah", "aboud": "abdullah", "pepe": "jose",
	"paco": "francisco", "bob": "robert", "bill": "william", "jim": "james", "mike": "michael", "dick": "richard",
	"tom": "thomas", "kate": "katherine", "liz": "elizabeth", "beth": "elizabeth", "joe": "joseph", "yossi": "yosef",
}

// nameParticles are words that name no one: articles and the particles
// of Arabic, Dutch, German, Spanish, French and Italian names.
var nameParticles = map[string]bool{
	"al": true, "el": true, "ad": true, "as": true, "ash": true, "an": true, "bin": true, "ibn": true, "bint": true,
	"abu": true, "de": true, "da": true, "di": true, "del": true, "della": true, "van": true, "von": true,
	"der": true, "den": true, "la": true, "le": true, "the": true, "of": true, "and": true,
}

// NameWords are the folded words of a name that count for duplicates:
// Words without particles.
func NameWords(name string) []string {
	var out []string
	for _, w := range casegraph.Words(name) {
		if !nameParticles[w] {
			out = append(out, w)
		}
	}
	return out
}

// hasDigit says whether a word has a digit: such words (numbers, codes)
// match only when equal.
func hasDigit(w string) bool {
	return strings.IndexFunc(w, unicode.IsDigit) >= 0
}

// Phonetic is a folded word's sound key, for transliterations: the first
// letter (any vowel as "a"), then the consonants, after ph→f, ck/q/c→k,
// x→ks, z→s, w→v, j→y, with h dropped after a consonant and doubled
// letters made one. Mohammed, Muhammad and Mohamed are "mhmd"; Aleksandr
// and Alexander "alksndr"; Assad and Asad "asd"; Youssef and Yusuf "ysf".
// Digits are kept as they are; a key shorter than two letters is "".
func Phonetic(word string) string {
	return string(appendPhonetic(nil, word))
}

// appendPhonetic appends a word's Phonetic key to dst.
func appendPhonetic(dst []byte, word string) []byte {
	if hasDigit(word) {
		return append(dst, word...)
	}
	start, letters := len(dst), 0
	var prev rune // the letter before this one
	for i := 0; i < len(word); {
		c, size := utf8.DecodeRuneInString(word[i:])
		i += size
		if !unicode.IsLetter(c) {
			continue
		}
		next, nextSize := utf8.DecodeRuneInString(word[i:]) // RuneError, 0 at the end
		switch {
		case c == 'p' && next == 'h':
			c, i = 'f', i+nextSize
		case c == 'c' && next == 'k':
			c, i = 'k', i+nextSize
		case c == 'c' || c == 'q':
			c = 'k'
		case c == 'z':
			c = 's'
		case c == 'w':
			c = 'v'
		case c == 'j':
			c = 'y'
		}
		vowel := strings.ContainsRune("aeiouy", c)
		before := prev
		prev = c
		switch {
		case letters == 0:
			if vowel {
				c = 'a'
			}
		case vowel:
			continue
		case c == 'h' && before != 0 && !strings.ContainsRune("aeiouy", before):
			continue // kh, sh, th, dh, gh: one sound, spelled with or without h
		case c == before:
			continue // doubled letters
		}
		if c == 'x' {
			dst = append(dst, 'k')
			letters++
			c = 's'
		}
		dst = utf8.AppendRune(dst, c)
		letters++
	}
	if letters < 2 {
		return dst[:start]
	}
	return dst
}

// wordMatch is how one word of a name matched one of another's.
type wordMatch int

const (
	wordSame wordMatch = iota
	wordInitial
	wordSound
	wordSpelling
	wordNickname
)

// nicknameOf says whether word i of a and word j of b are a nickname and
// its name (or two nicknames of one name).
func nicknameOf(a nameWords, i int, b nameWords, j int) bool {
	sa, sb := a.stand(i), b.stand(j)
	return (sa != "" && (sa == b.sound(j) || sa == sb)) || (sb != "" && sb == a.sound(i))
}

// matchWords compares two folded words (with their sound keys): their
// value (0 for no match) and how they matched.
func matchWords(a, sa, b, sb string) (float64, wordMatch) {
	if a == b {
		if _, n := utf8.DecodeRuneInString(a); n == len(a) {
			// Two initials alike say less than two names alike.
			return matchInitial, wordInitial
		}
		return matchSame, wordSame
	}
	if hasDigit(a) || hasDigit(b) {
		return 0, wordSame
	}
	ra, la := utf8.DecodeRuneInString(a)
	rb, lb := utf8.DecodeRuneInString(b)
	if la == len(a) || lb == len(b) { // one letter: an initial
		if ra == rb {
			return matchInitial, wordInitial
		}
		return 0, wordSame
	}
	if sa != "" && sa == sb {
		return matchSound, wordSound
	}
	// Jaro-Winkler reaches minJaroWinkle only for words of about the same
	// length: skip the others without computing it.
	if d := len(a) - len(b); d > 3 || d < -3 {
		return 0, wordSame
	}
	if jw := JaroWinkler(a, b); jw >= minJaroWinkle {
		return jw * matchSound, wordSpelling
	}
	return 0, wordSame
}

// NameMatch is how alike two names are: Similarity from 0 (not alike) to 1
// (the same words in the same order), and what made them alike.
type NameMatch struct {
	Similarity float64
	Initials   bool // a word matched its initial
	Sound      bool // a word matched another spelling of it (transliteration)
	Spelling   bool // a word matched a near spelling (a typo)
	Nickname   bool // a word matched the name it is a nickname of
	Reordered  bool // the words matched in another order
}

// CompareNames says how alike two names are. Every word of the shorter
// name must match a word of the longer one (each word used once, the best
// pairs first); the similarity is the mean of the matches, less 0.05 for
// a word of the longer name left over, and 0.15 for each further one. A
// one-word name is alike only to a one-word name, and at least one pair
// must match as a whole word (not as initials).
func CompareNames(a, b []string) NameMatch {
	var t nameSlabs
	return compareNames(t.nameOf(a), t.nameOf(b))
}

// maxCompared bounds the words of a name that are compared: names longer
// than that are compared by their first words.
const maxCompared = 8

func compareNames(na, nb nameWords) NameMatch {
	la, lb := min(na.len(), maxCompared), min(nb.len(), maxCompared)
	if la == 0 || lb == 0 || (la == 1) != (lb == 1) {
		return NameMatch{}
	}
	type pair struct {
		i, j  int
		value float64
		how   wordMatch
	}
	var buf [maxCompared * maxCompared]pair // no allocation for a comparison
	pairs := buf[:0]
	for i := range la {
		for j := range lb {
			if v, how := matchWords(na.word(i), na.sound(i), nb.word(j), nb.sound(j)); v > 0 {
				pairs = append(pairs, pair{i, j, v, how})
			} else if nicknameOf(na, i, nb, j) {
				pairs = append(pairs, pair{i, j, matchNickname, wordNickname})
			}
		}
	}
	short, long := min(la, lb), max(la, lb)
	if len(pairs) < short {
		return NameMatch{}
	}
	// Best first (insertion sort: a few pairs), ties in order.
	for x := 1; x < len(pairs); x++ {
		for y := x; y > 0 && pairs[y].value > pairs[y-1].value; y-- {
			pairs[y], pairs[y-1] = pairs[y-1], pairs[y]
		}
	}
	var usedA, usedB [maxCompared]bool
	var orderOf [maxCompared]int // b's index of each of a's words
	var m NameMatch
	var sum float64
	matched, whole := 0, false
	for _, p := range pairs {
		if usedA[p.i] || usedB[p.j] {
			continue
		}
		usedA[p.i], usedB[p.j] = true, true
		sum += p.value
		matched++
		orderOf[p.i] = p.j
		switch p.how {
		case wordInitial:
			m.Initials = true
		case wordSound:
			m.Sound, whole = true, true
		case wordSpelling:
			m.Spelling, whole = true, true
		case wordNickname:
			m.Nickname, whole = true, true
		default:
			whole = whole || utf8.RuneCountInString(na.word(p.i)) > 1
		}
	}
	if matched < short || !whole {
		return NameMatch{}
	}
	last := -1
	for i := range la {
		if usedA[i] {
			if orderOf[i] < last {
				m.Reordered = true
			}
			last = orderOf[i]
		}
	}
	// One word left over is often a middle name or a title; more, a name
	// that holds the other (the Caesar report, a news article on the
	// Caesar report) rather than another spelling of it.
	extra := long - short
	m.Similarity = sum/float64(matched) - 0.05*float64(min(extra, 1)) - 0.15*float64(max(extra-1, 0))
	if m.Similarity < 0 {
		return NameMatch{}
	}
	return m
}

// JaroWinkler is the Jaro-Winkler similarity of two words, from 0 to 1.
func JaroWinkler(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 || len(rb) == 0 {
		return 0
	}
	window := max(len(ra), len(rb))/2 - 1
	window = max(window, 0)
	ma, mb := make([]bool, len(ra)), make([]bool, len(rb))
	matches := 0
	for i := range ra {
		lo, hi := max(0, i-window), min(len(rb), i+window+1)
		for j := lo; j < hi; j++ {
			if !mb[j] && ra[i] == rb[j] {
				ma[i], mb[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	transpositions, j := 0, 0
	for i := range ra {
		if !ma[i] {
			continue
		}
		for !mb[j] {
			j++
		}
		if ra[i] != rb[j] {
			transpositions++
		}
		j++
	}
	m := float64(matches)
	jaro := (m/float64(len(ra)) + m/float64(len(rb)) + (m-float64(transpositions)/2)/m) / 3
	prefix := 0
	for prefix < min(4, len(ra), len(rb)) && ra[prefix] == rb[prefix] {
		prefix++
	}
	return jaro + float64(prefix)*0.1*(1-jaro)
}
