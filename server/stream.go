package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	coderws "github.com/coder/websocket"
	"github.com/rs/zerolog"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/loaders"
)

// Subscriptions are served as streams: a WebSocket at GET /graphql (the
// graphql-transport-ws protocol of graphql-ws, and the older graphql-ws
// protocol, both gqlgen's), or server-sent events for a POST /graphql whose
// client ranks text/event-stream best for its operation (negotiate.go). A
// subscription runs only in a stream; queries and mutations run there too,
// one answer each (a WebSocket's spend its caller's rate, streamOps; a
// POST's events are a request's, rate, idempotency key and all). A stream
// has no request deadline (each statement it runs has one) and ends when
// the server shuts down.

// streamPing is how often an idle stream is pinged, so that proxies keep
// it open and a dead peer is found.
const streamPing = 15 * time.Second

// streamInitTimeout is how long a WebSocket may wait before its
// connection_init.
const streamInitTimeout = 10 * time.Second

// isStream says whether a request opens a stream: a WebSocket upgrade, or
// a POST to /graphql answered with server-sent events (negotiateMedia
// chose text/event-stream for it, and left that alone in its Accept).
func isStream(r *http.Request) bool {
	if r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return true
	}
	return r.Method == http.MethodPost && r.URL.Path == graphQLPath && r.Header.Get("Accept") == offerEventStream.media
}

// graphQLPath is the GraphQL endpoint's path.
const graphQLPath = "/graphql"

type streamKey struct{}

// streamed says whether ctx is a stream's.
func streamed(ctx context.Context) bool { return ctx.Value(streamKey{}) != nil }

// overWebSocket says whether ctx is a WebSocket's, whose operations come
// as messages rather than requests.
func overWebSocket(ctx context.Context) bool {
	_, ok := ctx.Value(streamKey{}).(transport.Websocket)
	return ok
}

// streamTransport is gqlgen's WebSocket or SSE transport over requests
// marked as streams, with the errors it reports coded.
type streamTransport struct{ graphql.Transport }

func (t streamTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := context.WithValue(r.Context(), streamKey{}, t.Transport)
	t.Transport.Do(flusher{w}, r.WithContext(ctx), codedExecutor{GraphExecutor: exec, w: &negotiated{}})
}

// flusher flushes through the writers the middleware wrapped around the
// connection's (the SSE transport asks for an http.Flusher).
type flusher struct{ http.ResponseWriter }

func (f flusher) Flush() { _ = http.NewResponseController(f.ResponseWriter).Flush() }

func (f flusher) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// streamTransports are the WebSocket and SSE transports. A WebSocket from
// another origin is refused unless the origin is one of CORSOrigins (the
// library compares Origin with Host otherwise), its messages are bounded
// as bodies are, and its connection_init says who the caller is (init).
func streamTransports(cfg Config, init transport.WebsocketInitFunc) []graphql.Transport {
	var origins []string
	for _, o := range cfg.CORSOrigins {
		if u, err := url.Parse(o); err == nil {
			origins = append(origins, u.Host)
		}
	}
	limit := cfg.MaxBodyBytes
	return []graphql.Transport{
		streamTransport{transport.Websocket{
			Implementation:        transport.CoderWebsocketImplementation{AcceptOptions: coderws.AcceptOptions{OriginPatterns: origins}},
			InitFunc:              init,
			InitTimeout:           streamInitTimeout,
			KeepAlivePingInterval: streamPing,
			PayloadReadLimit:      &limit,
		}},
		streamTransport{transport.SSE{KeepAlivePingInterval: streamPing}},
	}
}

// refuseMisplaced refuses a subscription outside a stream: its client
// accepts no stream (the guard answers 406). Queries and mutations run
// in a stream too, one answer each: the GraphQL-over-SSE spec's distinct
// connections mode and graphql-transport-ws both allow them, and clients
// (graphql-sse, graphql-ws, urql's subscription exchange) send them so.
func refuseMisplaced(ctx context.Context, op *ast.OperationDefinition) *gqlerror.Error {
	if op.Operation == ast.Subscription && !streamed(ctx) {
		return codedError(casegraph.CodeBadUserInput, "SUBSCRIPTION_NEEDS_STREAM",
			"subscriptions run over a WebSocket (graphql-transport-ws) or server-sent events (POST with Accept: text/event-stream)")
	}
	return nil
}

