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

// blockKey is a blocking key ("Person|w:mhmd"), hashed: a run over a
// large dataset holds hundreds of thousands of keys, and building each as
// a string was most of what blocking allocated; a key's text is never
// shown. Two keys that hash alike (FNV-1a, 64 bits: about one chance in
// ten billion a run over a million keys) only merge their blocks, so that
// more pairs are compared and none is missed.
type blockKey uint64

// newKey starts a key: the entity's kind, then what kind of key it is
// ("w", "s", "i", "id"); add appends its parts.
func newKey(kind casegraph.Kind, tag string) blockKey {
	return blockKey(14695981039346656037).add(string(kind)).add(tag)
}

// add appends a part to a key, and a separator (0xff, which UTF-8 never
// holds), so that ("ab", "c") and ("a", "bc") are other keys.
func (k blockKey) add(part string) blockKey {
	for i := 0; i < len(part); i++ {
		k = (k ^ blockKey(part[i])) * 1099511628211
	}
	return (k ^ 0xff) * 1099511628211
}

// addRunes is add of a string of runes, without making the string.
func (k blockKey) addRunes(rs []rune) blockKey {
	var b [utf8.UTFMax]byte
	for _, r := range rs {
		for _, c := range utf8.AppendRune(b[:0], r) {
			k = (k ^ blockKey(c)) * 1099511628211
		}
	}
	return (k ^ 0xff) * 1099511628211
}

// soundKey is the key of a word's sound ("w:"), or false for a word that
// has none of its own (no sound, or under three letters).
func soundKey(kind casegraph.Kind, n nameWords, i int) (blockKey, bool) {
	if n.sound(i) == "" || utf8.RuneCountInString(n.word(i)) < 3 {
		return 0, false
	}
	return newKey(kind, "w").add(n.sound(i)), true
}

// wordKeys appends a name's word keys to keys: its sound ("w:"), and for
// a word of six letters or more, its consonants in alphabetical order
// ("s:"), which two letters swapped by a typo do not change (Halfuran,
// Hafluran).
func wordKeys(keys []blockKey, kind casegraph.Kind, n nameWords) []blockKey {
	var letters []rune
	for i := range min(n.len(), maxKeyWords) {
		if stand := n.stand(i); stand != "" {
			keys = append(keys, newKey(kind, "w").add(stand)) // a nickname meets its name
		}
		k, ok := soundKey(kind, n, i)
		if !ok {
			continue
		}
		keys = append(keys, k)
		if w := n.word(i); utf8.RuneCountInString(w) >= 6 && !hasDigit(w) {
			letters = letters[:0]
			for _, r := range w {
				if !strings.ContainsRune("aeiouy", r) {
					letters = append(letters, r)
				}
			}
			slices.Sort(letters)
			keys = append(keys, newKey(kind, "s").addRunes(letters))
		}
	}
	return keys
}

// initialKeys appends a name's initial keys ("i:") to keys: for each
// word, the first letter of each other word that is frequent too or an
// initial.
func initialKeys(keys []blockKey, kind casegraph.Kind, n nameWords, frequent func(i int) bool) []blockKey {
	words := min(n.len(), maxKeyWords)
	for i := range words {
		if _, ok := soundKey(kind, n, i); !ok {
			continue
		}
		for j := range words {
			if o := n.word(j); j != i && (utf8.RuneCountInString(o) == 1 || frequent(j)) {
				_, size := utf8.DecodeRuneInString(o)
				keys = append(keys, newKey(kind, "i").add(o[:size]).add(n.sound(i)))
			}
		}
	}
	return keys
}

