package cypher

// Full-text search and suggestions: the Lucene query built from a
// request's words, scoped to datasets and kinds, its hits, and the counts
// of a search.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtSearch       statement = "Search"
	stmtSearchCounts statement = "SearchCounts"
	stmtSuggest      statement = "Suggest"
)

// The full-text query is built here, from words that are runs of letters
// and digits (casegraph.Words): no character of the user's text can be
// Lucene syntax, and lower-case words are never operators (Lucene's are
// upper case).

// LuceneSearch matches entities that have every word (ranked first) or some
// of them, as a whole word, the start of a word, or one typo away (the
// first maxTypoWords words of 4 letters or more), in the
// name, an alias or the description; names weigh most, and the whole text
// as a phrase in a name or an alias most of all. Stop words
// (casegraph.IsStopWord) never make a hit: only the other words are
// required, and a text of stop words only matches the names and aliases
// that hold them as a phrase (Search keeps those that are just those words:
// exactName).
//
// "Every word" is each word whole, as the start of a word in a name or an
// alias, or in the description (everyWord, of wordClause): the typo
// clauses are not repeated there. Lucene rewrites every typo clause into
// the terms it matches, once for each time the clause appears, and that
// rewriting was a third of what the query cost (bench/README.md, "W4:
// each typo clause once"). A text that has every word only within a typo
// still matches, and scores on each word's clause, where a typo weighs as
// much as a prefix or more (^4 in a name, ^2 in an alias), so that a
// misspelt full name stays among the candidates Search ranks, even beside
// 200 names that share one of its words. The hits are the same either way
// (everyWord matches nothing that the words' clauses do not), so the
// counts are too.
func LuceneSearch(words []string) string {
	content := casegraph.ContentWords(words)
	if len(content) == 0 {
		return phraseClause(words)
	}
	clauses := make([]string, len(content))
	typos := 0
	for i, w := range content {
		clauses[i] = wordClause(w)
		if utf8.RuneCountInString(w) >= 4 && typos < maxTypoWords {
			clauses[i] = fmt.Sprintf("(%s OR searchName:%s~1^4 OR searchAliases:%s~1^2)", clauses[i], w, w)
			typos++
		}
	}
	core := clauses[0]
	if len(clauses) > 1 {
		core = everyWord(content) + "^4 OR " + strings.Join(clauses, " OR ")
	}
	if len(words) == 1 {
		return core
	}
	// Required: the content words; optional, for the score: the phrase.
	return "+(" + core + ") (" + phraseClause(words) + ")"
}

// maxTypoWords bounds the words of a text that match one typo away: the
// first 6 of 4 letters or more. Lucene rewrites each typo term into up to
// 50 terms of the index, and refuses a query of more than 1,024 clauses
// (mapError says so as BAD_USER_INPUT): 34 five-digit numbers, all typo
// terms, were refused on a graph of 100,000 entities. With 6, the worst
// texts of 200 characters tried stay below the limit (at most 600 clauses
// of typos, and 10 for each word: its clause and its place in the
// every-word group), scoped to 50 datasets and every kind too.
const maxTypoWords = 6

// wordClause matches w as a whole word or the start of one in the name or
// an alias, or as a word of the description.
func wordClause(w string) string {
	return fmt.Sprintf("(searchName:%s^8 OR searchAliases:%s^6 OR searchName:%s*^3 OR searchAliases:%s*^2 OR searchDescription:%s)",
		w, w, w, w, w)
}

// everyWord matches the entities that have every word of content, each
// as wordClause matches it.
func everyWord(content []string) string {
	each := make([]string, len(content))
	for i, w := range content {
		each[i] = wordClause(w)
	}
	return "(" + strings.Join(each, " AND ") + ")"
}

// phraseClause matches the words as a phrase in the name or an alias.
func phraseClause(words []string) string {
	p := strings.Join(words, " ")
	return fmt.Sprintf(`searchName:"%s"^12 OR searchAliases:"%s"^8`, p, p)
}

