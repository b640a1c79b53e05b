package casegraph

import (
	"cmp"
	"slices"
	"strings"
)

// Blocking: only entities that share a blocking key are compared, so a
// run compares far fewer pairs than every pair of a dataset. The keys of
// an entity come from each of its names (name and aliases): the sound of
// each word of three letters or more (Phonetic: "w:mhmd"), and for each
// two words of a name, the first letter of one with the sound of the
// other ("i:y|smt"), which brings "J. Smith", "John Smith" and "Smith,
// John" together. Every key starts with the entity's kind: a Person and
// a Place are never compared.

// DuplicateLimits bound one run of the suggestions.
type DuplicateLimits struct {
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

// DefaultDuplicateLimits are the limits of a request.
func DefaultDuplicateLimits() DuplicateLimits {
	return DuplicateLimits{MaxBlock: 200, MaxComparisons: 2_000_000, MaxCandidates: 20_000}
}

// maxKeyWords bounds the words of a name that make word-pair keys.
const maxKeyWords = 4

// BlockingKeys are an entity's blocking keys, each once.
func BlockingKeys(e Entity) []string {
	return blockingKeys(e.Kind, duplicateNames(e))
}

func blockingKeys(kind Kind, names []dupName) []string {
	prefix := string(kind) + "|"
	var keys []string
	for _, n := range names {
		words := n.words[:min(len(n.words), maxKeyWords)]
		for i, w := range words {
			sound := Phonetic(w)
			if sound == "" || len([]rune(w)) < 3 {
				continue
			}
			keys = append(keys, prefix+"w:"+sound)
			for j, o := range words {
				if j != i {
					keys = append(keys, prefix+"i:"+string([]rune(o)[0])+"|"+sound)
				}
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// NameCandidate is a pair of entities (by index) whose names are alike.
type NameCandidate struct {
	I, J    int
	Reasons []DuplicateReason
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
// (ScoreNames), the most alike first. skip says which pairs not to
// compare (dismissed ones).
func BlockNames(es []Entity, limits DuplicateLimits, skip func(DuplicatePair) bool) Blocking {
	names := make([][]dupName, len(es))
	blocks := map[string][]int32{}
	for i, e := range es {
		names[i] = duplicateNames(e)
		for _, k := range blockingKeys(e.Kind, names[i]) {
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
				if skip != nil && skip(OrderedPair(es[i].ID, es[j].ID)) {
					continue
				}
				if reasons, ok := scoreNames(names[i], names[j]); ok {
					out.Candidates = append(out.Candidates, NameCandidate{I: int(i), J: int(j), Reasons: reasons})
				}
			}
		}
	}
	slices.SortFunc(out.Candidates, func(x, y NameCandidate) int {
		return cmp.Or(cmp.Compare(y.Reasons[0].Weight, x.Reasons[0].Weight), cmp.Compare(x.I, y.I), cmp.Compare(x.J, y.J))
	})
	if len(out.Candidates) > limits.MaxCandidates {
		out.Candidates, out.Truncated = out.Candidates[:limits.MaxCandidates], true
	}
	return out
}
