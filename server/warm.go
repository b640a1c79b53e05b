package server

// The warm-up: before /readyz says ready, the server sends itself the
// common requests, so that Neo4j plans their statements before a client
// waits for it. Planning is a fresh server's cost (bench/README.md, "Cold
// start": a depth-2 read's statement takes seconds to plan and
// milliseconds to run), and Neo4j keeps a plan by the statement's exact
// text and its parameters' types, which only the real request renders:
// a plan made by EXPLAIN without them serves the next run little. So the
// warm-up runs the requests themselves, through the GraphQL handler the
// routes serve (limits, loaders, resolvers, the store's read path and its
// gate), as callers that read nothing: one whose scope holds no dataset
// (the statements of callers limited to datasets), and one that may read
// every dataset (the others) asking about ids, words and pairs that no
// entity has. Nothing is written and nothing is returned to anyone.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	casegraph "github.com/casegraph/casegraph"
)

// warmRequest is one common request the warm-up sends.
type warmRequest struct {
	name, query string
}

// warmTotals are the common requests that count relations (totalCount),
// which the warm-up sends as a caller who may read every dataset too:
// their compiled read differs for such callers (it reads the total from
// the degree store). Every other statement is one text, with the scope's
// parameters of one type, for every caller.
var warmTotals = map[string]bool{"explorer: first screen": true, "explorer: entity panel": true, "explorer: expand": true}

// warmNone is an id no entity has: the opaque ids of protected entities
// are the reserved form (casegraph.OpaqueIDPrefix) and none is this.
const warmNone = casegraph.OpaqueIDPrefix + "warm-up-none"

// warmRequests are the common requests' shapes: bench/'s workloads (W1 to
// W5), the explorer's own documents (web/src/explorer: its first screen,
// search, entity panel, expansion, paths, connections, Timeline tab) and
// the command queries. A shape is what a statement's text depends on (the
// levels and pages read, whether they bring sources or totals, a path's
// depth and k), not the values, nor (for the compiled read of entities)
// the properties shown, which are parameters.
var warmRequests = []warmRequest{
	{"entity", `query($id: ID!) { entity(id: $id) { id name aliases } }`},
	{"entity with relations", `query($id: ID!) { entity(id: $id) { id name relations(first: 20) { edges { node { id type from { id name } to { id name } } } } } }`},
	{"depth 2, both ends", `query($id: ID!) { entity(id: $id) { id name relations(first: 10) { edges { node { id type from { id name relations(first: 10) { edges { node { id type from { id name } to { id name } } } } } to { id name relations(first: 10) { edges { node { id type from { id name } to { id name } } } } } } } } } }`},
	{"depth 2, neighbours", `query($id: ID!) { entity(id: $id) { id name relations(direction: OUTGOING, first: 10) { edges { neighbor { id name relations(direction: OUTGOING, first: 10) { edges { neighbor { id name } } } } } } } }`},
	{"search", `query($text: String!) { search(text: $text, first: 20) { edges { score node { id name } } } }`},
	{"shortestPath", `query($id: ID!, $to: ID!) { shortestPath(from: $id, to: $to, filter: {maxDepth: 4}) { length nodes { id } } }`},
	{"explorer: first screen", ExplorerDocument(`query($hubs: Int!, $text: String!) {
  hubs: entities(orderBy: {field: DEGREE, direction: DESC}, first: $hubs) { edges { node { ...Ref relations(first: 1) { totalCount } } } }
  from: search(text: $text, kinds: [PERSON], first: 20) { edges { node { ...Ref } } } }`)},
	{"explorer: search", ExplorerDocument(`query($text: String!) {
  search(text: $text, first: 50) { totalCount facets { kinds { kind count } datasets { dataset count } } edges { matchedField node { ...Ref } } } }`)},
	// The explorer's entity panel holds the entity's timeline.
	{"explorer: entity panel", ExplorerDocument(`query($id: ID!) {
  entity(id: $id) {
    ...Ref aliases description updatedAt sources { ...Src }
    relations(first: 100) { totalCount edges { node { ...Rel citations { quote grade source { id } } } } }
  }
  timeline(id: $id) { start end event { ...Ref } relation { ...Rel } } }`)},
	{"explorer: expand", ExplorerDocument(`query($id: ID!, $limit: Int!) {
  neighborhood(id: $id, depth: 1, limit: $limit) { nodes { ...Ref } relations { ...Rel } truncated }
  entity(id: $id) { ...Ref relations(first: 1) { totalCount } } }`)},
	{"explorer: paths", ExplorerDocument(`query($id: ID!, $to: ID!, $k: Int!) {
  paths(from: $id, to: $to, k: $k) { length nodes { ...Ref } steps { forward from { ...Ref } to { ...Ref } relation { ...Rel } } } }`)},
	{"explorer: connections", ExplorerDocument(`query($ids: [ID!]!) {
  connections(ids: $ids) { nodes { ...Ref } relations { ...Rel } truncated unconnectedPairs { a { ...Ref } b { ...Ref } } } }`)},
	{"commandChain", `query($id: ID!, $at: PartialDate!) { commandChain(unitId: $id, at: $at) { unit { unit { id name } commanders { entity { id name } } } levels { level units { unit { id name } } } truncated } }`},
	{"whoWasInCommand", `query($id: ID!) { whoWasInCommand(incidentId: $id) { incident { id name } units { unit { id name } chain { levels { level units { unit { id name } } } } } people { person { id name } } } }`},
	// Saved queries, as the researcher's guide lists them (its statement
	// takes $caller: sent as warmCaller, whose id is of the length class
	// of a key's principal, "key:" and its id, and as warmShortCaller,
	// whose id is of the anonymous caller's).
	{"savedQueries", `{ savedQueries(first: 20) { edges { node { name title version } } } }`},
	// The explorer's dataset pickers (the Timeline tab, the write forms):
	// names alone, DatasetNames (1.2 s cold, 0.08 s warm on 100k entities).
	{"explorer: dataset names", `{ datasets { name } }`},
	// The explorer's Timeline tab, last: its statement (one text, whatever
	// is selected) takes seconds to plan (3.5 to 8 s), and when the budget
	// runs out the cheaper requests before it are planned.
	{"datasetTimeline", `query($datasets: [String!]!) { datasetTimeline(datasets: $datasets, from: "2000", to: "2001") { truncated items { start relation { id } event { id } } } }`},
}

