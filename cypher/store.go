// Package cypher is everything in Casegraph that speaks to Neo4j: the Store
// and its statements (one per file of statements/, embedded; see
// statement.go), one file per noun with its reads, writes and mapper,
// schema migrations, the mapping of records to domain types and of driver
// errors to coded errors. No other package builds Cypher or reads records.
package cypher

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"
	"go.opentelemetry.io/otel/trace"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
)

// Observer is told of every round trip to Neo4j, by statement name. The
// server counts them in Prometheus; tests use them to prove batching.
type Observer interface {
	ObserveStatement(name string, took time.Duration, err error)
}

// Options configure a Store.
type Options struct {
	// Database is the Neo4j database name; it is always sent, so the
	// driver never has to ask the server for a home database.
	Database string
	Observer Observer
	// Tracer, when set, gives every statement a span (tracing.go); nil
	// traces nothing.
	Tracer trace.Tracer
	// PathTimeout bounds every path search (0: only the request's
	// deadline); one that runs over ends with TIMEOUT.
	PathTimeout time.Duration
	// Admission bounds the statements run at once; the zero value bounds
	// nothing (the command line's one-shot commands).
	Admission Admission
	// HubDegree is the degree past which the compiled read pages an
	// entity's relations from the :RelationId registry instead of
	// expanding it (0: DefaultHubDegree). The access matrix sets it low,
	// so that its small fixture is read both ways.
	HubDegree int
}

// DefaultPathTimeout is the path budget `casegraph serve` gives a store
// unless told otherwise (CASEGRAPH_PATH_TIMEOUT).
const DefaultPathTimeout = 10 * time.Second

// Store runs Casegraph's statements against Neo4j.
type Store struct {
	driver      neo4j.DriverWithContext
	database    string
	observer    Observer
	tracer      trace.Tracer
	statements  map[statement]string
	pathTimeout time.Duration
	roundTrips  atomic.Int64
	reads       *readStatements
	commands    *commandStatements
	named       *paramNames // the parameters each text names
	admission   Admission
	hubDegree   int
	light       pool              // statements other than heavy ones (nil: no bound)
	heavy       pool              // path and full-text searches (nil: no bound)
	hooks       commitHooks       // called after each write commits (OnCommit)
	duplicates  *duplicate.Finder // duplicate suggestions, over the store
}

// NewStore returns a Store over driver. It reads every embedded statement
// up front, so a missing or empty one fails at start-up, not mid-request.
func NewStore(driver neo4j.DriverWithContext, opts Options) (*Store, error) {
	statements, err := loadStatements()
	if err != nil {
		return nil, err
	}
	if opts.Database == "" {
		opts.Database = "neo4j"
	}
	if err := opts.Admission.Validate(); err != nil {
		return nil, err
	}
	if opts.HubDegree < 0 {
		return nil, fmt.Errorf("hub degree %d: must be 0 (the default) or more", opts.HubDegree)
	}
	if opts.HubDegree == 0 {
		opts.HubDegree = DefaultHubDegree
	}
	s := &Store{
		driver:      driver,
		database:    opts.Database,
		observer:    opts.Observer,
		tracer:      opts.Tracer,
		statements:  statements,
		pathTimeout: opts.PathTimeout,
		reads:       newReadStatements(),
		commands:    newCommandStatements(),
		named:       &paramNames{byText: map[string]map[string]bool{}},
		admission:   opts.Admission,
		hubDegree:   opts.HubDegree,
		light:       newPool(opts.Admission.Statements),
		heavy:       newPool(opts.Admission.Heavy),
	}
	s.duplicates = duplicate.NewFinder(duplicateGraph{s})
	return s, nil
}

// RoundTrips returns how many statements this Store has sent to Neo4j.
func (s *Store) RoundTrips() int64 {
	return s.roundTrips.Load()
}

