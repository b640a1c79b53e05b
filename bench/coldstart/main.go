// Command coldstart measures the first request of each kind on a fresh
// Casegraph server against the same request warm, over HTTP, for one or
// more builds taking turns (bench/README.md, "Cold start"). For each
// round and each build it clears Neo4j's query caches (or, with
// -restart, runs a command that starts Neo4j afresh), starts the build's
// `casegraph serve`, waits until /readyz answers 200 (the warm-up, when
// the build has one, is over), then asks each kind once (its first
// request) and -warm times more (warm: their median), and stops the
// server. It prints, per kind, the first request and the warm median of
// every run, and their ratio.
//
//	go build -o /tmp/coldstart ./bench/coldstart
//	/tmp/coldstart -bin base=/tmp/cg-base -bin new=/tmp/cg-new -neo4j bolt://127.0.0.1:7694 -rounds 2
//
// The kinds ask the seed and the demonstration force (`casegraph seed`)
// as an anonymous caller of both datasets (limited to datasets, without
// clearance), and, with -key, as the key's caller too.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/casegraph/casegraph/bench/internal/benchdb"
	"github.com/casegraph/casegraph/server"
)

// kind is one kind of request: a GraphQL document and its variables.
type kind struct {
	name, query string
	vars        map[string]any
}

// kinds are bench/'s workloads (W1 to W5), the explorer's own documents
// (web/src/explorer: its first screen, search, entity panel, expansion,
// paths, connections, Timeline tab) and the other families of statements.
var kinds = []kind{
	{"W1 entity by id", `query($id: ID!) { entity(id: $id) { id name aliases } }`, v("id", "desmond-de-silva")},
	{"W2 entity + 20 relations, both ends", `query($id: ID!) { entity(id: $id) { id name relations(first: 20) { edges { node { id type from { id name } to { id name } } } } } }`, v("id", "david-crane")},
	{"W2 shape, other fields", `query($id: ID!) { entity(id: $id) { id name description relations(first: 20) { edges { node { id type role status from { id name kind } to { id name kind } } } } } }`, v("id", "geoffrey-nice")},
	{"W3 depth 2, neighbours", `query($id: ID!) { entity(id: $id) { id name relations(direction: OUTGOING, first: 10) { edges { neighbor { id name relations(direction: OUTGOING, first: 10) { edges { neighbor { id name } } } } } } } }`, v("id", "carter-ruck")},
	{"depth 2, both ends", `query($id: ID!) { entity(id: $id) { id name relations(first: 10) { edges { node { id type from { id name relations(first: 10) { edges { node { id type from { id name } to { id name } } } } } to { id name relations(first: 10) { edges { node { id type from { id name } to { id name } } } } } } } } } }`, v("id", "qatar-government")},
	{"W4 search", `query($text: String!) { search(text: $text, first: 20) { edges { score node { id name } } } }`, v("text", "Crane")},
	{"W5 shortestPath", `query($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, filter: {maxDepth: 4}) { length nodes { id } steps { relation { id } } } }`, v("from", "desmond-de-silva", "to", "qatar-government")},
	{"explorer first screen", server.ExplorerDocument(`query($hubs: Int!, $from: String!, $to: String!) {
  hubs: entities(orderBy: {field: DEGREE, direction: DESC}, first: $hubs) { edges { node { ...Ref relations(first: 1) { totalCount } } } }
  from: search(text: $from, kinds: [PERSON], first: 20) { edges { node { ...Ref } } }
  to: search(text: $to, kinds: [ORGANIZATION], first: 20) { edges { node { ...Ref } } } }`), v("hubs", 12, "from", "Silva", "to", "Qatar")},
	{"explorer search", server.ExplorerDocument(`query($text: String!) { search(text: $text, first: 50) { totalCount facets { kinds { kind count } datasets { dataset count } } edges { matchedField node { ...Ref } } } }`), v("text", "report")},
	{"explorer entity panel", server.ExplorerDocument(`query($id: ID!) { entity(id: $id) { ...Ref aliases description updatedAt sources { ...Src }
    ... on Person { nationality } ... on Organization { category } ... on Event { category startDate endDate } ... on Document { category publishedAt pageCount url }
    relations(first: 100) { totalCount edges { node { ...Rel citations { quote locator credibility grade source { id title publisher url publishedAt kind reliability archivedUrl dataset } } } } } }
  timeline(id: $id) { start end event { ...Ref } relation { ...Rel } } }`), v("id", "desmond-de-silva")},
	{"explorer expand (neighborhood)", server.ExplorerDocument(`query($id: ID!, $limit: Int!) { neighborhood(id: $id, depth: 1, limit: $limit) { nodes { ...Ref } relations { ...Rel } truncated } entity(id: $id) { ...Ref relations(first: 1) { totalCount } } }`), v("id", "carter-ruck", "limit", 50)},
	{"explorer paths", server.ExplorerDocument(`query($from: ID!, $to: ID!, $k: Int!) { paths(from: $from, to: $to, k: $k) { length nodes { ...Ref } steps { forward from { ...Ref } to { ...Ref } relation { ...Rel } } } }`), v("from", "desmond-de-silva", "to", "qatar-government", "k", 3)},
	{"explorer connections", server.ExplorerDocument(`query($ids: [ID!]!) { connections(ids: $ids) { nodes { ...Ref } relations { ...Rel } truncated unconnectedPairs { a { ...Ref } b { ...Ref } } } }`), v("ids", []string{"desmond-de-silva", "david-crane", "qatar-government"})},
	{"timeline", `query($id: ID!) { timeline(id: $id) { start end event { id name } relation { id type } } }`, v("id", "geneva-ii-conference")},
	{"explorer datasetTimeline", `query($datasets: [String!]!) { datasetTimeline(datasets: $datasets, from: "1990", to: "2020") { truncated items { start end event { id name } relation { id type from { id } to { id } } } } }`, v("datasets", []string{"caesar-report"})},
	{"commandChain", `query($id: ID!, $at: PartialDate!) { commandChain(unitId: $id, at: $at) { unit { unit { id name } commanders { entity { id name } } } levels { level units { unit { id name } } } truncated } }`, v("id", "rur-41-bn", "at", "2012")},
	{"whoWasInCommand", `query($id: ID!) { whoWasInCommand(incidentId: $id) { incident { id name } units { unit { id name } chain { levels { level units { unit { id name } } } } } people { person { id name } } } }`, v("id", "rur-shelling-kesselbrin")},
	{"savedQueries", `{ savedQueries(first: 20) { edges { node { name title version } } } }`, nil},
}