// explorerFragments are the fragments the explorer's documents spread
// (web/src/explorer/api.ts): what its panels show of an entity, a source
// and a relation (which spreads the other two).
var explorerFragments = map[string]string{
	"Ref": `fragment Ref on Entity { id kind name dataset redacted protected description aliases ... on Place { coordinates { latitude longitude } } }`,
	"Src": `fragment Src on Source { id title publisher url publishedAt archivedUrl }`,
	"Rel": `fragment Rel on Relation {
  id type role startDate endDate status confidence quote dataset
  from { ...Ref } to { ...Ref } sources { ...Src } citations { grade }
}`,
}

// ExplorerDocument is one of the explorer's documents with the fragments
// it spreads, and those alone (a fragment defined and not spread is an
// error in GraphQL): for the warm-up, and for bench/coldstart, which asks
// what the explorer asks.
func ExplorerDocument(doc string) string {
	rel := strings.Contains(doc, "...Rel")
	out := doc
	for _, name := range []string{"Ref", "Src", "Rel"} {
		if rel || strings.Contains(doc, "..."+name) {
			out += "\n" + explorerFragments[name]
		}
	}
	return out
}

// warmVariables are the warm-up's values: an id, a pair, a word and a
// date that find nothing (a request declares those it takes).
var warmVariables = map[string]any{"id": warmNone, "to": warmNone + "-2", "text": "casegraphwarmupnothing", "at": "2000",
	"datasets": []string{warmNoDataset}, "ids": []string{warmNone, warmNone + "-2", warmNone + "-3"}, "hubs": 12, "limit": 100, "k": 3}

