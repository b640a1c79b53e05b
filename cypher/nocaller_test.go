package cypher_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// notData are the Store's methods that take a context and reach Neo4j
// without reading or writing the graph for anyone, so they need no
// principal. Each says why; nothing else may join them.
var notData = map[string]string{
	"Ping": "asks the driver whether Neo4j answers (VerifyConnectivity): no statement, no data",
	// Helpers that export_test.go gives this package's tests only.
	"Explain": "test only", "ExplainRead": "test only", "ExplainEntities": "test only", "ExplainList": "test only", "Profile": "test only", "ReadEntitiesDBHits": "test only",
	"RunTestStatement": "test only", "HoldHeavy": "test only",
	"ProfileText": "test only", "ProfileWhoWasInCommand": "test only", "TimeWhoWasInCommand": "test only",
	"CitingDatasets": "test only", "ForgetCitingDatasets": "test only", "CitingClaimsDBHits": "test only",
}

// TestNoPrincipalNoAccess calls every exported method of the Store that
// takes a context with one that carries no principal, and expects each to
// refuse before Neo4j is asked anything: the Store's driver points at a
// port where nothing listens, so a method that reached it would answer
// DATABASE_UNAVAILABLE and count a round trip. A method added later is
// called too: the list comes from the type, not from this file.
func TestNoPrincipalNoAccess(t *testing.T) {
	driver, err := neo4j.NewDriverWithContext("bolt://127.0.0.1:1", neo4j.NoAuth(), cypher.DriverConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer driver.Close(context.Background())
	store, err := cypher.NewStore(driver, cypher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	v := reflect.ValueOf(store)
	called := 0
	for i := range v.NumMethod() {
		m := v.Type().Method(i)
		ft := m.Type // receiver first
		if ft.NumIn() < 2 || ft.In(1) != ctxType || ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errType {
			continue
		}
		if _, ok := notData[m.Name]; ok {
			continue
		}
		called++
		t.Run(m.Name, func(t *testing.T) {
			before := store.RoundTrips()
			args := []reflect.Value{reflect.ValueOf(context.Background())}
			for j := 2; j < ft.NumIn(); j++ {
				args = append(args, plausible(ft.In(j)))
			}
			out := func() (out []reflect.Value) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panicked without a principal: %v", r)
					}
				}()
				return v.Method(i).Call(args)
			}()
			err, _ := out[len(out)-1].Interface().(error)
			// FORBIDDEN, or NOT_FOUND where what the caller may not read
			// is answered as what does not exist.
			if code := casegraph.ErrorCode(err); code != casegraph.CodeForbidden && code != casegraph.CodeNotFound {
				t.Errorf("without a principal: %v (code %q), want FORBIDDEN or NOT_FOUND", err, code)
			}
			if n := store.RoundTrips() - before; n != 0 {
				t.Errorf("without a principal: %d round trips to Neo4j, want none", n)
			}
		})
	}
	if called < 50 {
		t.Errorf("called %d methods of the Store; it has more than 50 that take a context", called)
	}
}

// plausible is an argument that passes a method's checks of its input as
// far as they can be passed without knowing the method: an id, a name, a
// list of one, a struct with its zero value (a pointer to one, never nil).
func plausible(t reflect.Type) reflect.Value {
	switch t {
	case reflect.TypeFor[casegraph.PathFilter]():
		f := casegraph.DefaultPathFilter()
		if err := f.Normalize(); err != nil {
			panic(err)
		}
		return reflect.ValueOf(f)
	case reflect.TypeFor[casegraph.EntityOrder]():
		return reflect.ValueOf(casegraph.EntityOrder{Field: casegraph.OrderByName})
	// The requests, as the GraphQL layer passes them: with their defaults,
	// normalized.
	case reflect.TypeFor[casegraph.EntitiesRequest]():
		q := casegraph.NewEntitiesRequest()
		q.Order.Field = casegraph.OrderByName
		return reflect.ValueOf(q)
	case reflect.TypeFor[casegraph.PathRequest]():
		return normalized(casegraph.NewPathRequest("x", "y"))
	case reflect.TypeFor[casegraph.NeighborhoodRequest]():
		return normalized(casegraph.NewNeighborhoodRequest("x"))
	case reflect.TypeFor[casegraph.ConnectionsRequest]():
		return normalized(casegraph.NewConnectionsRequest([]string{"x", "y"}))
	case reflect.TypeFor[casegraph.CommonNeighborsRequest]():
		return normalized(casegraph.NewCommonNeighborsRequest([]string{"x", "y"}))
	case reflect.TypeFor[casegraph.SearchRequest]():
		return normalized(casegraph.SearchRequest{Text: "xx"})
	case reflect.TypeFor[casegraph.SuggestRequest]():
		return normalized(casegraph.NewSuggestRequest("xx"))
	case reflect.TypeFor[casegraph.TimelineRequest]():
		return reflect.ValueOf(casegraph.TimelineRequest{ID: "x"})
	case reflect.TypeFor[casegraph.CommandChainRequest]():
		return reflect.ValueOf(casegraph.NewCommandChainRequest("x", casegraph.MustPartialDate("2012")))
	case reflect.TypeFor[casegraph.WhoWasInCommandRequest]():
		return reflect.ValueOf(casegraph.NewWhoWasInCommandRequest("x"))
	case reflect.TypeFor[casegraph.Relation]():
		return reflect.ValueOf(casegraph.Relation{ID: "x", Type: casegraph.RelationTypes()[0], FromID: "x", ToID: "y", Dataset: "x", SourceIDs: []string{"x"}})
	}
	switch t.Kind() {
	case reflect.String:
		return reflect.ValueOf("x").Convert(t)
	case reflect.Int, reflect.Int64:
		return reflect.ValueOf(int64(1)).Convert(t)
	case reflect.Slice:
		s := reflect.MakeSlice(t, 1, 1)
		s.Index(0).Set(plausible(t.Elem()))
		return s
	case reflect.Pointer:
		return reflect.New(t.Elem())
	default:
		return reflect.Zero(t)
	}
}

// normalized is a request after its Normalize, which must accept it.
func normalized[Q any, P interface {
	*Q
	Normalize() error
}](q Q) reflect.Value {
	if err := P(&q).Normalize(); err != nil {
		panic(err)
	}
	return reflect.ValueOf(q)
}
