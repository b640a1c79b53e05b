package cypher

import (
	"context"
	"embed"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/db"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// What the external tests of this package reach inside for.

var (
	// PathParams are a path statement's parameters, with the full scope
	// ($readable null), as the raw-driver benchmarks send them.
	PathParams = func(f casegraph.PathFilter) map[string]any {
		return scopeParams(casegraph.FullScope, pathParams(f))
	}
	PathStatementName = func(stmt string, depth int, d casegraph.PathDirection, k int) string {
		return string(pathStatementName(statement(stmt), depth, d, k))
	}
	// EntitiesParams are the parameters of Entities and CountEntities for
	// a filter, with the full scope, and EntitiesStatementName the variant
	// that answers it.
	EntitiesParams = func(f casegraph.EntityFilter) map[string]any {
		p := scopeParams(casegraph.FullScope, entityFilterParams(f))
		p["afterId"], p["afterKey"], p["limit"] = nil, "", int64(10)
		return p
	}
	EntitiesStatementName = func(f casegraph.EntityFilter) string {
		return string(entityOrderName(casegraph.DefaultEntityOrder, f, false))
	}
	CountEntitiesStatementName = func(f casegraph.EntityFilter) string { return string(stmtCountEntities.byFilter(f)) }
	MapError                   = mapError
	RetryOperator              = retryOperator
	PathError                  = func(timeout time.Duration, err error) error { return (&Store{pathTimeout: timeout}).pathError(err) }
)

// Explain returns the plan of a named statement, one operator a line.
func (s *Store) Explain(ctx context.Context, name string, params map[string]any) (string, error) {
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "EXPLAIN "+s.statement(statement(name)), params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	return describePlan(res.Summary.Plan()), nil
}

// describePlan prints a plan, one operator a line. It reads the driver's
// own plan tree: neo4j.Plan.Children in driver v5.28 returns the last child
// for every child (a loop variable's address, taken under Go 1.18 rules),
// which would hide the operators this test looks for.
func describePlan(p neo4j.Plan) string {
	if p == nil {
		return ""
	}
	inner := reflect.ValueOf(p).Elem().Field(0) // *db.Plan, unexported
	raw := (*db.Plan)(unsafe.Pointer(inner.Pointer()))
	var b strings.Builder
	writePlan(&b, raw, 0)
	return b.String()
}

func writePlan(b *strings.Builder, p *db.Plan, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(p.Operator)
	if d, ok := p.Arguments["Details"].(string); ok {
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(d, "\n", " "))
	}
	b.WriteString("\n")
	for i := range p.Children {
		writePlan(b, &p.Children[i], depth+1)
	}
}

// Statement returns the text of a named statement.
func (s *Store) Statement(name string) string { return s.statement(statement(name)) }

// Driver returns the store's driver.
func (s *Store) Driver() neo4j.DriverWithContext { return s.driver }

var (
	SuggestRequest = luceneSuggest
	Scoped         = scoped
	FacetScoped    = facetScoped
	// SearchPageParams are Search's parameters for a request and its
	// page's offset.
	SearchPageParams = searchPageParams
)

// Profile runs a named statement with PROFILE and returns its plan with
// rows and database hits, one operator a line.
func (s *Store) Profile(ctx context.Context, name string, params map[string]any) (string, error) {
	return s.ProfileText(ctx, s.statement(statement(name)), params)
}

// ProfileText is Profile for a statement's text.
func (s *Store) ProfileText(ctx context.Context, text string, params map[string]any) (string, error) {
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "PROFILE "+text, scopeParams(casegraph.FullScope, params), neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var walk func(p neo4j.ProfiledPlan, depth int)
	walk = func(p neo4j.ProfiledPlan, depth int) {
		details, _ := p.Arguments()["Details"].(string)
		if len(details) > 160 {
			details = details[:160] + "..."
		}
		fmt.Fprintf(&b, "%s%s rows=%d dbHits=%d %s\n", strings.Repeat("  ", depth), p.Operator(), p.Records(), p.DbHits(), strings.ReplaceAll(details, "\n", " "))
		for _, c := range p.Children() {
			walk(c, depth+1)
		}
	}
	walk(res.Summary.Profile(), 0)
	return b.String(), nil
}