// DriverConfig returns the driver settings Casegraph relies on: a dead
// database must answer DATABASE_UNAVAILABLE within seconds, not after the
// driver's 30-second defaults, and retries must end before a request's
// deadline does.
func DriverConfig(c *config.Config) {
	c.SocketConnectTimeout = 2 * time.Second
	c.ConnectionAcquisitionTimeout = 2 * time.Second
	c.MaxTransactionRetryTime = retryTime
	c.MaxConnectionPoolSize = maxConnectionPool
	c.ConnectionLivenessCheckTimeout = 30 * time.Second
}

// maxConnectionPool is the driver's pool size (DriverConfig).
const maxConnectionPool = 100

// ProbeDriverConfig is DriverConfig for the readiness probe's own driver:
// one connection, so that it costs the database next to nothing.
func ProbeDriverConfig(c *config.Config) {
	DriverConfig(c)
	c.MaxConnectionPoolSize = 1
}

// read runs the named statement in a read transaction, routed to a reader.
func (s *Store) read(ctx context.Context, name statement, params map[string]any) (*neo4j.EagerResult, error) {
	return s.executeText(ctx, name, s.statement(name), params, neo4j.AccessModeRead)
}

// readHeavy is read for a statement whose cost grows with the graph (path
// and full-text searches): it runs in the heavy pool (see Admission).
func (s *Store) readHeavy(ctx context.Context, name statement, params map[string]any) (*neo4j.EagerResult, error) {
	return s.execute(ctx, heavy, name, s.statement(name), params, neo4j.AccessModeRead)
}

// write runs the named statement in a write transaction.
func (s *Store) write(ctx context.Context, name statement, params map[string]any) (*neo4j.EagerResult, error) {
	return s.executeText(ctx, name, s.statement(name), params, neo4j.AccessModeWrite)
}

// executeText runs a statement (named for metrics and errors) in its own
// transaction.
func (s *Store) executeText(ctx context.Context, name statement, text string, params map[string]any, mode neo4j.AccessMode) (*neo4j.EagerResult, error) {
	return s.execute(ctx, light, name, text, params, mode)
}

// execute is executeText in the pool of weight w.
func (s *Store) execute(ctx context.Context, w weight, name statement, text string, params map[string]any, mode neo4j.AccessMode) (*neo4j.EagerResult, error) {
	if _, err := casegraph.Caller(ctx); err != nil {
		return nil, err
	}
	release, err := s.admit(ctx, w)
	if err != nil {
		return nil, err
	}
	defer release()
	params = s.named.only(text, withScope(ctx, params))
	done := s.roundTrip(ctx, string(name))
	var res *neo4j.EagerResult
	if mode == neo4j.AccessModeRead {
		res, err = s.runRead(ctx, text, params)
	} else {
		res, err = neo4j.ExecuteQuery(ctx, s.driver, text, params, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithWritersRouting(),
			neo4j.ExecuteQueryWithTransactionConfig(txTimeout(ctx)))
	}
	done(err)
	if err != nil {
		return nil, mapError(ctx, string(name), err)
	}
	return res, nil
}

// retryTime is how long a statement is tried again after failures the
// driver calls retryable (a connection lost, a database restarting):
// the driver's own budget for writes (DriverConfig), runRead's for reads.
const retryTime = time.Second

// runRead runs a read statement as an auto-commit transaction, retried as
// the driver retries a transaction function: a read is one statement and
// changes nothing, so it needs no transaction of its own making, and its
// RUN and PULL go in one flight where a transaction function's BEGIN, RUN
// and PULL wait for a COMMIT after them (about a third of an entity read's
// time, bench/README.md). The session shares the driver's bookmarks with
// ExecuteQuery's writes, so that a read routed to another member of a
// cluster still sees what this process wrote before it.
func (s *Store) runRead(ctx context.Context, text string, params map[string]any) (*neo4j.EagerResult, error) {
	var res *neo4j.EagerResult
	err := Retry(ctx, retryTime, func() (err error) {
		res, err = s.runReadOnce(ctx, text, params)
		return err
	})
	return res, err
}

