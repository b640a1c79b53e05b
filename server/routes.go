package server

import (
	"net/http"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/loaders"
)

// Every route is declared once, in routes, with what it needs of its
// caller, and composed by one helper (compose): observation (request id,
// log line, metrics, trace) and a deadline, CORS for the routes browser
// apps call, a bound on the body, authentication and the role it needs,
// in that order, before its handler. A route cannot forget one of them or
// have them in another order, and the tests walk the table (Routes): a
// route that needs credentials is refused without them, one that needs a
// role is refused to others before its handler runs, and a route that
// needs nothing is one the tests know to be public.

// Need is what a route needs of its caller before its handler runs.
type Need string

// The needs, from least to most.
const (
	// NeedNothing: probes, scrapers and the web UI's files, which hold no
	// data; no credentials are asked for.
	NeedNothing Need = "nothing"
	// NeedPrincipal: a caller signed in, or an anonymous one where
	// anonymous reads are allowed; what it reads is scoped to it.
	NeedPrincipal Need = "principal"
	// NeedEditor: a principal that may write (an editor or an admin); the
	// handler checks the datasets.
	NeedEditor Need = "editor"
	// NeedAdmin: an admin.
	NeedAdmin Need = "admin"
)

// Route is one route of the table, as tests and the access matrix see it.
type Route struct {
	Method  string
	Pattern string // as http.ServeMux takes it, after the method
	Need    Need
}

// route is an entry of the table with what compose needs of it.
type route struct {
	Route
	// name is the route's label in metrics, logs and traces.
	name string
	// browser: browser apps call it from their own origin, so CORS
	// applies (when origins are configured).
	browser bool
	// transfer: it moves a dataset's file, so its deadline is
	// TransferTimeout, its body bound MaxImportBytes.
	transfer bool
	// stream, when set, serves the route's WebSocket upgrades: they sign
	// in with their connection_init (or the upgrade's header), outside
	// CORS.
	stream  http.Handler
	handler http.Handler
}

// routes is the route table: every route the server serves, once.
func (s *Server) routes(gql, saved http.Handler) []route {
	cfg := s.cfg
	data := func(h http.HandlerFunc) http.Handler { return loaders.Middleware(s.store, s.metrics, h) }
	rs := []route{
		{Route: Route{"POST", "/graphql", NeedPrincipal}, name: "/graphql", browser: true,
			handler: idempotencyKey(s.limitBody(gql))},
		{Route: Route{"GET", "/graphql", NeedPrincipal}, name: "/graphql", browser: true,
			handler: checkURL(true, revalidate(documentIDInURL(gql))), stream: gql},
		{Route: Route{"GET", "/healthz", NeedNothing}, name: "/healthz", handler: http.HandlerFunc(s.healthz)},
		{Route: Route{"GET", "/readyz", NeedNothing}, name: "/readyz", handler: http.HandlerFunc(s.readyz)},
		{Route: Route{"GET", "/queries/{name}", NeedPrincipal}, name: "/queries", browser: true,
			handler: checkURL(false, revalidate(saved))},
		{Route: Route{"POST", "/queries/{name}", NeedPrincipal}, name: "/queries", browser: true,
			handler: checkURL(false, saved)},
		{Route: Route{"POST", "/datasets/{name}/import", NeedEditor}, name: "/datasets/import", browser: true, transfer: true,
			handler: checkURL(false, data(s.importDataset))},
		{Route: Route{"GET", "/datasets/{name}/export", NeedPrincipal}, name: "/datasets/export", browser: true, transfer: true,
			handler: checkURL(false, data(s.exportDataset))},
	}
	if len(cfg.CORSOrigins) > 0 {
		// Without an allow-list OPTIONS stays unrouted (405), as no
		// preflight can succeed. A preflight carries no credentials.
		rs = append(rs,
			route{Route: Route{"OPTIONS", "/graphql", NeedNothing}, name: "/graphql", browser: true, handler: http.HandlerFunc(optionsAllowed)},
			route{Route: Route{"OPTIONS", "/queries/{name}", NeedNothing}, name: "/queries", browser: true, handler: http.HandlerFunc(optionsAllowed)})
	}
	if cfg.MetricsAddr == "" {
		rs = append(rs, s.metricsRoute())
	}
	if cfg.Web {
		rs = append(rs,
			route{Route: Route{"GET", "/{$}", NeedNothing}, name: "/", handler: page("index.html")},
			route{Route: Route{"GET", "/graphiql", NeedNothing}, name: "/graphiql", handler: page("graphiql.html")},
			route{Route: Route{"GET", "/assets/{file}", NeedNothing}, name: "/assets", handler: assets()})
	}
	return rs
}

// metricsRoute serves /metrics, on the API's listener or on its own.
func (s *Server) metricsRoute() route {
	return route{Route: Route{"GET", "/metrics", NeedNothing}, name: "/metrics", handler: s.metrics.Handler()}
}

// Routes lists the route table: each route's method, pattern and need.
func (s *Server) Routes() []Route {
	out := make([]Route, len(s.table))
	for i, rt := range s.table {
		out[i] = rt.Route
	}
	return out
}

// mux routes the table's routes, each composed.
func (s *Server) mux(table []route) http.Handler {
	mux := http.NewServeMux()
	for _, rt := range table {
		mux.Handle(rt.Method+" "+rt.Pattern, s.compose(rt))
	}
	return routeErrors(mux, s.observe)
}

// compose wraps a route's handler in what its entry says, the same way
// for every route.
func (s *Server) compose(rt route) http.Handler {
	h := rt.handler
	if rt.Need != NeedNothing {
		h = s.authenticate(requireRole(rt.Need, h))
	}
	limit := s.cfg.MaxBodyBytes
	if rt.transfer {
		limit = s.cfg.MaxImportBytes
	}
	h = limitedBody(limit, h)
	if rt.browser {
		h = s.cors(h)
	}
	if rt.stream != nil {
		plain, upgrade := h, s.authenticateStream(rt.stream)
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isStream(r) {
				upgrade.ServeHTTP(w, r)
				return
			}
			plain.ServeHTTP(w, r)
		})
	}
	timeout := s.cfg.RequestTimeout
	if rt.transfer {
		// The server's timeouts are a GraphQL request's: an upload or a download
		// of a file gets as long as its deadline.
		timeout = s.cfg.TransferTimeout
	}
	return s.observeWithin(rt.name, timeout, h)
}

// limitedBody bounds a request's body at limit bytes: reading past it
// fails with *http.MaxBytesError (413 where a handler reads it), and the
// connection is closed after the answer.
func limitedBody(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// requireRole refuses (FORBIDDEN) a principal without the role need asks
// for, before the handler reads the body or asks the database anything.
func requireRole(need Need, next http.Handler) http.Handler {
	check := map[Need]func(p casegraph.Principal) error{
		NeedEditor: casegraph.Principal.MayWrite,
		NeedAdmin: func(p casegraph.Principal) error {
			if !p.IsAdmin() {
				return casegraph.Errorf(casegraph.CodeForbidden, "only an admin may do this")
			}
			return nil
		},
	}[need]
	if check == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := casegraph.Caller(r.Context())
		if err == nil {
			err = check(p)
		}
		if err != nil {
			writeCodedError(w, r.Context(), err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