// exactName is, for a text of stop words only, the pattern of a folded
// name or alias that is just those words (Search.cypher.tmpl compares the
// name and every alias with it), and nil for any other text: a search for
// "the of" finds nothing, a search for "the who" finds "The Who" and not
// every name with "the" in it. The words hold only letters and digits, so
// none is regular-expression syntax.
func exactName(words []string) any {
	if len(casegraph.ContentWords(words)) > 0 {
		return nil
	}
	const gap = `[^\p{L}\p{N}]`
	return "(?s)" + gap + "*" + strings.Join(words, gap+"+") + gap + "*"
}

// luceneSuggest matches names and aliases with every word, the last one as
// a prefix (it is still being typed).
func luceneSuggest(words []string) string {
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
	return map[string]any{"kinds": listParam(f.Kinds), "datasets": listParam(f.Datasets), "exact": nil}
}

// Search ranks up to casegraph.SearchWindow candidates for q's words in
// its statement, as casegraph.Rank does (rankParams), and returns the
// page q.Page shows of them, each with its score, degree, tier and
// matched field, and how many it ranked: only the page's entities are
// read (and of them, when q shows nothing else, q.Brief, only the text a
// search matches: Search/brief), in one round trip. q must be normalized.
func (s *Store) Search(ctx context.Context, q casegraph.SearchRequest) (casegraph.SearchPage, error) {
	offset, err := q.Offset()
	if err != nil {
		return casegraph.SearchPage{}, err
	}
	stmt, params := searchStatement(q.Brief()), searchPageParams(q, offset)
	res, err := s.readHeavy(ctx, stmt, params)
	if err != nil {
		return casegraph.SearchPage{}, err
	}
	if len(res.Records) != 1 {
		return casegraph.SearchPage{}, internalError(stmt, fmt.Errorf("%d records, want 1", len(res.Records)))
	}
	page, err := searchPageOf(res.Records[0])
	if err != nil {
		return casegraph.SearchPage{}, internalError(stmt, err)
	}
	// The statement places the page as q.Window does.
	if start, end, _ := q.Window(offset, page.Ranked); end-start != len(page.Results) {
		return casegraph.SearchPage{}, internalError(stmt, fmt.Errorf("page of %d results, want %d (%d to %d of %d)", len(page.Results), end-start, start, end, page.Ranked))
	}
	return page, nil
}

// searchPageParams are the parameters of Search's statement for q, whose
// page begins at offset (q.Offset).
func searchPageParams(q casegraph.SearchRequest, offset int) map[string]any {
	params := searchParams(q.Filter)
	params["query"], params["exact"] = scoped(LuceneSearch(q.Words), q.Filter), exactName(q.Words)
	params["candidates"], params["window"] = int64(casegraph.SearchWindow), int64(casegraph.SearchWindow)
	params["offset"], params["first"], params["backward"] = int64(offset), int64(q.Page.First), q.Page.Backward
	maps.Copy(params, rankParams(q.Words))
	return params
}

// searchPageOf reads Search's one record: how many it ranked, and the
// page in rank order.
func searchPageOf(rec *neo4j.Record) (casegraph.SearchPage, error) {
	ranked, err := getInt(rec, "ranked")
	if err != nil {
		return casegraph.SearchPage{}, err
	}
	rows, err := getMaps(rec, "page")
	if err != nil {
		return casegraph.SearchPage{}, err
	}
	out := casegraph.SearchPage{Ranked: int(ranked), Results: make([]casegraph.SearchResult, len(rows))}
	for i, row := range rows {
		m, ok := row["entity"].(map[string]any)
		if !ok {
			return casegraph.SearchPage{}, fmt.Errorf("page[%d].entity: want a map, got %T", i, row["entity"])
		}
		res := &out.Results[i]
		if err := decodeEntity(m, &res.Entity); err != nil { // in place: decodeEntity says why
			return casegraph.SearchPage{}, err
		}
		score, _ := row["score"].(float64)
		degree, _ := row["degree"].(int64)
		tier, ok := row["tier"].(int64)
		field, _ := row["field"].(string)
		if !ok || !slices.Contains(casegraph.MatchFields(), casegraph.MatchField(field)) {
			return casegraph.SearchPage{}, fmt.Errorf("page[%d]: tier %v, field %v", i, row["tier"], row["field"])
		}
		res.Score, res.Degree, res.Tier, res.Field = score, degree, int(tier), casegraph.MatchField(field)
	}
	return out, nil
}

