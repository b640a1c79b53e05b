package cypher

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSearch statement = "Search"
)

// The full-text query is built here, from words that are runs of letters
// and digits (casegraph.Words): no character of the user's text can be
// Lucene syntax, and lower-case words are never operators (Lucene's are
// upper case).

// SearchQuery matches entities that have every word (ranked first) or some
// of them, as a whole word, the start of a word, or one typo away, in the
// name, an alias or the description; names weigh most.
func SearchQuery(words []string) string {
	clauses := make([]string, len(words))
	for i, w := range words {
		parts := []string{
			fmt.Sprintf("searchName:%s^8", w), fmt.Sprintf("searchAliases:%s^6", w),
			fmt.Sprintf("searchName:%s*^3", w), fmt.Sprintf("searchAliases:%s*^2", w),
			fmt.Sprintf("searchDescription:%s", w),
		}
		if utf8.RuneCountInString(w) >= 4 {
			parts = append(parts, fmt.Sprintf("searchName:%s~1^2", w), fmt.Sprintf("searchAliases:%s~1", w))
		}
		clauses[i] = "(" + strings.Join(parts, " OR ") + ")"
	}
	if len(clauses) == 1 {
		return clauses[0]
	}
	return "(" + strings.Join(clauses, " AND ") + ")^4 OR " + strings.Join(clauses, " OR ")
}

// suggestQuery matches names and aliases with every word, the last one as
// a prefix (it is still being typed).
func suggestQuery(words []string) string {
	clauses := make([]string, len(words))
	for i, w := range words {
		if i == len(words)-1 {
			clauses[i] = fmt.Sprintf("(searchName:%s* OR searchAliases:%s*)", w, w)
		} else {
			clauses[i] = fmt.Sprintf("(searchName:%s OR searchAliases:%s)", w, w)
		}
	}
	return strings.Join(clauses, " AND ")
}

func searchParams(f casegraph.SearchFilter) map[string]any {
	return map[string]any{"kinds": listParam(f.Kinds), "datasets": listParam(f.Datasets)}
}

// Search returns up to window candidates for the words, with their scores
// and degrees, unranked.
func (s *Store) Search(ctx context.Context, words []string, f casegraph.SearchFilter, window int) ([]casegraph.SearchHit, error) {
	return s.fullText(ctx, scoped(SearchQuery(words), f), f, window)
}

// Suggest returns up to window type-ahead candidates for the words.
func (s *Store) Suggest(ctx context.Context, words []string, f casegraph.SearchFilter, window int) ([]casegraph.SearchHit, error) {
	return s.fullText(ctx, scoped(suggestQuery(words), f), f, window)
}

// scoped limits a full-text query to the filter's datasets and kinds, by
// their searchScope tokens (which hold only letters, digits and "_").
func scoped(query string, f casegraph.SearchFilter) string {
	var must []string
	if len(f.Datasets) > 0 {
		terms := make([]string, len(f.Datasets))
		for i, ds := range f.Datasets {
			terms[i] = "searchScope:" + casegraph.DatasetToken(ds)
		}
		must = append(must, "+("+strings.Join(terms, " OR ")+")")
	}
	if len(f.Kinds) > 0 {
		terms := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			terms[i] = "searchScope:k_" + strings.ToLower(string(k))
		}
		must = append(must, "+("+strings.Join(terms, " OR ")+")")
	}
	if len(must) == 0 {
		return query
	}
	return strings.Join(must, " ") + " +(" + query + ")"
}

func (s *Store) fullText(ctx context.Context, query string, f casegraph.SearchFilter, window int) ([]casegraph.SearchHit, error) {
	params := searchParams(f)
	params["query"], params["window"] = query, int64(window)
	params["candidates"] = int64(window)
	res, err := s.readHeavy(ctx, stmtSearch, params)
	if err != nil {
		return nil, err
	}
	hits := make([]casegraph.SearchHit, 0, len(res.Records))
	for _, rec := range res.Records {
		m, err := getMap(rec, "entity")
		if err != nil {
			return nil, internalError("Search", err)
		}
		e, err := entityFromMap(m)
		if err != nil {
			return nil, internalError("Search", err)
		}
		score, _, err := getFloat(rec, "score")
		if err != nil {
			return nil, internalError("Search", err)
		}
		degree, err := getInt(rec, "degree")
		if err != nil {
			return nil, internalError("Search", err)
		}
		hits = append(hits, casegraph.SearchHit{Entity: e, Score: score, Degree: degree})
	}
	return hits, nil
}

// searchVersion tags how the search fields are derived (see Fold).
const searchVersion = "search-2"

// searchAliases is the folded aliases, one a line, as the full-text index
// sees them.
func searchAliases(aliases []string) string {
	folded := make([]string, len(aliases))
	for i, a := range aliases {
		folded[i] = casegraph.Fold(a)
	}
	return strings.Join(folded, "\n")
}
