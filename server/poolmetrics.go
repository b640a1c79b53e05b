package server

// The admission pools' slots in use, as metrics.

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/casegraph/casegraph/cypher"
)

// Pools is what a store tells of its admission pools (*cypher.Store has
// it). The Neo4j driver says nothing of its own connection pool; every
// statement the store admits holds one connection, so the pools' slots in
// use are the store's connections in use.
type Pools interface {
	Pools() []cypher.PoolUsage
}

// poolCollector reads the store's pools at each scrape: a gauge kept up
// to date on every statement would cost every statement.
type poolCollector struct {
	source atomic.Pointer[Pools]
	inUse  *prometheus.Desc
	idle   *prometheus.Desc
}

func newPoolCollector() *poolCollector {
	return &poolCollector{
		inUse: prometheus.NewDesc("casegraph_neo4j_pool_in_use",
			"Statements running in an admission pool (statements, heavy): the store's Neo4j connections in use.", []string{"pool"}, nil),
		idle: prometheus.NewDesc("casegraph_neo4j_pool_idle",
			"Free slots of an admission pool (statements, heavy): statements that could start without waiting.", []string{"pool"}, nil),
	}
}

// watch makes the collector read p (the last store given wins).
func (c *poolCollector) watch(p Pools) { c.source.Store(&p) }

// Describe sends the descriptors.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.inUse
	ch <- c.idle
}

// Collect sends the pools' usage, nothing before a store is watched.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	p := c.source.Load()
	if p == nil {
		return
	}
	for _, u := range (*p).Pools() {
		ch <- prometheus.MustNewConstMetric(c.inUse, prometheus.GaugeValue, float64(u.InUse), u.Pool)
		ch <- prometheus.MustNewConstMetric(c.idle, prometheus.GaugeValue, float64(u.Idle), u.Pool)
	}
}

// WatchPools shows the usage of p's admission pools at /metrics.
func (m *Metrics) WatchPools(p Pools) { m.pools.watch(p) }