// rankParams are the parameters with which Search's statement ranks its
// candidates as casegraph.Rank does, on the texts the store keeps of each
// entity (rankFields): $phrase and $words (casegraph.RankingWords), and
// $edits, the forms of a word one edit from one of $words
// (casegraph.WithinOneEdit) by their length in characters: at each
// length, the prefixes and suffixes of a word of that length that begins
// with the one and ends with the other, so that the statement tests a
// word with STARTS WITH and ENDS WITH the forms of its own size(). A word
// is never empty, so there is no form of length 0.
func rankParams(words []string) map[string]any {
	phrase, match := casegraph.RankingWords(words)
	var edits [][][]string
	seen := map[[2]string]map[int]bool{}
	add := func(pre, suf []rune, size int) {
		key := [2]string{string(pre), string(suf)}
		if size == 0 || seen[key][size] {
			return
		}
		if seen[key] == nil {
			seen[key] = map[int]bool{}
		}
		seen[key][size] = true
		for len(edits) <= size {
			edits = append(edits, [][]string{})
		}
		edits[size] = append(edits[size], []string{key[0], key[1]})
	}
	for _, w := range match {
		r := []rune(w)
		for i := 0; i <= len(r); i++ {
			add(r[:i], r[i:], len(r)+1) // a character inserted at i
			if i < len(r) {
				add(r[:i], r[i+1:], len(r))   // the i-th replaced (or kept)
				add(r[:i], r[i+1:], len(r)-1) // the i-th deleted
			}
		}
	}
	return map[string]any{"phrase": phrase, "words": match, "edits": edits}
}

// rankFields are the texts Search ranks an entity by, as
// casegraph.RankText makes them: of its name (rankName), its aliases
// (rankAliases) and its identifiers' values (rankIdentifiers), written
// with the search fields.
func rankFields(name string, aliases []string, ids []casegraph.Identifier) map[string]any {
	values := make([]string, len(ids))
	for i, id := range ids {
		values[i] = id.Value
	}
	return map[string]any{"rankName": casegraph.RankText(name), "rankAliases": rankTexts(aliases), "rankIdentifiers": rankTexts(values)}
}

// rankTexts is casegraph.RankText of each text.
func rankTexts(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = casegraph.RankText(t)
	}
	return out
}

// Suggest returns up to q.Candidates() type-ahead candidates for q's
// words, unranked. q must be normalized.
func (s *Store) Suggest(ctx context.Context, q casegraph.SuggestRequest) ([]casegraph.SearchHit, error) {
	params := searchParams(q.Filter)
	params["query"] = scoped(luceneSuggest(q.Words), q.Filter)
	params["candidates"], params["window"] = int64(q.Candidates()), int64(q.Candidates())
	res, err := s.readHeavy(ctx, stmtSuggest, params)
	if err != nil {
		return nil, err
	}
	hits := make([]casegraph.SearchHit, len(res.Records))
	for i, rec := range res.Records {
		m, err := getMap(rec, "entity")
		if err != nil {
			return nil, internalError(stmtSuggest, err)
		}
		hit := &hits[i]
		if err := decodeEntity(m, &hit.Entity); err != nil { // in place: decodeEntity says why
			return nil, internalError(stmtSuggest, err)
		}
		score, _, err := getFloat(rec, "score")
		if err != nil {
			return nil, internalError(stmtSuggest, err)
		}
		degree, err := getInt(rec, "degree")
		if err != nil {
			return nil, internalError(stmtSuggest, err)
		}
		hit.Score, hit.Degree = score, degree
	}
	return hits, nil
}

// scoped limits a full-text query to the filter's datasets and kinds, by
// their searchScope tokens (which hold only letters, digits and "_").
func scoped(query string, f casegraph.SearchFilter) string {
	var must []string
	for _, terms := range [][]string{datasetTerms(f), kindTerms(f)} {
		if len(terms) > 0 {
			must = append(must, "+("+strings.Join(terms, " OR ")+")")
		}
	}
	if len(must) == 0 {
		return query
	}
	return strings.Join(must, " ") + " +(" + query + ")"
}

