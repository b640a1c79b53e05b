package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	coderws "github.com/coder/websocket"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkWatchLatency: 100 subscriptions open over WebSockets (as 10
// editors of one dataset), then writes one after another; each write is
// timed from before its request to its event's arrival at every
// subscriber, and from the write's answer (the commit acknowledged) to
// the arrival. "changes" subscribes to the dataset's changes; "paths"
// watches a path between two entities that every write re-links (the
// watches share one search a change); "distinct-paths" watches 100
// different paths (from X to each of 100 entities), of which each write
// makes one appear: 100 searches a change, one event (at most 100 writes).
func BenchmarkWatchLatency(b *testing.B) {
	for _, kind := range []string{"changes", "paths"} {
		b.Run(kind+"/subscriptions=100", func(b *testing.B) { benchmarkWatch(b, kind, 100) })
	}
	b.Run("changes/subscriptions=1000", func(b *testing.B) { benchmarkWatch(b, "changes", 1000) })
	b.Run("distinct-paths/subscriptions=100", func(b *testing.B) { benchmarkWatch(b, "distinct-paths", 100) })
}

func benchmarkWatch(b *testing.B, kind string, n int) {
	h := servertest.New(b, servertest.Options{Config: func(c *server.Config) { c.Watch.PerCaller = n }})
	ds := cyphertest.Dataset(b)
	w := newGraphWriter(b, h)
	x, y, m := w.entity(ds, "X"), w.entity(ds, "Y"), w.entity(ds, "M")
	w.link(ds, x, m)
	keys := make([]string, 10)
	for i := range keys {
		keys[i] = h.Key(casegraph.NewAPIKey{Name: fmt.Sprintf("editor %d", i), Role: casegraph.RoleEditor, Datasets: []string{ds}})
	}
	query := changesSubscription
	vars := func(int) map[string]any { return map[string]any{"ds": []string{ds}} }
	events := n // a write's events
	var ends []string
	switch kind {
	case "paths":
		query, vars = pathSubscription, func(int) map[string]any { return map[string]any{"from": x, "to": y} }
	case "distinct-paths":
		ends = make([]string, n)
		for i := range ends {
			ends[i] = w.entity(ds, fmt.Sprintf("Y%d", i))
		}
		query, vars = pathSubscription, func(i int) map[string]any { return map[string]any{"from": x, "to": ends[i]} }
		events = 1
		if b.N > n {
			b.Fatalf("distinct-paths takes at most %d writes (-benchtime %dx)", n, n)
		}
	}
	ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
	defer cancel()
	arrivals := make(chan time.Time, n*4)
	var ready sync.WaitGroup
	for i := range n {
		ready.Add(1)
		go subscribeWS(ctx, b, h.URL, keys[i%len(keys)], query, vars(i), &ready, arrivals)
	}
	ready.Wait()

	var fromSend, fromAnswer []time.Duration
	link := ""
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if kind == "paths" && link != "" {
			w.unlink(link) // the path disappears: an event too, not timed
			drain(b, arrivals, n)
			start = time.Now()
		}
		switch kind {
		case "paths":
			link = w.link(ds, m, y) // the path appears
		case "distinct-paths":
			w.link(ds, m, ends[i]) // one of the paths appears
		default:
			w.entity(ds, "Written")
		}
		answered := time.Now()
		for range events {
			select {
			case at := <-arrivals:
				fromSend = append(fromSend, at.Sub(start))
				fromAnswer = append(fromAnswer, at.Sub(answered))
			case <-time.After(30 * time.Second):
				b.Fatal("an event did not arrive within 30s")
			}
		}
	}
	b.StopTimer()
	report := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, name+"-p95-ms")
	}
	report("send", fromSend)
	report("answer", fromAnswer)
}

func drain(b *testing.B, arrivals <-chan time.Time, n int) {
	for range n {
		select {
		case <-arrivals:
		case <-time.After(30 * time.Second):
			b.Fatal("an event did not arrive within 30s")
		}
	}
}

// subscribeWS opens one graphql-transport-ws subscription and sends the
// arrival time of each event after the first (the watch's start).
func subscribeWS(ctx context.Context, b *testing.B, url, token, query string, vars map[string]any, ready *sync.WaitGroup, arrivals chan<- time.Time) {
	conn, _, err := coderws.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/graphql",
		&coderws.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: http.Header{}})
	if err != nil {
		b.Error(err)
		ready.Done()
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	write := func(v any) error {
		msg, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return conn.Write(ctx, coderws.MessageText, msg)
	}
	type message struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := write(map[string]any{"type": "connection_init", "payload": map[string]string{"Authorization": "Bearer " + token}}); err != nil {
		b.Error(err)
	}
	started := false
	for {
		_, data, err := conn.Read(ctx)
		at := time.Now()
		if err != nil {
			if !started {
				b.Error(err)
				ready.Done()
			}
			return
		}
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			b.Error(err)
			return
		}
		switch m.Type {
		case "connection_ack":
			if err := write(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}}); err != nil {
				b.Error(err)
			}
		case "ping":
			_ = write(map[string]string{"type": "pong"})
		case "next":
			if strings.Contains(string(m.Payload), `"errors"`) {
				b.Errorf("an event with errors: %s", m.Payload)
			}
			if !started {
				started = true
				ready.Done()
				continue
			}
			arrivals <- at
		case "error", "complete":
			b.Errorf("the subscription ended: %s %s", m.Type, m.Payload)
			if !started {
				ready.Done()
			}
			return
		}
	}
}