// streamOps spend a WebSocket's operations from its caller's rate (the
// rate limit of requests, which its messages would pass by): one over it
// is BUSY, RATE_LIMITED.
type streamOps struct{ rate *rateLimiter }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = streamOps{}

func (streamOps) ExtensionName() string                   { return "CasegraphStreamOps" }
func (streamOps) Validate(graphql.ExecutableSchema) error { return nil }

func (o streamOps) MutateOperationContext(ctx context.Context, _ *graphql.OperationContext) *gqlerror.Error {
	if o.rate == nil || !overWebSocket(ctx) {
		return nil // a request's rate was spent when it came
	}
	p, _ := casegraph.PrincipalFrom(ctx)
	addr, _ := ctx.Value(clientAddrKey{}).(string)
	if ok, _ := o.rate.take(callerKey(p, addr)); !ok {
		return codedError(casegraph.CodeBusy, "RATE_LIMITED", "too many requests from this caller; retry later")
	}
	return nil
}

// freshLoaders gives each event of a subscription, and each operation of
// a WebSocket, loaders of its own: a stream lasts, and what its loaders
// held at one event may have changed by the next.
func freshLoaders(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil && (oc.Operation.Operation == ast.Subscription || overWebSocket(ctx)) {
		if l, ok := loaders.From(ctx); ok {
			ctx = loaders.With(ctx, l.Fresh())
		}
	}
	return next(ctx)
}

type clientAddrKey struct{}

// authenticateStream authenticates a stream's request as any other's,
// except a WebSocket upgrade without an Authorization header (browsers
// cannot send one): its connection_init says who the caller is.
func (s *Server) authenticateStream(next http.Handler) http.Handler {
	authenticated := s.authenticate(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(context.WithValue(r.Context(), clientAddrKey{}, clientAddr(r)))
		if r.Method == http.MethodGet && r.Header.Get("Authorization") == "" {
			next.ServeHTTP(w, r)
			return
		}
		authenticated.ServeHTTP(w, r)
	})
}

// initStream authenticates a WebSocket at its connection_init, from the
// payload's Authorization ("Bearer ..."), or else from the upgrade
// request's header; without either, the caller is anonymous where that is
// allowed. A refusal closes the socket with 4403 and the reason.
func (s *Server) initStream(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	h := payload.Authorization()
	if h == "" {
		if _, ok := casegraph.PrincipalFrom(ctx); ok {
			return ctx, nil, nil // the upgrade's header said
		}
	}
	addr, _ := ctx.Value(clientAddrKey{}).(string)
	p, _, err := s.signIn(ctx, addr, h)
	if err != nil {
		return refuseStream(ctx, string(casegraph.ErrorCode(err))+": "+casegraph.ErrorMessage(err))
	}
	ctx, cancel := context.WithCancel(ctx)
	s.watchCredentials(ctx, h, cancel)
	return casegraph.WithPrincipal(ctx, p), nil, nil
}

// watchCredentials ends a stream (cancel) once its credentials (h, the
// Authorization it was opened with) stop naming a caller: a revoked key,
// an expired token. It checks every key-cache TTL (at least every
// minStreamRecheck), when a new request with them would find out; a
// database that does not answer ends nothing.
func (s *Server) watchCredentials(ctx context.Context, h string, cancel func()) {
	if h == "" {
		return // anonymous: nothing to expire
	}
	every := max(s.cfg.KeyCacheTTL, minStreamRecheck)
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if _, err := s.auth.principalOf(ctx, h); casegraph.ErrorCode(err) == casegraph.CodeUnauthenticated {
				logText(zerolog.Ctx(ctx).Info(), "reason", casegraph.ErrorMessage(err)).Msg("stream ended: its credentials no longer hold")
				cancel()
				return
			}
		}
	}()
}

// minStreamRecheck is the shortest time between two checks of a stream's
// credentials.
const minStreamRecheck = time.Second

// refuseStream closes a WebSocket at its start with 4403 and why.
func refuseStream(ctx context.Context, why string) (context.Context, *transport.InitPayload, error) {
	ctx = transport.WithWebsocketCloseCode(ctx, 4403)
	return transport.AppendCloseReason(ctx, truncate(why, 120)), nil, casegraph.Errorf(casegraph.CodeUnauthenticated, "%s", why)
}