func v(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

type build struct{ name, path string }

type builds []build

func (b *builds) String() string { return fmt.Sprint(*b) }
func (b *builds) Set(s string) error {
	name, path, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want NAME=PATH, got %q", s)
	}
	*b = append(*b, build{name, path})
	return nil
}

// run is one fresh server's answers: per kind, the first request and the
// warm median; and how long it took to say ready.
type run struct {
	ready        time.Duration
	first, warm  []time.Duration
	failed       []string
	build, round string
}

func main() {
	var bins builds
	flag.Var(&bins, "bin", "NAME=PATH of a casegraph binary (repeat: the builds take turns)")
	rounds := flag.Int("rounds", 2, "fresh servers per build")
	warmN := flag.Int("warm", 5, "requests after the first, of each kind: the warm figure is their median")
	addr := flag.String("addr", "127.0.0.1:8097", "where the servers listen")
	var db benchdb.Flags // for the servers, and to clear its query caches
	db.Register(flag.CommandLine, "neo4j", os.Getenv)
	restart := flag.String("restart", "", "a shell command that starts Neo4j afresh before each server (instead of clearing its query caches)")
	key := flag.String("key", "", "an API key to ask as (default: anonymous, reading the seed's datasets)")
	warmUp := flag.String("warm-up", "", "the servers' --warm-up (default: the build's own)")
	flag.Parse()
	if len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "coldstart: name at least one -bin NAME=PATH")
		os.Exit(2)
	}
	var runs []run
	for r := range *rounds {
		order := slices.Clone(bins)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, b := range order {
			res, err := measure(b, *addr, db, *restart, *key, *warmUp, *warmN)
			if err != nil {
				fmt.Fprintf(os.Stderr, "coldstart: %s, round %d: %v\n", b.name, r+1, err)
				os.Exit(1)
			}
			res.build, res.round = b.name, fmt.Sprint(r+1)
			fmt.Fprintf(os.Stderr, "coldstart: %s round %d: ready after %s\n", b.name, r+1, res.ready.Round(time.Millisecond))
			runs = append(runs, res)
		}
	}
	report(os.Stdout, bins, runs)
}

