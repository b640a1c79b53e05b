package casegraph

import (
	"slices"
)

// Requests: what a client asks of the graph, one type per question, each
// with the one Validate (or Normalize) that holds every rule and limit of
// its arguments. The GraphQL layer converts its arguments into these, with
// an absent argument given its default here, and calls Validate before the
// store; the store checks only what needs the graph (that an id exists,
// that merged entities are of one kind).

// Limits and defaults of the requests' arguments.
const (
	DefaultMaxDepth = 4           // PathFilter.MaxDepth when a client gives none
	MaxMaxDepth     = 8           // the most relations in a path
	MaxMaxDegree    = 100_000_000 // the largest hub cap (PathFilter.MaxDegree)

	DefaultPaths = 3  // PathQuery.K for paths when a client gives none
	MaxPaths     = 20 // the most paths one search returns

	DefaultNeighborhoodDepth = 1
	MaxNeighborhood          = 3 // the deepest neighborhood
	DefaultNeighborhoodSize  = 100
	MaxNeighborhoodSize      = 1000 // the most entities of a neighborhood besides its centre

	MinConnections = 2 // the fewest entities of connections and commonNeighbors
	MaxConnections = 10

	DefaultCommonNeighbors = 100
	MaxCommonNeighbors     = 1000 // the most entities commonNeighbors returns

	// MaxFilterValues is the most values a filter's list may hold.
	MaxFilterValues = 50
	// MaxMerge is the most entities one merge folds in.
	MaxMerge = 50

	DefaultSuggest = 10
	MaxSuggest     = 25
)

// PathFilter narrows a path search. Every filter applies during the search:
// a path that would need an excluded entity or relation is not "found and
// dropped", the search goes around it. DefaultPathFilter gives the
// defaults; the zero filter is not valid (its MaxDepth is 0).
type PathFilter struct {
	MaxDepth             int // relations in a path, 1 to MaxMaxDepth
	RelationTypes        []RelationType
	ExcludeRelationTypes []RelationType
	// ExcludeIDs are entities no path may pass through (hubs, say).
	ExcludeIDs []string
	// Kinds are the kinds an entity inside a path may have (its ends are
	// what they are).
	Kinds    []Kind
	Datasets []string
	// ValidAt keeps relations whose dates allow this partial date: a
	// relation without a start started long ago, one without an end has
	// not ended.
	ValidAt       string
	MinConfidence *float64
	Statuses      []Status
	Direction     PathDirection // "" is PathAny
	// MaxDegree, when set, keeps paths out of entities with more relations
	// than this (hubs): it bounds the work of a search on a dense graph.
	MaxDegree *int
}

// DefaultPathFilter is the filter of a search that gives none: paths of
// up to DefaultMaxDepth relations, followed either way.
func DefaultPathFilter() PathFilter {
	return PathFilter{MaxDepth: DefaultMaxDepth, Direction: PathAny}
}

// Normalize checks the filter and fills in the direction when it has none.
func (f *PathFilter) Normalize() error {
	if f.MaxDepth < 1 || f.MaxDepth > MaxMaxDepth {
		return Errorf(CodeBadUserInput, "maxDepth must be between 1 and %d, not %d", MaxMaxDepth, f.MaxDepth)
	}
	if f.Direction == "" {
		f.Direction = PathAny
	}
	if f.Direction != PathAny && f.Direction != PathOutgoing {
		return Errorf(CodeBadUserInput, "direction must be ANY or OUTGOING")
	}
	if len(f.RelationTypes) > MaxFilterValues || len(f.ExcludeRelationTypes) > MaxFilterValues ||
		len(f.ExcludeIDs) > MaxFilterValues || len(f.Datasets) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "a filter list holds at most %d values", MaxFilterValues)
	}
	for _, t := range append(slices.Clone(f.RelationTypes), f.ExcludeRelationTypes...) {
		if _, err := Spec(t); err != nil {
			return err
		}
	}
	for _, id := range f.ExcludeIDs {
		if err := ValidateID("excludeIds", id); err != nil {
			return err
		}
	}
	for _, ds := range f.Datasets {
		if err := ValidateID("datasets", ds); err != nil {
			return err
		}
	}
	if err := validateKinds(f.Kinds); err != nil {
		return err
	}
	for _, s := range f.Statuses {
		if !slices.Contains(Statuses(), s) {
			return Errorf(CodeBadUserInput, "unknown status %q", truncate(string(s), 40))
		}
	}
	if d := f.MaxDegree; d != nil && *d < 1 {
		return Errorf(CodeBadUserInput, "maxDegree must be at least 1")
	}
	if d := f.MaxDegree; d != nil && *d > MaxMaxDegree {
		return Errorf(CodeBadUserInput, "maxDegree must be between 1 and %d", MaxMaxDegree)
	}
	if err := ValidateDate("validAt", f.ValidAt); err != nil {
		return err
	}
	return ValidateConfidence(f.MinConfidence)
}

