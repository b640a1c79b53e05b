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
)

// Profile runs a named statement with PROFILE and returns its plan with
// rows and database hits, one operator a line.
func (s *Store) Profile(ctx context.Context, name string, params map[string]any) (string, error) {
	res, err := neo4j.ExecuteQuery(ctx, s.driver, "PROFILE "+s.statement(statement(name)), scopeParams(casegraph.FullScope, params), neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var walk func(p neo4j.ProfiledPlan, depth int)
	walk = func(p neo4j.ProfiledPlan, depth int) {
		fmt.Fprintf(&b, "%s%s rows=%d dbHits=%d\n", strings.Repeat("  ", depth), p.Operator(), p.Records(), p.DbHits())
		for _, c := range p.Children() {
			walk(c, depth+1)
		}
	}
	walk(res.Summary.Profile(), 0)
	return b.String(), nil
}

// ExplainRead returns the plan of the statement ReadEntities renders for a
// read.
func (s *Store) ExplainRead(ctx context.Context, ids []string, read *casegraph.EntityRead) (string, error) {
	level, shape, params, err := compileRead(read, casegraph.ScopeFrom(ctx).Limited)
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