// measure starts one fresh server and asks each kind.
func measure(b build, addr string, db benchdb.Flags, restart, key, warmUp string, warmN int) (run, error) {
	var res run
	if restart != "" {
		cmd := exec.Command("bash", "-c", restart)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return res, fmt.Errorf("restart Neo4j: %w", err)
		}
	} else if err := clearCaches(db); err != nil {
		return res, err
	}
	args := []string{"serve", "--addr", addr, "--neo4j-uri", db.URI, "--anonymous", "caesar-report,demo-force", "--rate-limit", "0", "--log-level", "warn"}
	if warmUp != "" {
		args = append(args, "--warm-up", warmUp)
	}
	base := "http://" + addr
	if resp, err := http.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
		return res, fmt.Errorf("something already answers on %s: stop it, or pass -addr", addr)
	}
	start := time.Now()
	cmd := exec.Command(b.path, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	for {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Since(start) > 5*time.Minute {
			return res, fmt.Errorf("not ready after 5 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	res.ready = time.Since(start)
	for _, k := range kinds {
		first, err := ask(base, key, k)
		if err != nil {
			res.failed = append(res.failed, k.name+": "+err.Error())
		}
		var again []time.Duration
		for range warmN {
			d, err := ask(base, key, k)
			if err != nil {
				return res, fmt.Errorf("%s: %w", k.name, err)
			}
			again = append(again, d)
		}
		slices.Sort(again)
		res.first = append(res.first, first)
		res.warm = append(res.warm, again[len(again)/2])
	}
	return res, nil
}

// ask sends one request and times it to the end of its answer; an answer
// with errors is an error.
func ask(base, key string, k kind) (time.Duration, error) {
	body, err := json.Marshal(map[string]any{"query": k.query, "variables": k.vars})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		return took, err
	}
	var answer struct {
		Errors []json.RawMessage
	}
	if err := json.Unmarshal(raw, &answer); err != nil || resp.StatusCode != http.StatusOK || len(answer.Errors) > 0 {
		return took, fmt.Errorf("status %d: %.300s", resp.StatusCode, raw)
	}
	return took, nil
}

func clearCaches(db benchdb.Flags) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := db.Open(ctx)
	if err != nil {
		return err
	}
	defer d.Close(ctx)
	_, err = neo4j.ExecuteQuery(ctx, d, "CALL db.clearQueryCaches()", nil, neo4j.EagerResultTransformer)
	return err
}

// report prints a table: per kind and build, every run's first request
// and warm median in ms, and the ratio of the worst run.
func report(w io.Writer, bins builds, runs []run) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	fmt.Fprint(w, "| kind |")
	for _, b := range bins {
		fmt.Fprintf(w, " %s: first / warm ms (each run) | %s: cold/warm (each run) |", b.name, b.name)
	}
	fmt.Fprint(w, "\n|---|")
	for range bins {
		fmt.Fprint(w, "---|---:|")
	}
	fmt.Fprintln(w)
	for i, k := range kinds {
		fmt.Fprintf(w, "| %s |", k.name)
		for _, b := range bins {
			var cells, ratios []string
			for _, r := range runs {
				if r.build == b.name {
					cells = append(cells, ms(r.first[i])+" / "+ms(r.warm[i]))
					ratios = append(ratios, fmt.Sprintf("%.1f", float64(r.first[i])/float64(r.warm[i])))
				}
			}
			fmt.Fprintf(w, " %s | %s |", strings.Join(cells, ", "), strings.Join(ratios, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| ready after (s) |")
	for _, b := range bins {
		var cells []string
		for _, r := range runs {
			if r.build == b.name {
				cells = append(cells, fmt.Sprintf("%.1f", r.ready.Seconds()))
			}
		}
		fmt.Fprintf(w, " %s | |", strings.Join(cells, ", "))
	}
	fmt.Fprintln(w)
	for _, r := range runs {
		for _, f := range r.failed {
			fmt.Fprintf(w, "\n%s round %s, first request failed: %s", r.build, r.round, f)
		}
	}
	fmt.Fprintln(w)
}
