// Package loaders batches the reads of one request: every entity, source
// and relation page that the resolvers of one level ask for goes to Neo4j
// in one round trip. A new set of loaders is made for each request (never
// shared between users), and it caches what it has read for that request
// only.
package loaders

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vikstrous/dataloadgen"

	casegraph "github.com/casegraph/casegraph"
)

// Store is what the loaders read from; *cypher.Store has it.
type Store interface {
	EntitiesByID(ctx context.Context, ids []string) (map[string]casegraph.Entity, error)
	SourcesByID(ctx context.Context, ids []string) (map[string]casegraph.Source, error)
	RelationsOf(ctx context.Context, ids []string, f casegraph.RelationFilter, page casegraph.Page) (map[string]casegraph.RelationPage, error)
	// WithRequestSlots bounds how many statements the request may run at
	// once (the store's admission control); it is called once a request.
	WithRequestSlots(ctx context.Context) context.Context
}

// RelationsKey asks for one page of one entity's relations. Keys that
// differ only in EntityID are loaded in one round trip.
type RelationsKey struct {
	EntityID  string
	Types     string // the types, sorted and joined by commas; "" for all
	Direction casegraph.Direction
	First     int
	After     string
	Backward  bool
}

// NewRelationsKey builds a key; the order of types does not matter.
func NewRelationsKey(entityID string, f casegraph.RelationFilter, page casegraph.Page) RelationsKey {
	types := make([]string, len(f.Types))
	for i, t := range f.Types {
		types[i] = string(t)
	}
	slices.Sort(types)
	types = slices.Compact(types)
	return RelationsKey{EntityID: entityID, Types: strings.Join(types, ","), Direction: f.Direction, First: page.First, After: page.After, Backward: page.Backward}
}

func (k RelationsKey) filter() (casegraph.RelationFilter, casegraph.Page) {
	f := casegraph.RelationFilter{Direction: k.Direction}
	if k.Types != "" {
		for _, t := range strings.Split(k.Types, ",") {
			f.Types = append(f.Types, casegraph.RelationType(t))
		}
	}
	return f, casegraph.Page{First: k.First, After: k.After, Backward: k.Backward}
}

// Loaders are one request's batch loaders. Resolvers reach them through
// this package's functions (Entity, Sources, Relations, ...), which take
// the request's context, so that the batching library's types and errors
// stay in this package.
type Loaders struct {
	entity    *dataloadgen.Loader[string, casegraph.Entity]
	source    *dataloadgen.Loader[string, casegraph.Source]
	relations *dataloadgen.Loader[RelationsKey, casegraph.RelationPage]
	// reads runs each compiled read of the request once.
	reads *reads

	store   Store
	batches BatchObserver
	// fetches counts the batches the loaders have sent (Fetches).
	fetches atomic.Int64
}

// BatchObserver is told the size of every batch a loader sends: how many
// keys one round trip carries. The server's metrics implement it.
type BatchObserver interface {
	ObserveBatch(loader string, keys int)
}

// Fresh returns a new, empty set of loaders over the same store: for an
// operation run inside another (a saved query's run), whose compiled reads
// hold what its own fields show.
func (l *Loaders) Fresh() *Loaders {
	return newLoaders(l.store, l.batches)
}

// reads runs each of a request's compiled reads once, however many
// resolvers need its result: the aliased root fields of one operation
// (ten `entity(id:)` fields, say) share one statement, formed from the
// document rather than from a time window, so the batch is the same on a
// busy machine as on an idle one.
type reads struct {
	mu   sync.Mutex
	runs map[any]*readRun
}

type readRun struct {
	once sync.Once
	res  casegraph.ReadResult
	err  error
}

// do returns the result of the read named key, running run for it the
// first time it is asked for; key is any comparable value.
func (r *reads) do(key any, run func() (casegraph.ReadResult, error)) (casegraph.ReadResult, error) {
	r.mu.Lock()
	if r.runs == nil {
		r.runs = map[any]*readRun{}
	}
	x, ok := r.runs[key]
	if !ok {
		x = &readRun{}
		r.runs[key] = x
	}
	r.mu.Unlock()
	x.once.Do(func() { x.res, x.err = run() })
	return x.res, x.err
}

// wait is how long a loader gathers keys before it sends them. gqlgen
// resolves the fields of a list's items concurrently, so one level of an
// operation arrives within it; it is what each level costs at most in latency.
// Measured side by side (BenchmarkNestedDepth2): 300µs split levels into
// more round trips and was slower; 2ms added latency to every level.
const wait = time.Millisecond