func (s *Store) runReadOnce(ctx context.Context, text string, params map[string]any) (*neo4j.EagerResult, error) {
	session := s.driver.NewSession(ctx, neo4j.SessionConfig{
		DatabaseName:    s.database,
		AccessMode:      neo4j.AccessModeRead,
		BookmarkManager: s.driver.ExecuteQueryBookmarkManager(),
	})
	defer session.Close(ctx)
	result, err := session.Run(ctx, text, params, txTimeout(ctx))
	if err != nil {
		return nil, err
	}
	records, err := result.Collect(ctx)
	if err != nil {
		return nil, err
	}
	summary, err := result.Consume(ctx)
	if err != nil {
		return nil, err
	}
	keys, err := result.Keys()
	if err != nil {
		return nil, err
	}
	return &neo4j.EagerResult{Keys: keys, Records: records, Summary: summary}, nil
}

// withScope adds to a statement's parameters the caller's scope, which
// every statement that reads the graph applies inside its match (the
// "readable" and "visibleQuery" definitions of statements/shared.tmpl):
// $readable, the datasets the caller may read, and $readAll, whether it
// may read every one;
// $callerCleared, whether it may see protected people (the entity and relation
// projections redact them when not); $caller, who the caller is;
// $callerIsAdmin, whether it may see everything.
func withScope(ctx context.Context, params map[string]any) map[string]any {
	p, _ := casegraph.PrincipalFrom(ctx)
	params = scopeParams(casegraph.ScopeFrom(ctx), params)
	params["caller"], params["callerIsAdmin"] = p.ID, p.IsAdmin()
	return params
}

// session opens a session for a transaction of the Store's own making
// (an import's, an export's, a write's): the one way to the database
// besides execute, and like it refused without a principal in ctx.
func (s *Store) session(ctx context.Context, mode neo4j.AccessMode) (neo4j.SessionWithContext, error) {
	if _, err := casegraph.Caller(ctx); err != nil {
		return nil, err
	}
	return s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.database, AccessMode: mode}), nil
}

// scopeParams sets $readable and $callerCleared for the scope, and $caller and
// $callerIsAdmin as the operator's (withScope sets the request's).
func scopeParams(scope casegraph.Scope, params map[string]any) map[string]any {
	if params == nil {
		params = map[string]any{}
	}
	params["caller"], params["callerIsAdmin"] = casegraph.OperatorID, true
	params["callerCleared"] = scope.Cleared
	// A list for every caller, of one length class (planList), and
	// whether it may read every dataset beside it, not null for those who
	// may: null is another type to Neo4j, and each statement was planned
	// once for callers who may read every dataset and once again for
	// those limited to some (0.4 to 0.8 s for a depth-2 read). A scope of
	// no datasets reads nothing, not everything.
	params["readAll"] = !scope.Limited
	params["readable"] = planList(nil)
	if scope.Limited {
		params["readable"] = planList(scope.Datasets)
	}
	return params
}

// paramNames keeps, for each statement text sent, the parameters it
// names ($name), so that a statement is sent those alone. Neo4j keeps a
// plan by the text and the types of every parameter sent, used or not,
// strings and lists with the class of their length (planListLength): the
// scope's $caller, which most statements do not use, was "anonymous" for
// one caller and a key's id for another, and each waited for a plan of
// its own (measured 40-80 ms for a compiled read, more for others).
type paramNames struct {
	mu     sync.Mutex
	byText map[string]map[string]bool
}

// maxParamTexts bounds the texts paramNames keeps (the named statements,
// maxReadShapes and maxCommandShapes fit); past it, a text's names are
// found again on each use (microseconds).
const maxParamTexts = 4000

