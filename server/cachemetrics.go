package server

// The hits and misses of gqlgen's caches (parsed documents, automatic
// persisted queries), counted in the metrics.

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
)

// countedCache counts the hits and misses of a gqlgen cache.
type countedCache[T any] struct {
	graphql.Cache[T]
	hit, miss prometheus.Counter
}

// counted returns cache, its lookups counted as name in
// casegraph_query_cache_total: a hit of the document cache saves parsing
// and validating a document; one of the APQ cache, sending it.
func counted[T any](m *Metrics, name string, cache graphql.Cache[T]) graphql.Cache[T] {
	return countedCache[T]{Cache: cache, hit: m.cache.WithLabelValues(name, "hit"), miss: m.cache.WithLabelValues(name, "miss")}
}

func (c countedCache[T]) Get(ctx context.Context, key string) (T, bool) {
	v, ok := c.Cache.Get(ctx, key)
	if ok {
		c.hit.Inc()
	} else {
		c.miss.Inc()
	}
	return v, ok
}