// PathQuery asks for up to K shortest simple paths from one entity to
// another (shortestPath is K 1).
type PathQuery struct {
	From, To string
	K        int // 1 to MaxPaths
	Filter   PathFilter
}

// Normalize checks the query and normalizes its filter.
func (q *PathQuery) Normalize() error {
	if err := ValidateID("from", q.From); err != nil {
		return err
	}
	if err := ValidateID("to", q.To); err != nil {
		return err
	}
	if q.K < 1 || q.K > MaxPaths {
		return Errorf(CodeBadUserInput, "k must be between 1 and %d, not %d", MaxPaths, q.K)
	}
	return q.Filter.Normalize()
}

// NeighborhoodQuery asks for the entities within Depth relations of one,
// nearest first, at most Limit besides it, and the relations among them.
type NeighborhoodQuery struct {
	ID     string
	Depth  int // 1 to MaxNeighborhood
	Limit  int // 1 to MaxNeighborhoodSize
	Filter PathFilter
}

// Normalize checks the query and normalizes its filter.
func (q *NeighborhoodQuery) Normalize() error {
	if err := ValidateID("id", q.ID); err != nil {
		return err
	}
	if q.Depth < 1 || q.Depth > MaxNeighborhood {
		return Errorf(CodeBadUserInput, "depth must be between 1 and %d, not %d", MaxNeighborhood, q.Depth)
	}
	if q.Limit < 1 || q.Limit > MaxNeighborhoodSize {
		return Errorf(CodeBadUserInput, "limit must be between 1 and %d, not %d", MaxNeighborhoodSize, q.Limit)
	}
	return q.Filter.Normalize()
}

// ConnectionsQuery asks, for MinConnections to MaxConnections distinct
// entities, for the shortest paths between every pair.
type ConnectionsQuery struct {
	IDs    []string
	Filter PathFilter
}

// Normalize checks the query and normalizes its filter.
func (q *ConnectionsQuery) Normalize() error {
	if err := validateIDSet("connections", q.IDs); err != nil {
		return err
	}
	return q.Filter.Normalize()
}

// validateIDSet checks the ids of connections or commonNeighbors (field):
// MinConnections to MaxConnections valid ids, none twice.
func validateIDSet(field string, ids []string) error {
	if len(ids) < MinConnections || len(ids) > MaxConnections {
		return Errorf(CodeBadUserInput, "%s takes %d to %d ids, not %d", field, MinConnections, MaxConnections, len(ids))
	}
	for i, id := range ids {
		if err := ValidateID("ids", id); err != nil {
			return err
		}
		if slices.Contains(ids[:i], id) {
			return Errorf(CodeBadUserInput, "ids: %q is named twice", id)
		}
	}
	return nil
}

// CommonNeighborsQuery asks, for MinConnections to MaxConnections distinct
// entities, for the entities directly related to every one of them (one
// hop: the filter's maxDepth has no meaning, and its direction must be
// ANY, as a neighbour is common whichever way its relations run).
type CommonNeighborsQuery struct {
	IDs    []string
	Limit  int // 1 to MaxCommonNeighbors
	Filter PathFilter
}

// Normalize checks the query and normalizes its filter.
func (q *CommonNeighborsQuery) Normalize() error {
	if err := validateIDSet("commonNeighbors", q.IDs); err != nil {
		return err
	}
	if q.Limit < 1 || q.Limit > MaxCommonNeighbors {
		return Errorf(CodeBadUserInput, "limit must be between 1 and %d, not %d", MaxCommonNeighbors, q.Limit)
	}
	if q.Filter.Direction == PathOutgoing {
		return Errorf(CodeBadUserInput, "filter.direction: commonNeighbors follows relations either way (ANY)")
	}
	return q.Filter.Normalize()
}

