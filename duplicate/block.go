package duplicate

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/casegraph/casegraph"
)

// Blocking: only entities that share a blocking key are compared, so a
// run compares far fewer pairs than every pair of a dataset. The keys of
// an entity come from each of its names (name and aliases): the sound of
// each word of three letters or more (Phonetic: "w:mhmd"). A name none of
// whose words is rare (each word's key is shared by more than MaxBlock
// entities, and so skipped: John Smith in a dataset of many Johns and
// Smiths) has keys of its own: each word's sound with the first letter of
// each other word that is frequent too or an initial ("i:y|smt"), which
// brings "J. Smith", "John Smith" and "Smith, John" together in a block of
// their own. A name with a rare word is found by that word's block, as
// long as the other name spells it out (the limit: "J. R. Smith" is not
// paired with "John Robert Smith" when Robert is rare and Smith is not).
// Every identifier (its type and normalized value, "id:PASSPORT|N1234567")
// is a key too, and a pair that shares one is a candidate even when its
// names are not alike (a transliteration the names' comparison misses,
// a nickname). Every key starts with the entity's kind: a Person and a
// Place are never compared.

// Limits bound one run of the suggestions.
type Limits struct {
	// MaxBlock: a key shared by more entities says little (a common first
	// name) and would cost the square of its size; it is skipped.
	MaxBlock int
	// MaxComparisons bounds the pairs compared; the smallest blocks,
	// which say most, are compared first.
	MaxComparisons int
	// MaxCandidates bounds the pairs kept (those with the most alike
	// names), whose neighbours are then read.
	MaxCandidates int
}

// DefaultLimits are the limits of a request.
func DefaultLimits() Limits {
	return Limits{MaxBlock: 200, MaxComparisons: 2_000_000, MaxCandidates: 20_000}
}

// maxKeyWords bounds the words of a name that make keys.
const maxKeyWords = 6

// wordKeys are a name's word keys: its sound ("w:"), and for a word of
// six letters or more, its consonants in alphabetical order ("s:"), which
// two letters swapped by a typo do not change (Halfuran, Hafluran).
func wordKeys(prefix string, n dupName) []string {
	var keys []string
	for i, w := range n.words[:min(len(n.words), maxKeyWords)] {
		if n.stands[i] != "" {
			keys = append(keys, prefix+"w:"+n.stands[i]) // a nickname meets its name
		}
		if n.sounds[i] == "" || utf8.RuneCountInString(w) < 3 {
			continue
		}
		keys = append(keys, prefix+"w:"+n.sounds[i])
		if utf8.RuneCountInString(w) >= 6 && !hasDigit(w) {
			var letters []rune
			for _, r := range w {
				if !strings.ContainsRune("aeiouy", r) {
					letters = append(letters, r)
				}
			}
			slices.Sort(letters)
			keys = append(keys, prefix+"s:"+string(letters))
		}
	}
	return keys
}

// initialKeys are a name's initial keys ("i:"): for each word, the first
// letter of each other word that is frequent too or an initial.
func initialKeys(prefix string, n dupName, frequent func(i int) bool) []string {
	var keys []string
	words := n.words[:min(len(n.words), maxKeyWords)]
	for i := range words {
		if n.sounds[i] == "" || utf8.RuneCountInString(words[i]) < 3 {
			continue
		}
		for j, o := range words {
			if j != i && (utf8.RuneCountInString(o) == 1 || frequent(j)) {
				r, _ := utf8.DecodeRuneInString(o)
				keys = append(keys, prefix+"i:"+string(r)+"|"+n.sounds[i])
			}
		}
	}
	return keys
}

