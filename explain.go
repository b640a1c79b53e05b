package casegraph

import (
	"fmt"
	"strings"
)

// Relaxation is a path filter with one of its conditions taken away,
// named by the GraphQL field that set it.
type Relaxation struct {
	Field  string
	Filter PathFilter
}

// Relaxations returns, for every condition f sets other than its depth,
// f without that condition, in the order of PathFilter's fields.
func (f PathFilter) Relaxations() []Relaxation {
	var out []Relaxation
	add := func(field string, set bool, drop func(*PathFilter)) {
		if !set {
			return
		}
		g := f
		drop(&g)
		out = append(out, Relaxation{Field: field, Filter: g})
	}
	add("relationTypes", len(f.RelationTypes) > 0, func(g *PathFilter) { g.RelationTypes = nil })
	add("excludeRelationTypes", len(f.ExcludeRelationTypes) > 0, func(g *PathFilter) { g.ExcludeRelationTypes = nil })
	add("excludeIds", len(f.ExcludeIDs) > 0, func(g *PathFilter) { g.ExcludeIDs = nil })
	add("kinds", len(f.Kinds) > 0, func(g *PathFilter) { g.Kinds = nil })
	add("datasets", len(f.Datasets) > 0, func(g *PathFilter) { g.Datasets = nil })
	add("validAt", f.ValidAt != "", func(g *PathFilter) { g.ValidAt = "" })
	add("minConfidence", f.MinConfidence != nil, func(g *PathFilter) { g.MinConfidence = nil })
	add("statuses", len(f.Statuses) > 0, func(g *PathFilter) { g.Statuses = nil })
	add("direction", f.Direction == PathOutgoing, func(g *PathFilter) { g.Direction = PathAny })
	add("maxDegree", f.MaxDegree != nil, func(g *PathFilter) { g.MaxDegree = nil })
	return out
}

// PathExplanation says why a shortest-path search found what it found.
type PathExplanation struct {
	MaxDepth int
	// Length is the shortest path's length when one meets the filter.
	Length int
	// Beyond is the length of the shortest path that meets every other
	// condition but is longer than MaxDepth (up to MaxMaxDepth); 0 when
	// there is none or the search found one.
	Beyond int
	// Blocking are the conditions (Relaxation.Field) each of which, taken
	// away alone, lets a path within MaxDepth through.
	Blocking []string
	// Complete is false when the time budget ran out before every
	// relaxation was tried: what is said holds, but more may be true.
	Complete bool
}

// Found says whether a path meets the filter.
func (e PathExplanation) Found() bool { return e.Length > 0 }

// Message says the explanation in a sentence.
func (e PathExplanation) Message() string {
	if e.Found() {
		return fmt.Sprintf("a path of %d relations meets the filter", e.Length)
	}
	var parts []string
	if e.Beyond > 0 {
		parts = append(parts, fmt.Sprintf("one of %d relations exists beyond maxDepth %d", e.Beyond, e.MaxDepth))
	}
	if len(e.Blocking) > 0 {
		parts = append(parts, "taking away "+strings.Join(e.Blocking, " or ")+" alone would find one within it")
	}
	msg := fmt.Sprintf("no path of at most %d relations meets the filter", e.MaxDepth)
	if len(parts) == 0 {
		if e.MaxDepth < MaxMaxDepth {
			msg += fmt.Sprintf(", none of at most %d either", MaxMaxDepth)
		}
		if e.Complete {
			return msg + ", and no single condition of the filter is the reason"
		}
		return msg + " (the time budget ran out before every condition was tried)"
	}
	msg += ": " + strings.Join(parts, "; ")
	if !e.Complete {
		msg += " (the time budget ran out before every condition was tried)"
	}
	return msg
}