// ProfileWhoWasInCommand runs the statement WhoWasInCommand runs for q
// and read with PROFILE (Profile).
func (s *Store) ProfileWhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (string, error) {
	_, text, err := s.commandText(stmtWhoWasInCommand, q.MaxLevels, read)
	if err != nil {
		return "", err
	}
	return s.ProfileText(ctx, text, whoWasInCommandParams(q))
}

// WhoWasInCommandText is the text of the statement WhoWasInCommand runs
// for q and read, and its parameters (the operator's).
func (s *Store) WhoWasInCommandText(q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (string, map[string]any, error) {
	_, text, err := s.commandText(stmtWhoWasInCommand, q.MaxLevels, read)
	return text, scopeParams(casegraph.FullScope, whoWasInCommandParams(q)), err
}

// TimeWhoWasInCommand runs the statement WhoWasInCommand runs for q and
// read, and returns how long Neo4j took to plan, run and stream it (the
// result summary's times) and how long the call took here.
func (s *Store) TimeWhoWasInCommand(ctx context.Context, q casegraph.WhoWasInCommandRequest, read casegraph.CommandRead) (server, wall time.Duration, err error) {
	_, text, err := s.commandText(stmtWhoWasInCommand, q.MaxLevels, read)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	res, err := neo4j.ExecuteQuery(ctx, s.driver, text, scopeParams(casegraph.FullScope, whoWasInCommandParams(q)), neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return 0, 0, err
	}
	return res.Summary.ResultAvailableAfter() + res.Summary.ResultConsumedAfter(), time.Since(start), nil
}

// MarkCitingDatasetsBackfilled records, as migrate's
// BackfillCitingDatasets does when it has run over all the data, that
// every source records the datasets citing it (regrade then reads only
// theirs).
func (s *Store) MarkCitingDatasetsBackfilled(ctx context.Context) error {
	_, err := s.write(ctx, stmtMarkDataMigration, map[string]any{"name": citingDatasetsMigration})
	return err
}

// CitingDatasets are the datasets a source records as citing it.
func (s *Store) CitingDatasets(ctx context.Context, id string) ([]string, error) {
	res, err := neo4j.ExecuteQuery(ctx, s.driver, `MATCH (s:Source {id: $id}) RETURN coalesce(s.citingDatasets, []) AS datasets`,
		map[string]any{"id": id}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(s.database))
	if err != nil || len(res.Records) == 0 {
		return nil, err
	}
	return getStrings(res.Records[0], "datasets")
}

// ForgetCitingDatasets removes what a source records of the datasets
// citing it, as data written before sources recorded them.
func (s *Store) ForgetCitingDatasets(ctx context.Context, id string) error {
	_, err := neo4j.ExecuteQuery(ctx, s.driver, `MATCH (s:Source {id: $id}) REMOVE s.citingDatasets`,
		map[string]any{"id": id}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(s.database))
	return err
}

// CitingClaimsDBHits runs regrade's look-up of the claims citing the
// sources ids with PROFILE, by the datasets the sources record (indexed)
// or over every claim (as before they recorded them), and returns its
// database hits and how many claims it found.
func (s *Store) CitingClaimsDBHits(ctx context.Context, ids []string, indexed bool) (hits int64, claims int, err error) {
	name := stmtCitingClaims.byDatasets(nil)
	if indexed {
		name = stmtCitingClaims.byDatasets([]string{"citing"})
	}
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "PROFILE "+s.statement(name), map[string]any{"ids": ids}, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database))
	if err != nil {
		return 0, 0, err
	}
	return PlanDBHits(res.Summary.Profile()), len(res.Records), nil
}

// PlanDBHits is the database hits of a profiled plan, its operators' in
// all.
func PlanDBHits(p neo4j.ProfiledPlan) int64 {
	n := p.DbHits()
	for _, c := range p.Children() {
		n += PlanDBHits(c)
	}
	return n
}