// Validate checks a filter of entities.
func (f EntityFilter) Validate() error {
	if err := validateScope("filter", f.Kinds, f.Datasets); err != nil {
		return err
	}
	if f.Category != "" && !slices.ContainsFunc(Kinds(), func(k Kind) bool { return slices.Contains(Categories(k), f.Category) }) {
		return Errorf(CodeBadUserInput, "filter.category: unknown category %q", truncate(f.Category, 40))
	}
	if err := ValidateDate("filter.dateFrom", f.DateFrom); err != nil {
		return err
	}
	if err := ValidateDate("filter.dateTo", f.DateTo); err != nil {
		return err
	}
	if f.DateFrom != "" && f.DateTo != "" && MustPartialDate(f.DateTo).Latest() < MustPartialDate(f.DateFrom).Earliest() {
		return Errorf(CodeBadUserInput, "filter.dateTo %s is before dateFrom %s", f.DateTo, f.DateFrom)
	}
	if len(f.HasRelation) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "filter.hasRelation: at most %d types", MaxFilterValues)
	}
	for _, t := range f.HasRelation {
		if _, err := Spec(t); err != nil {
			return err
		}
	}
	return TextRule{Max: MaxNameLength}.Check("filter.nameContains", f.NameContains)
}

// Validate checks a filter of a search.
func (f SearchFilter) Validate() error {
	return validateScope("", f.Kinds, f.Datasets)
}

// SearchQuery asks for the entities whose names, aliases or descriptions
// match Text, ranked (see Rank).
type SearchQuery struct {
	Text   string
	Filter SearchFilter
	// Words are the words searched for, set by Normalize.
	Words []string
}

// Normalize checks the query and finds its words.
func (q *SearchQuery) Normalize() error {
	words, err := ValidateSearchText("text", q.Text)
	if err != nil {
		return err
	}
	if err := q.Filter.Validate(); err != nil {
		return err
	}
	q.Words = words
	return nil
}

// SuggestQuery asks for up to First type-ahead matches of Prefix.
type SuggestQuery struct {
	Prefix string
	First  int // 1 to MaxSuggest
	Filter SearchFilter
	// Words are the words of the prefix, set by Normalize.
	Words []string
}

// Normalize checks the query and finds its words.
func (q *SuggestQuery) Normalize() error {
	words, err := ValidateSearchText("prefix", q.Prefix)
	if err != nil {
		return err
	}
	if q.First < 1 || q.First > MaxSuggest {
		return Errorf(CodeBadUserInput, "first must be between 1 and %d, not %d", MaxSuggest, q.First)
	}
	if err := q.Filter.Validate(); err != nil {
		return err
	}
	q.Words = words
	return nil
}

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

// validateScope checks the kinds and datasets a filter keeps; field (""
// for none) names the filter in errors.
func validateScope(field string, kinds []Kind, datasets []string) error {
	prefix, datasetsField := "", "datasets"
	if field != "" {
		prefix, datasetsField = field+": ", field+".datasets"
	}
	if len(kinds) > MaxFilterValues || len(datasets) > MaxFilterValues {
		return Errorf(CodeBadUserInput, "%sat most %d kinds and %d datasets", prefix, MaxFilterValues, MaxFilterValues)
	}
	if err := validateKinds(kinds); err != nil {
		return err
	}
	for _, ds := range datasets {
		if err := ValidateID(datasetsField, ds); err != nil {
			return err
		}
	}
	return nil
}

func validateKinds(kinds []Kind) error {
	for _, k := range kinds {
		if _, err := ParseKind(string(k)); err != nil {
			return err
		}
	}
	return nil
}

// MaxDatasetTimeline is the most items a dataset timeline returns.
const MaxDatasetTimeline = 500

// DatasetTimelineQuery asks what happened in a period across datasets:
// their dated events and relations whose days meet [From, To].
type DatasetTimelineQuery struct {
	Datasets []string // 1 to MaxFilterValues
	From, To PartialDate
	First    int // 1 to MaxDatasetTimeline
}

// Validate checks the datasets, that the period is given and in order, and
// the page size.
func (q DatasetTimelineQuery) Validate() error {
	if len(q.Datasets) == 0 {
		return Errorf(CodeBadUserInput, "datasets: name at least one")
	}
	if err := validateScope("", nil, q.Datasets); err != nil {
		return err
	}
	if q.From.IsZero() || q.To.IsZero() {
		return Errorf(CodeBadUserInput, "from and to are both needed: a dataset's timeline is read a period at a time")
	}
	if q.To.Latest() < q.From.Earliest() {
		return Errorf(CodeBadUserInput, "to %s is before from %s", q.To, q.From)
	}
	if q.First < 1 || q.First > MaxDatasetTimeline {
		return Errorf(CodeBadUserInput, "first must be between 1 and %d, not %d", MaxDatasetTimeline, q.First)
	}
	return nil
}
