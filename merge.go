package casegraph

import "slices"

// MergePlan is what the survivor of a merge becomes. It keeps its id, kind
// and name; the names and aliases of the entities folded into it become its
// aliases, and their sources its sources.
type MergePlan struct {
	// Aliases are the survivor's aliases, then each merged entity's name
	// and aliases, in the order the merge names them, each once and none
	// equal to the survivor's name.
	Aliases []string
	// Citations are the survivor's citations, then the merged entities',
	// each once (a source cited by both with other words is cited twice:
	// no quote is lost), ungraded; SourceIDs the sources they cite, each
	// once.
	Citations []Citation
	SourceIDs []string
}

// PlanMerge computes what survivor becomes when merged, the entities the
// merge names (in its order), are folded into it. It refuses
// (BAD_USER_INPUT) entities of another kind than the survivor's, and a
// survivor that would have more than MaxAliases aliases.
func PlanMerge(survivor Entity, merged []Entity) (MergePlan, error) {
	aliases := append([]string(nil), survivor.Aliases...)
	citations := slices.Clone(survivor.Cited())
	for _, m := range merged {
		if m.Kind != survivor.Kind {
			return MergePlan{}, Errorf(CodeBadUserInput, "cannot merge %s %q into %s %q: entities of different kinds", m.Kind, m.ID, survivor.Kind, survivor.ID)
		}
		if m.Protected && !survivor.Protected {
			// Its name and aliases would become the survivor's aliases,
			// shown to every caller.
			return MergePlan{}, Errorf(CodeBadUserInput, "cannot merge protected %q into %q, which is not protected: protect it first", m.ID, survivor.ID)
		}
		aliases = append(aliases, m.Name)
		aliases = append(aliases, m.Aliases...)
		citations = append(citations, m.Cited()...)
	}
	aliases = uniqueExcept(aliases, survivor.Name)
	if len(aliases) > MaxAliases {
		return MergePlan{}, Errorf(CodeBadUserInput, "the merged entity would have %d aliases; the limit is %d", len(aliases), MaxAliases)
	}
	var cited []Citation
	for _, c := range citations {
		c.Grade = ""
		if !slices.Contains(cited, c) {
			cited = append(cited, c)
		}
	}
	return MergePlan{Aliases: aliases, Citations: cited, SourceIDs: CitedSourceIDs(cited)}, nil
}

// uniqueExcept keeps the first of each value, in order, and drops skip.
func uniqueExcept(values []string, skip string) []string {
	seen := map[string]bool{skip: true}
	out := values[:0:0]
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// MaxMerge is the most entities one merge folds in.
const MaxMerge = 50

// MergeRequest asks to fold the entities From into the entity Into (see
// PlanMerge for what Into becomes).
type MergeRequest struct {
	Into string
	From []string
}

// Validate checks the ids of a merge: 1 to MaxMerge distinct entities,
// none of them Into.
func (m MergeRequest) Validate() error {
	if err := ValidateID("into", m.Into); err != nil {
		return err
	}
	if len(m.From) == 0 || len(m.From) > MaxMerge {
		return Errorf(CodeBadUserInput, "from: merge 1 to %d entities at a time", MaxMerge)
	}
	seen := map[string]bool{m.Into: true}
	for _, id := range m.From {
		if err := ValidateID("from", id); err != nil {
			return err
		}
		if seen[id] {
			return Errorf(CodeBadUserInput, "from: %q is named twice, or is the entity merged into", id)
		}
		seen[id] = true
	}
	return nil
}