// New returns a fresh set of loaders over the store.
func New(store Store) *Loaders {
	return newLoaders(store, nil)
}

// newLoaders is New, telling batches (when not nil) each batch's size.
func newLoaders(store Store, batches BatchObserver) *Loaders {
	l := &Loaders{reads: &reads{}, store: store, batches: batches}
	l.entity = dataloadgen.NewMappedLoader(observed(l, "entity", store.EntitiesByID), dataloadgen.WithWait(wait))
	l.source = dataloadgen.NewMappedLoader(observed(l, "source", store.SourcesByID), dataloadgen.WithWait(wait))
	l.relations = dataloadgen.NewMappedLoader(observed(l, "relations", func(ctx context.Context, keys []RelationsKey) (map[RelationsKey]casegraph.RelationPage, error) {
		return relationPages(ctx, store, keys)
	}), dataloadgen.WithWait(wait))
	return l
}

// observed is fetch, counted (Fetches), telling l's batches (when not
// nil) how many keys each call carries.
func observed[K comparable, V any](l *Loaders, loader string, fetch func(context.Context, []K) (map[K]V, error)) func(context.Context, []K) (map[K]V, error) {
	return func(ctx context.Context, keys []K) (map[K]V, error) {
		l.fetches.Add(1)
		if l.batches != nil {
			l.batches.ObserveBatch(loader, len(keys))
		}
		return fetch(ctx, keys)
	}
}

// Fetches returns the count of the batches the request's loaders have
// sent (what was not in hand), read as it goes: always 0 for a context
// without loaders. graph/marshal watches it to tell a list whose data a
// compiled read brought from one the loaders read, element by element;
// the loaders are looked up once, not at every read (a context of gqlgen's
// is many values deep).
func Fetches(ctx context.Context) func() int64 {
	if l, ok := From(ctx); ok {
		return l.fetches.Load
	}
	return func() int64 { return 0 }
}

// relationPages loads the pages of several keys: one round trip for each
// distinct filter, usually one in all.
func relationPages(ctx context.Context, store Store, keys []RelationsKey) (map[RelationsKey]casegraph.RelationPage, error) {
	groups := map[RelationsKey][]string{} // key with EntityID "" -> entity ids
	for _, k := range keys {
		g := k
		g.EntityID = ""
		groups[g] = append(groups[g], k.EntityID)
	}
	out := make(map[RelationsKey]casegraph.RelationPage, len(keys))
	for g, ids := range groups {
		f, page := g.filter()
		pages, err := store.RelationsOf(ctx, ids, f, page)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			k := g
			k.EntityID = id
			out[k] = pages[id] // an entity without relations has an empty page
		}
	}
	return out, nil
}

// hold keeps what one compiled read returned, so that the resolvers under
// the field that ran it find everything in the request's cache and send
// nothing more to Neo4j. A page counted without its total is not held
// where a counted one is wanted: the compiled read asks for totals
// everywhere a window's total is selected anywhere (graph.entityRead).
func (l *Loaders) hold(r casegraph.ReadResult) {
	for key, e := range r.Roots {
		l.entity.Prime(key, e)
	}
	for _, p := range r.Pages {
		l.relations.Prime(NewRelationsKey(p.EntityID, p.Filter, p.Page), p.Result)
	}
	l.prime(r.Entities, r.Sources)
}

func (l *Loaders) prime(entities []casegraph.Entity, sources []casegraph.Source) {
	for _, e := range entities {
		l.entity.Prime(e.ID, e)
	}
	for _, s := range sources {
		l.source.Prime(s.ID, s)
	}
}

type ctxKey struct{}

// With returns ctx carrying the loaders.
func With(ctx context.Context, l *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From returns the request's loaders, if it has any.
func From(ctx context.Context) (*Loaders, bool) {
	l, ok := ctx.Value(ctxKey{}).(*Loaders)
	return l, ok
}

// forRequest returns the request's loaders. It panics when the request did
// not go through Middleware: that is a wiring bug, found by the first test.
func forRequest(ctx context.Context) *Loaders {
	l, ok := ctx.Value(ctxKey{}).(*Loaders)
	if !ok {
		panic("loaders: no loaders in the context; wrap the handler with loaders.Middleware")
	}
	return l
}

// Middleware gives every request a fresh set of loaders, and its bound of
// statements at once; batches, when not nil, is told each batch's size.
func Middleware(store Store, batches BatchObserver, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := store.WithRequestSlots(r.Context())
		next.ServeHTTP(w, r.WithContext(With(ctx, newLoaders(store, batches))))
	})
}