// blockingKeys are an entity's keys, each once, given how many entities
// each word key has, and its identifiers' keys (identifierKeys).
func blockingKeys(kind casegraph.Kind, names []dupName, ids []string, counts map[string]int32, maxBlock int) []string {
	prefix := string(kind) + "|"
	var keys []string
	for _, id := range ids {
		keys = append(keys, prefix+"id:"+id)
	}
	for _, n := range names {
		keys = append(keys, wordKeys(prefix, n)...)
		frequent := func(i int) bool {
			if n.sounds[i] == "" || utf8.RuneCountInString(n.words[i]) < 3 {
				return false // no key of its own
			}
			return int(counts[prefix+"w:"+n.sounds[i]]) > maxBlock
		}
		rare := false
		for i := range n.words[:min(len(n.words), maxKeyWords)] {
			rare = rare || (n.sounds[i] != "" && utf8.RuneCountInString(n.words[i]) >= 3 && !frequent(i))
		}
		if !rare {
			keys = append(keys, initialKeys(prefix, n, frequent)...)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// NameCandidate is a pair of entities (by index) whose names are alike,
// or that share an identifier (Identified).
type NameCandidate struct {
	I, J       int
	Reasons    []Reason
	Identified bool
	score      nameScore
}

// priority orders candidates for MaxCandidates: those that share an
// identifier first, then the most alike names.
func (c NameCandidate) priority() float64 {
	if c.Identified {
		return 1 + c.score.match.Similarity
	}
	return c.score.match.Similarity
}

// Blocking is what a blocking run found.
type Blocking struct {
	Candidates    []NameCandidate
	Compared      int  // pairs compared
	SkippedBlocks int  // keys over MaxBlock, not compared
	Truncated     bool // MaxComparisons or MaxCandidates was reached
}

// BlockNames compares the names of the entities that share a blocking
// key, within the limits, and returns the pairs whose names are alike
// (ScoreNames) or that share an identifier, those first, then the most
// alike. skip says which pairs not to
// compare (dismissed ones). It stops with ctx's error when ctx ends (it
// looks every few thousand comparisons).
func BlockNames(ctx context.Context, es []casegraph.Entity, limits Limits, skip func(Pair) bool) (Blocking, error) {
	names := make([][]dupName, len(es))
	ids := make([][]string, len(es))
	counts := map[string]int32{} // entities a word key has
	for i, e := range es {
		names[i] = duplicateNames(e)
		ids[i] = identifierKeys(e)
		var keys []string
		for _, n := range names[i] {
			keys = append(keys, wordKeys(string(e.Kind)+"|", n)...)
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			counts[k]++
		}
	}
	blocks := map[string][]int32{}
	for i, e := range es {
		for _, k := range blockingKeys(e.Kind, names[i], ids[i], counts, limits.MaxBlock) {
			blocks[k] = append(blocks[k], int32(i))
		}
	}
	type block struct {
		key     string
		members []int32
	}
	var out Blocking
	var order []block
	for k, m := range blocks {
		switch {
		case len(m) < 2:
		case len(m) > limits.MaxBlock:
			out.SkippedBlocks++
		default:
			order = append(order, block{k, m})
		}
	}
	slices.SortFunc(order, func(x, y block) int {
		return cmp.Or(cmp.Compare(len(x.members), len(y.members)), strings.Compare(x.key, y.key))
	})
	if err := ctx.Err(); err != nil {
		return Blocking{}, err
	}
	seen := map[uint64]bool{}
compare:
	for _, b := range order {
		for x, i := range b.members {
			for _, j := range b.members[x+1:] {
				id := uint64(i)<<32 | uint64(j)
				if seen[id] {
					continue
				}
				if out.Compared == limits.MaxComparisons {
					out.Truncated = true
					break compare
				}
				seen[id] = true
				out.Compared++
				if out.Compared%4096 == 0 && ctx.Err() != nil {
					return Blocking{}, ctx.Err()
				}
				if skip != nil && skip(OrderedPair(es[i].ID, es[j].ID)) {
					continue
				}
				score, ok := bestNames(names[i], names[j])
				identified := shareKey(ids[i], ids[j])
				if ok || identified {
					out.Candidates = append(out.Candidates, NameCandidate{I: int(i), J: int(j), score: score, Identified: identified})
				}
			}
		}
	}
	slices.SortFunc(out.Candidates, func(x, y NameCandidate) int {
		return cmp.Or(cmp.Compare(y.priority(), x.priority()), cmp.Compare(x.I, y.I), cmp.Compare(x.J, y.J))
	})
	if len(out.Candidates) > limits.MaxCandidates {
		out.Candidates, out.Truncated = out.Candidates[:limits.MaxCandidates], true
	}
	for k := range out.Candidates {
		c := &out.Candidates[k]
		c.Reasons = nameReasons(names[c.I], names[c.J], c.score)
	}
	return out, nil
}

// shareKey says whether two short lists of keys share one.
func shareKey(a, b []string) bool {
	for _, k := range a {
		if slices.Contains(b, k) {
			return true
		}
	}
	return false
}