// warmShort are the requests that take an id as a string parameter of
// their statements (a path's ends, a neighbourhood's or a timeline's
// centre, a unit, an incident), which the warm-up sends again with ids of
// at most 10 characters (warmShortVariables): Neo4j keeps a plan by its
// parameters' types, and a string's type holds the class of its length
// (1, 2 to 10, 11 to 100: bench/README.md, "Cold start"), so a short id's
// first request was planned again (0.35 to 0.56 s for commandChain). Sent
// as the caller limited to a dataset that holds nothing only, so the
// ids, which are not reserved, find nothing either. (Connections take
// three ids, three pairs: a list of 2 to 10, as most.)
var warmShort = map[string]bool{"shortestPath": true, "explorer: entity panel": true, "explorer: expand": true,
	"explorer: paths": true, "commandChain": true, "whoWasInCommand": true}

// warmCallerNamed are the requests whose statements take the caller's id
// ($caller, a string: its length class counts), sent again as
// warmShortCaller.
var warmCallerNamed = map[string]bool{"savedQueries": true}

// warmShortVariables are warmVariables with ids of 10 characters at most.
var warmShortVariables = func() map[string]any {
	v := maps.Clone(warmVariables)
	v["id"], v["to"] = "cg-warm-1", "cg-warm-2"
	return v
}()

// warmNoDataset is the name of a dataset that holds nothing.
const warmNoDataset = "casegraph-warm-up-none"

// warmCaller is who the warm-up asks as: a reader limited to a dataset
// that holds nothing. The scope's parameters are of one type for every
// caller (cypher's scopeParams), so its plans serve them all, but for the
// compiled reads that count totals, which differ for callers who may read
// every dataset: those requests are sent as warmEveryDataset too.
var (
	warmCaller       = casegraph.Principal{ID: "casegraph:warm-up", Role: casegraph.RoleReader, Datasets: []string{warmNoDataset}}
	warmShortCaller  = casegraph.Principal{ID: "cg-warm", Role: casegraph.RoleReader, Datasets: []string{warmNoDataset}}
	warmEveryDataset = casegraph.Principal{ID: "casegraph:warm-up", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}}
)

// warmSend is one request of the warm-up, who asks it and its values.
type warmSend struct {
	req  warmRequest
	as   casegraph.Principal
	vars map[string]any
}

// warmPaged are the common requests whose compiled read pages relations:
// its text differs for a cleared caller (pages go by the relation id
// where another caller's go by the id it sees: cypher's hub pages seek
// the registry's index of that key), so the warm-up sends them as
// warmCleared too (and those of warmTotals as warmEveryDatasetCleared),
// after all the others: the anonymous caller of a public deployment is
// not cleared, analysts are.
var warmPaged = map[string]bool{"entity with relations": true, "depth 2, both ends": true, "depth 2, neighbours": true,
	"explorer: first screen": true, "explorer: entity panel": true, "explorer: expand": true}

var (
	warmCleared             = casegraph.Principal{ID: "casegraph:warm-up", Role: casegraph.RoleReader, Datasets: []string{warmNoDataset}, Cleared: true}
	warmEveryDatasetCleared = casegraph.Principal{ID: "casegraph:warm-up", Role: casegraph.RoleReader, Datasets: []string{casegraph.AllDatasets}, Cleared: true}
)

// warmSends are the warm-up's requests, each with who asks it.
func warmSends() []warmSend {
	var out, cleared []warmSend
	for _, req := range warmRequests {
		if warmPaged[req.name] {
			cleared = append(cleared, warmSend{req, warmCleared, warmVariables})
			if warmTotals[req.name] {
				cleared = append(cleared, warmSend{req, warmEveryDatasetCleared, warmVariables})
			}
		}
		out = append(out, warmSend{req, warmCaller, warmVariables})
		if warmTotals[req.name] {
			out = append(out, warmSend{req, warmEveryDataset, warmVariables})
		}
		if warmShort[req.name] {
			out = append(out, warmSend{req, warmCaller, warmShortVariables})
		}
		if warmCallerNamed[req.name] {
			out = append(out, warmSend{req, warmShortCaller, warmVariables})
		}
	}
	return append(out, cleared...)
}