// facetScoped limits a full-text query as far as a search's facets allow:
// each facet ignores its own filter, so only what neither filter admits
// is left out, and only when both are set.
func facetScoped(query string, f casegraph.SearchFilter) string {
	ds, kinds := datasetTerms(f), kindTerms(f)
	if len(ds) == 0 || len(kinds) == 0 {
		return query
	}
	return "+(" + strings.Join(append(ds, kinds...), " OR ") + ") +(" + query + ")"
}

func datasetTerms(f casegraph.SearchFilter) []string {
	terms := make([]string, len(f.Datasets))
	for i, ds := range f.Datasets {
		terms[i] = "searchScope:" + casegraph.DatasetToken(ds)
	}
	return terms
}

func kindTerms(f casegraph.SearchFilter) []string {
	terms := make([]string, len(f.Kinds))
	for i, k := range f.Kinds {
		terms[i] = "searchScope:k_" + strings.ToLower(string(k))
	}
	return terms
}

// SearchCounts counts every entity that matches q's words within the
// caller's scope: the total under the filter and, with facets (when the
// selection asks for them: not a client's argument), the counts by kind and
// by dataset (casegraph.TallySearch), in one statement. q must be
// normalized.
func (s *Store) SearchCounts(ctx context.Context, q casegraph.SearchRequest, facets bool) (casegraph.SearchCounts, error) {
	query := scoped(LuceneSearch(q.Words), q.Filter)
	if facets {
		query = facetScoped(LuceneSearch(q.Words), q.Filter)
	}
	res, err := s.readHeavy(ctx, stmtSearchCounts, map[string]any{"query": query, "exact": exactName(q.Words)})
	if err != nil {
		return casegraph.SearchCounts{}, err
	}
	rows := make([]casegraph.SearchCountRow, len(res.Records))
	for i, rec := range res.Records {
		kind, err := getString(rec, "kind")
		if err != nil {
			return casegraph.SearchCounts{}, internalError("SearchCounts", err)
		}
		ds, err := getString(rec, "dataset")
		if err != nil {
			return casegraph.SearchCounts{}, internalError("SearchCounts", err)
		}
		n, err := getInt(rec, "count")
		if err != nil {
			return casegraph.SearchCounts{}, internalError("SearchCounts", err)
		}
		rows[i] = casegraph.SearchCountRow{Kind: casegraph.Kind(kind), Dataset: ds, Count: n}
	}
	return casegraph.TallySearch(rows, q.Filter), nil
}

// searchVariants renders Search twice: projecting every entity property
// of the page (Search/full), and only the text a search matches
// (Search/brief: casegraph.BriefProperties).
func searchVariants() []variant {
	return []variant{
		{Name: searchStatement(false), Data: map[string]any{"Props": casegraph.EntityProperties}},
		{Name: searchStatement(true), Data: map[string]any{"Props": casegraph.BriefProperties}},
	}
}

// searchStatement names the variant of Search (searchVariants).
func searchStatement(brief bool) statement {
	if brief {
		return stmtSearch + "/brief"
	}
	return stmtSearch + "/full"
}

// searchVersion tags how the search fields are derived (see Fold):
// search-3 added the identifiers' values to searchAliases.
const searchVersion = "search-3"

// searchAliases is the folded aliases and then the identifiers' values,
// one a line, as the full-text index sees them: a passport or registry
// number finds its entity as an alias would (casegraph.Rank tells them
// apart), without a field of its own, which would mean a new full-text
// index over every entity.
func searchAliases(aliases []string, ids []casegraph.Identifier) string {
	folded := make([]string, 0, len(aliases)+len(ids))
	for _, a := range aliases {
		folded = append(folded, casegraph.Fold(a))
	}
	for _, id := range ids {
		folded = append(folded, casegraph.Fold(id.Value))
	}
	return strings.Join(folded, "\n")
}