// only is a copy of params without those text does not name (the
// caller's map is left as it was: some send it again with another
// statement).
func (p *paramNames) only(text string, params map[string]any) map[string]any {
	p.mu.Lock()
	named, ok := p.byText[text]
	p.mu.Unlock()
	if !ok {
		named = map[string]bool{}
		for _, m := range paramName.FindAllStringSubmatch(text, -1) {
			named[m[1]] = true
		}
		p.mu.Lock()
		if len(p.byText) < maxParamTexts {
			p.byText[text] = named
		}
		p.mu.Unlock()
	}
	out := make(map[string]any, len(named))
	for k, v := range params {
		if named[k] {
			out[k] = v
		}
	}
	return out
}

// paramName finds the parameters a statement names: $name, or $`name`.
var paramName = regexp.MustCompile("\\$`?([A-Za-z_][A-Za-z0-9_]*)")

// planListLength is the least length of the lists of names that most
// statements take and whose length varies from one request to the next
// (the caller's datasets, $readable; the ids of a compiled read; the
// properties it shows). Neo4j keeps a plan by the statement's text and its
// parameters' types, and a list's type holds the class of its length: 0,
// 1, 2 to 10, 11 to 100, over 100 (measured on 5.26: bench/README.md,
// "Cold start"), so a reader of one dataset and a reader of two, or
// entity(id) and ten entities batched, each waited for a plan of their own
// (0.1 to 1 s). Made at least this long (planList), the lists of up to 100
// names all fall in one class, and share one plan.
const planListLength = 11

// planList is list made planListLength long, if shorter, with planPad.
func planList(list []string) []string {
	out := make([]string, len(list), max(len(list), planListLength))
	copy(out, list)
	for len(out) < planListLength {
		out = append(out, planPad)
	}
	return out
}

// planPad is what planList adds: no dataset, entity, or property is named
// so, nor can be (casegraph.ValidateID allows no parenthesis). Not "",
// which some records hold: an audit record of no dataset has the
// dataset "" (and a caller limited to datasets would have read it).
const planPad = "(none)"

// txTimeout hands the request's remaining time to Neo4j, so the server stops
// working on a statement whose client has stopped waiting for it.
func txTimeout(ctx context.Context) func(*neo4j.TransactionConfig) {
	return neo4j.WithTxTimeout(remaining(ctx))
}

// remaining is the time left before ctx's deadline; zero (the server's
// default timeout) when ctx has none.
func remaining(ctx context.Context) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	left := time.Until(deadline)
	if left < time.Millisecond {
		// Zero would mean "the server's default"; ask for the least instead.
		left = time.Millisecond
	}
	return left
}

// runSchema runs one schema statement in its own write transaction (Neo4j
// does not mix schema and data changes in one transaction).
func (s *Store) runSchema(ctx context.Context, m Migration) (created bool, err error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return false, err
	}
	err = retryOperator(ctx, "migrate "+m.Name, func() error {
		done := s.roundTrip(ctx, "migrate:"+m.Name)
		res, err := neo4j.ExecuteQuery(ctx, s.driver, m.Statement, nil, neo4j.EagerResultTransformer,
			neo4j.ExecuteQueryWithDatabase(s.database), neo4j.ExecuteQueryWithWritersRouting())
		done(err)
		if err == nil {
			// IF NOT EXISTS over an existing index or constraint updates nothing.
			c := res.Summary.Counters()
			created = c.IndexesAdded()+c.ConstraintsAdded() > 0
		} else if alreadyExists(err) {
			// IF NOT EXISTS raced another process's creation, and lost.
			return nil
		}
		return err
	})
	return created, err
}

// operatorRetryBudget bounds the retries of an operator's statement
// (schema changes, data migrations, deleting a dataset): processes that
// migrate at once (replicas starting together, test packages on a fresh
// database) or a migration beside the writes of a running service
// deadlock on their locks now and then, and Neo4j says so with a
// retryable error. These are rare and not urgent, so they get a longer
// budget than requests (writeRetryBudget).
const operatorRetryBudget = 30 * time.Second