// blockingKeys appends an entity's keys, each once, to keys[:0], given
// how many entities each word key has, and its identifiers' keys
// (identifierKeys).
func blockingKeys(keys []blockKey, kind casegraph.Kind, names []nameWords, ids []string, counts map[blockKey]int32, maxBlock int) []blockKey {
	keys = keys[:0]
	for _, id := range ids {
		keys = append(keys, newKey(kind, "id").add(id))
	}
	for _, n := range names {
		keys = wordKeys(keys, kind, n)
		frequent := func(i int) bool {
			k, ok := soundKey(kind, n, i)
			return ok && int(counts[k]) > maxBlock // no key of its own: not frequent
		}
		rare := false
		for i := range min(n.len(), maxKeyWords) {
			_, ok := soundKey(kind, n, i)
			rare = rare || (ok && !frequent(i))
		}
		if !rare {
			keys = initialKeys(keys, kind, n, frequent)
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
	subjects := make([]Subject, len(es))
	for i, e := range es {
		subjects[i] = NewSubject(e)
	}
	return BlockSubjects(ctx, subjects, limits, skip)
}

// BlockSubjects is BlockNames over subjects (what a run reads), whose
// candidates are by index in es.
func BlockSubjects(ctx context.Context, es []Subject, limits Limits, skip func(Pair) bool) (Blocking, error) {
	names := make([][]nameWords, len(es))
	ids := make([][]string, len(es))
	counts := map[blockKey]int32{} // entities a word key has
	var keys []blockKey            // one entity's, reused
	wordMembers := 0               // the word and identifier keys of every entity
	var slabs nameSlabs
	for i, e := range es {
		names[i] = slabs.subjectNames(e)
		var err error
		if ids[i], err = identifierKeys(e); err != nil {
			return Blocking{}, err
		}
		keys = keys[:0]
		for _, n := range names[i] {
			keys = wordKeys(keys, e.Kind, n)
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		for _, k := range keys {
			counts[k]++
		}
		wordMembers += len(keys) + len(ids[i])
	}
	// The blocks: every (key, entity) of the run in one slice, sorted by
	// key, so that a block is a run of it (a map of slices grew one slice
	// a key).
	type member struct {
		key    blockKey
		entity int32
	}
	members := make([]member, 0, wordMembers+wordMembers/8) // and a few initial keys
	for i, e := range es {
		keys = blockingKeys(keys, e.Kind, names[i], ids[i], counts, limits.MaxBlock)
		for _, k := range keys {
			members = append(members, member{k, int32(i)})
		}
	}
	slices.SortFunc(members, func(x, y member) int { return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.entity, y.entity)) })
	// A block is a run of members, by its place (not a slice of them:
	// a run has a hundred thousand blocks).
	type block struct{ start, end int32 }
	var out Blocking
	blocks, pairs := 0, 0 // the blocks compared, and their pairs (some in more than one)
	eachBlock := func(f func(start, end int)) {
		for start := 0; start < len(members); {
			end := start + 1
			for end < len(members) && members[end].key == members[start].key {
				end++
			}
			f(start, end)
			start = end
		}
	}
	eachBlock(func(start, end int) {
		if n := end - start; n >= 2 && n <= limits.MaxBlock {
			blocks++
			pairs += n * (n - 1) / 2
		}
	})
	order := make([]block, 0, blocks)
	eachBlock(func(start, end int) {
		switch n := end - start; {
		case n < 2:
		case n > limits.MaxBlock:
			out.SkippedBlocks++
		default:
			order = append(order, block{int32(start), int32(end)})
		}
	})
	slices.SortFunc(order, func(x, y block) int {
		return cmp.Or(cmp.Compare(x.end-x.start, y.end-y.start), cmp.Compare(members[x.start].key, members[y.start].key))
	})
	if err := ctx.Err(); err != nil {
		return Blocking{}, err
	}
	// The set of pairs compared, made at its size rather than grown a
	// step at a time: at most pairs (a pair in several blocks counts in
	// each: 114,469 for 105,892 compared on the benchmark's dataset).
	seen := make(map[uint64]struct{}, min(pairs, limits.MaxComparisons))
compare:
	for _, b := range order {
		block := members[b.start:b.end]
		for x, mi := range block {
			for _, mj := range block[x+1:] {
				i, j := mi.entity, mj.entity
				id := uint64(i)<<32 | uint64(j)
				if _, ok := seen[id]; ok {
					continue
				}
				if out.Compared == limits.MaxComparisons {
					out.Truncated = true
					break compare
				}
				seen[id] = struct{}{}
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
		c.Reasons = nameReasons(es[c.I], es[c.J], c.score)
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
