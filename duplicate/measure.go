package duplicate

// Evaluation is how a run's ranking compares with the pairs known to be
// the same (a generated dataset's planted duplicates): the ranking is cut
// at the number of true pairs, N, as an analyst who reviews that many
// would.
type Evaluation struct {
	N         int     // true pairs
	Hits      int     // true pairs among the first N candidates
	Precision float64 // Hits / the first N (or fewer, when the run has fewer)
	Recall    float64 // Hits / N
	Found     int     // true pairs among all the run's candidates
	// Ties: TiedAtTop counts the first N candidates whose score another
	// candidate has too; LargestTie is the most of the first N with one
	// score; AtCut counts the candidates that have the N-th's score (the
	// order of their ids, not their evidence, decides which are cut).
	TiedAtTop, LargestTie, AtCut int
}

// TruePairs are pairs known to be the same (each two ids), as Evaluate
// takes them: each with its index in pairs.
func TruePairs(pairs [][2]string) map[Pair]int {
	out := make(map[Pair]int, len(pairs))
	for i, p := range pairs {
		out[OrderedPair(p[0], p[1])] = i
	}
	return out
}

// Evaluate compares ranked (Rank's order) with truth (TruePairs).
func Evaluate(ranked []Candidate, truth map[Pair]int) Evaluation {
	ev := Evaluation{N: len(truth)}
	top := ranked[:min(len(ranked), ev.N)]
	count := map[float64]int{}
	for i, c := range ranked {
		count[c.Score]++
		if _, ok := truth[c.Pair]; ok {
			ev.Found++
			if i < len(top) {
				ev.Hits++
			}
		}
	}
	inTop := map[float64]int{}
	for _, c := range top {
		inTop[c.Score]++
		if count[c.Score] > 1 {
			ev.TiedAtTop++
		}
	}
	for _, n := range inTop {
		ev.LargestTie = max(ev.LargestTie, n)
	}
	if len(top) > 0 {
		ev.AtCut = count[top[len(top)-1].Score]
		ev.Precision = float64(ev.Hits) / float64(len(top))
	}
	if ev.N > 0 {
		ev.Recall = float64(ev.Hits) / float64(ev.N)
	}
	return ev
}