// retryOperator runs attempt until it succeeds, fails with an error a
// retry would meet again, or operatorRetryBudget (or ctx) runs out; the
// error returned is the last attempt's, mapped for the statement named.
// Only statements that do what is left to do may be retried this way (IF
// NOT EXISTS schema, a migration that converts what is still in its old
// form, a delete in batches): a batch of CALL ... IN TRANSACTIONS that
// committed before the failure stays, and the retry does the rest.
func retryOperator(ctx context.Context, name string, attempt func() error) error {
	err := Retry(ctx, operatorRetryBudget, attempt)
	var coded *casegraph.Error
	if err == nil || errors.As(err, &coded) { // refused before the database: no caller
		return err
	}
	return mapError(ctx, name, err)
}

// Retry runs attempt until it succeeds, fails in a way a retry cannot
// mend (a coded refusal, or an error that is not retryable), or the next
// try would start after budget, backing off from 50 ms (doubled each
// time, at most 2 s); it returns the last attempt's error, or ctx's when
// ctx ends while it waits.
func Retry(ctx context.Context, budget time.Duration, attempt func() error) error {
	start := time.Now()
	for backoff := 50 * time.Millisecond; ; backoff = min(2*backoff, 2*time.Second) {
		err := attempt()
		var coded *casegraph.Error
		if err == nil || errors.As(err, &coded) || !retryable(err) || time.Since(start)+backoff > budget {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}

// retryable reports an error that a retry may not meet, also when the
// driver has already given up retrying it within its own budget.
func retryable(err error) bool {
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) && len(limit.Errors) > 0 {
		err = limit.Errors[len(limit.Errors)-1]
	}
	return neo4j.IsRetryable(err)
}

// alreadyExists reports Neo4j's refusal to create an index or constraint
// that another transaction has just created.
func alreadyExists(err error) bool {
	var limit *neo4j.TransactionExecutionLimit
	if errors.As(err, &limit) && len(limit.Errors) > 0 {
		err = limit.Errors[len(limit.Errors)-1]
	}
	var dbErr *neo4j.Neo4jError
	if !errors.As(err, &dbErr) {
		return false
	}
	switch dbErr.Code {
	case "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
		"Neo.ClientError.Schema.IndexAlreadyExists",
		"Neo.ClientError.Schema.ConstraintAlreadyExists":
		return true
	}
	return false
}

// txRunner runs named statements inside one transaction.
type txRunner func(name statement, params map[string]any) ([]*neo4j.Record, error)

// inWrite runs fn in one write transaction: everything it runs commits
// together or not at all. fn may be run again when an attempt failed
// before its commit, so it must do nothing but run statements. Its error
// says whether the write may have happened (see transact, in write.go).
func (s *Store) inWrite(ctx context.Context, name string, fn func(run txRunner) error) error {
	release, err := s.admit(ctx, light)
	if err != nil {
		return err
	}
	defer release()
	return s.transact(ctx, name, fn)
}

// roundTrip counts one statement sent to Neo4j, and traces it within the
// request of ctx; call the function it returns with the statement's error
// when it has finished.
func (s *Store) roundTrip(ctx context.Context, name string) func(error) {
	start := time.Now()
	s.roundTrips.Add(1)
	span := s.statementSpan(ctx, name)
	return func(err error) {
		endStatementSpan(span, err)
		if s.observer != nil {
			s.observer.ObserveStatement(name, time.Since(start), err)
		}
	}
}

const stmtProbeWrite statement = "ProbeWrite"

// storeUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func storeUngated() ungated {
	return ungated{
		stmtProbeWrite: "readiness's write of its own node, the operator's, no graph data",
	}
}

// ProbeWrite commits a small write (ProbeWrite.cypher), within ctx:
// readiness asks it, so that the server is ready only when writes succeed.
func (s *Store) ProbeWrite(ctx context.Context) error {
	_, err := s.write(ctx, stmtProbeWrite, nil)
	return err
}

// Ping checks that Neo4j answers, within ctx.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.driver.VerifyConnectivity(ctx); err != nil {
		return mapError(ctx, "ping", err)
	}
	return nil
}
