package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkCompression fetches a 100-node neighbourhood (a hub and 100
// people, each with aliases, a description and a relation with a role and
// a quote) as it is, gzipped and with zstd, taking turns, and reports each
// one's bytes on the wire and p50 (request to decompressed body, over
// loopback, where bandwidth costs nothing: the saving is in the bytes).
func BenchmarkCompression(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	ds := cyphertest.Dataset(b)
	ctx := context.Background()
	src := casegraph.Source{ID: ds + ":src", Title: "Bench report on the network", Dataset: ds}
	if _, err := h.Store.UpsertSource(ctx, src); err != nil {
		b.Fatal(err)
	}
	hub := casegraph.Entity{ID: ds + ":hub", Kind: casegraph.KindOrganization, Dataset: ds, Name: "Bench Holding", SourceIDs: []string{src.ID}}
	if _, err := h.Store.UpsertEntity(ctx, hub, nil); err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		e := casegraph.Entity{ID: fmt.Sprintf("%s:p%d", ds, i), Kind: casegraph.KindPerson, Dataset: ds,
			Name: fmt.Sprintf("Person %d of the bench", i), Aliases: []string{fmt.Sprintf("P. %d", i), fmt.Sprintf("Benchperson %d", i)},
			Description: fmt.Sprintf("Member number %d, named in the report's annex.", i), SourceIDs: []string{src.ID}}
		if _, err := h.Store.UpsertEntity(ctx, e, nil); err != nil {
			b.Fatal(err)
		}
		r := casegraph.Relation{ID: fmt.Sprintf("%s:r%d", ds, i), Type: "MEMBER_OF", FromID: e.ID, ToID: hub.ID,
			Role: "member", StartDate: fmt.Sprintf("%d", 1990+i%30), Status: casegraph.StatusReported, Dataset: ds,
			Quote: fmt.Sprintf("Person %d was a member of the holding.", i), SourceIDs: []string{src.ID}}
		if _, err := h.Store.Link(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	body, _ := json.Marshal(map[string]any{"query": `query N($id: ID!) { neighborhood(id: $id, limit: 100) {
		nodes { id kind name aliases description }
		relations { id type role startDate status quote from { id } to { id } sources { title } }
		distances { id hops } truncated } }`, "variables": map[string]any{"id": hub.ID}})

	type way struct {
		encoding string
		bytes    int
		times    []time.Duration
	}
	ways := []*way{{encoding: "identity"}, {encoding: "gzip"}, {encoding: "zstd"}}
	fetchOne := func(w *way) {
		b.Helper()
		req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", strings.NewReader(string(body)))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Encoding", w.encoding)
		start := time.Now()
		res, raw := roundTripWith(b, h.Client(), req)
		plain := decoded(b, rawResponse{res.StatusCode, res.Header, []byte(raw)})
		w.times = append(w.times, time.Since(start))
		if res.StatusCode != 200 || !strings.Contains(string(plain), `"truncated":false`) || strings.Count(string(plain), `"hops"`) != 101 {
			b.Fatalf("%s: %d %.300s", w.encoding, res.StatusCode, plain)
		}
		if got := res.Header.Get("Content-Encoding"); got != strings.TrimPrefix(w.encoding, "identity") {
			b.Fatalf("asked for %s, got Content-Encoding %q", w.encoding, got)
		}
		w.bytes = len(raw)
	}
	i := 0
	for b.Loop() {
		for k := range ways {
			fetchOne(ways[(k+i)%len(ways)]) // rotate who goes first
		}
		i++
	}
	for _, w := range ways {
		s := slices.Clone(w.times)
		slices.Sort(s)
		b.ReportMetric(float64(w.bytes), w.encoding+"-bytes")
		b.ReportMetric(float64(s[len(s)/2])/float64(time.Millisecond), w.encoding+"-p50-ms")
	}
}