// warmUp is the warm-up's state, which /readyz reports.
type warmUp struct {
	mu     sync.Mutex
	done   bool
	status string
}

func (w *warmUp) set(done bool, status string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done, w.status = done, status
}

// state says whether the warm-up is over and how it went (or goes).
func (w *warmUp) state() (bool, string) {
	if w == nil {
		return true, ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done, w.status
}

// warm waits until the database is reachable (readiness's probe), then
// sends the common requests to gql, one at a time (planning takes the
// database's processors: several at once finish no sooner), within
// budget. It is over when every request has been answered, when budget
// runs out, or when ctx ends; then /readyz answers as the probe does. A
// request that fails is logged and counted, never fatal: the server
// serves cold.
func (s *Server) warm(ctx context.Context, gql http.Handler, budget time.Duration) {
	w := s.ready.warm
	for s.ready.reachable(ctx) != nil {
		select {
		case <-ctx.Done():
			return
		case <-time.After(readinessTTL):
		}
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	sends := warmSends()
	total := len(sends)
	sent, failed := 0, 0
	var firstErr string
	for _, send := range sends {
		if ctx.Err() != nil {
			break
		}
		req := send.req
		w.set(false, fmt.Sprintf("warming up: %d of %d common requests planned", sent, total))
		began := time.Now()
		err := warmOne(casegraph.WithPrincipal(ctx, send.as), gql, req.query, send.vars)
		if ctx.Err() != nil {
			break // cut off by the budget: not planned, not a failure
		}
		s.log.Debug().Str("request", req.name).Bool("cleared", send.as.Cleared).Strs("datasets", send.as.Datasets).
			Dur("took", time.Since(began)).Msg("warm-up: a common request sent")
		if err != nil {
			failed++
			if firstErr == "" {
				firstErr = req.name + ": " + err.Error()
			}
			s.log.Warn().Str("request", req.name).Str("error", err.Error()).Msg("warm-up: a common request failed")
		}
		sent++
	}
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case sent < total:
		status := fmt.Sprintf("warm-up ran out of its budget (%s): %d of %d common requests planned", budget, sent-failed, total)
		w.set(true, status)
		s.log.Warn().Dur("budget", budget).Int("planned", sent-failed).Int("requests", total).Msg("warm-up: budget ran out, ready anyway")
	case failed > 0:
		w.set(true, fmt.Sprintf("warm-up done in %s: %d of %d common requests failed (first: %s)", took, failed, total, firstErr))
		s.log.Warn().Dur("took", took).Int("failed", failed).Int("requests", total).Msg("warm-up: done, with failures")
	default:
		w.set(true, fmt.Sprintf("warm-up done in %s: %d common requests planned", took, total))
		s.log.Info().Dur("took", took).Int("requests", total).Msg("warm-up: done")
	}
}

// warmOne sends one request and reports a failure of the service (an
// error coded DATABASE_UNAVAILABLE, TIMEOUT, BUSY or INTERNAL, or a status
// other than 200); NOT_FOUND and the like are the answers expected of ids
// that no entity has.
func warmOne(ctx context.Context, gql http.Handler, query string, variables map[string]any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": variables})
	if err != nil {
		return err
	}
	r := httptest.NewRequest(http.MethodPost, graphQLPath, strings.NewReader(string(body))).WithContext(ctx)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/graphql-response+json")
	rec := httptest.NewRecorder()
	gql.ServeHTTP(rec, r)
	var answer struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
		return fmt.Errorf("status %d, answer not JSON", rec.Code)
	}
	for _, e := range answer.Errors {
		switch e.Extensions.Code {
		case string(casegraph.CodeDatabaseUnavailable), string(casegraph.CodeTimeout), string(casegraph.CodeBusy), string(casegraph.CodeInternal), "":
			return fmt.Errorf("%s (%s)", e.Message, e.Extensions.Code)
		}
	}
	if rec.Code != http.StatusOK && len(answer.Errors) == 0 {
		return fmt.Errorf("status %d", rec.Code)
	}
	return nil
}