// ExplainEntities returns the plan of the statement Entities sends for q.
func (s *Store) ExplainEntities(ctx context.Context, q casegraph.EntitiesRequest) (string, error) {
	name, params := entitiesStatement(ctx, q)
	params = scopeParams(casegraph.ScopeFrom(ctx), params)
	text := s.statement(name)
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "EXPLAIN "+text, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	return describePlan(res.Summary.Plan()), nil
}

// ExplainList returns the plan of the page Changes (list "changes") or
// Sources (list "sources") sends, forward or backward, without a cursor.
func (s *Store) ExplainList(ctx context.Context, list string, backward bool) (string, error) {
	page := casegraph.Page{First: 20, Backward: backward}
	var name statement
	params := map[string]any{}
	switch list {
	case "changes":
		p, err := changeParams(ctx, casegraph.ChangeFilter{})
		if err != nil {
			return "", err
		}
		params, name = p, stmtChanges.paged(page)
		params["after"] = nil
	case "sources":
		name = stmtSources.paged(page)
		params["after"] = ""
	default:
		return "", fmt.Errorf("no list %q", list)
	}
	params["limit"] = pageLimit(page)
	params = scopeParams(casegraph.ScopeFrom(ctx), params)
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "EXPLAIN "+s.statement(name), params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	return describePlan(res.Summary.Plan()), nil
}

// ExplainRead returns the plan of the statement ReadEntities renders for a
// read.
func (s *Store) ExplainRead(ctx context.Context, ids []string, read *casegraph.EntityRead) (string, error) {
	scope := casegraph.ScopeFrom(ctx)
	level, shape, params, err := compileRead(read, scope.Limited, scope.Cleared, s.hubDegree)
	if err != nil {
		return "", err
	}
	text, err := s.reads.get(shape, level)
	if err != nil {
		return "", err
	}
	params["ids"] = ids
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "EXPLAIN "+text, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	return describePlan(res.Summary.Plan()), nil
}

// ReadEntitiesDBHits runs the statement ReadEntities renders for a read
// with PROFILE and returns its database hits and rows.
func (s *Store) ReadEntitiesDBHits(ctx context.Context, ids []string, read *casegraph.EntityRead) (hits int64, rows int, err error) {
	scope := casegraph.ScopeFrom(ctx)
	level, shape, params, err := compileRead(read, scope.Limited, scope.Cleared, s.hubDegree)
	if err != nil {
		return 0, 0, err
	}
	text, err := s.reads.get(shape, level)
	if err != nil {
		return 0, 0, err
	}
	params["ids"] = planList(ids)
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "PROFILE "+text, withScope(ctx, params), neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return 0, 0, err
	}
	return PlanDBHits(res.Summary.Profile()), len(res.Records), nil
}

//go:embed testdata/*.cypher
var testStatements embed.FS

// RunTestStatement runs testdata/NAME.cypher in a write transaction: states
// of the graph that the service itself never writes.
func (s *Store) RunTestStatement(ctx context.Context, name string, params map[string]any) error {
	text, err := testStatements.ReadFile("testdata/" + name + ".cypher")
	if err != nil {
		return err
	}
	_, err = neo4j.ExecuteQuery(ctx, s.driver, string(text), params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithWritersRouting())
	return err
}

// HoldHeavy takes a slot of the heavy pool, as a running path search
// would, until release is called.
func (s *Store) HoldHeavy(ctx context.Context) (release func(), err error) {
	return s.admit(ctx, heavy)
}

// DuplicateSubjects is what a duplicate run reads of a dataset's entities.
func (s *Store) DuplicateSubjects(ctx context.Context, q duplicate.Request) ([]duplicate.Subject, error) {
	return duplicateGraph{s}.DuplicateSubjects(ctx, q)
}

// SetCheckChunk sets the rows CheckWrites judges at once, until the
// returned restore is called (not for parallel tests).
func SetCheckChunk(n int) (restore func()) {
	old := checkChunk
	checkChunk = n
	return func() { checkChunk = old }
}
