package server_test

// Subscriptions over graphql-ws and SSE: changes, paths, limits, scope,
// and changes across replicas.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// graphWriter writes a small graph as the harness's admin, over /graphql.
type graphWriter struct {
	t      testing.TB
	h      *servertest.Harness
	source map[string]string // by dataset
}

func newGraphWriter(t testing.TB, h *servertest.Harness) *graphWriter {
	return &graphWriter{t: t, h: h, source: map[string]string{}}
}

func (w *graphWriter) sourceOf(ds string) string {
	if id, ok := w.source[ds]; ok {
		return id
	}
	res := w.h.MustPost(`mutation($ds: String!) { upsertSource(input: {title: "watch test", dataset: $ds}) { id } }`, map[string]any{"ds": ds})
	id := res.Data["upsertSource"].(map[string]any)["id"].(string)
	w.source[ds] = id
	return id
}

// entity writes a person of ds and returns its id.
func (w *graphWriter) entity(ds, name string) string {
	w.t.Helper()
	res := w.h.MustPost(`mutation($ds: String!, $n: String!, $s: ID!) { upsertEntity(input: {kind: PERSON, name: $n, dataset: $ds, sourceIds: [$s]}) { id } }`,
		map[string]any{"ds": ds, "n": name, "s": w.sourceOf(ds)})
	return res.Data["upsertEntity"].(map[string]any)["id"].(string)
}

// link relates two entities in ds and returns the relation's id.
func (w *graphWriter) link(ds, from, to string) string {
	w.t.Helper()
	res := w.h.MustPost(`mutation($from: ID!, $to: ID!, $ds: String!, $s: ID!) { link(input: {type: RELATED_TO, from: $from, to: $to, dataset: $ds, sourceIds: [$s]}) { id } }`,
		map[string]any{"from": from, "to": to, "ds": ds, "s": w.sourceOf(ds)})
	return res.Data["link"].(map[string]any)["id"].(string)
}

func (w *graphWriter) unlink(id string) {
	w.t.Helper()
	w.h.MustPost(`mutation($id: ID!) { unlink(id: $id) { id } }`, map[string]any{"id": id})
}

type changeEvent struct {
	Cursor string `json:"cursor"`
	Change *struct {
		Operation string   `json:"operation"`
		Dataset   string   `json:"dataset"`
		Targets   []string `json:"targets"`
	} `json:"change"`
}

type pathEvent struct {
	Kind string `json:"kind"`
	Path *struct {
		Length int `json:"length"`
		Steps  []struct {
			Relation struct {
				ID      string `json:"id"`
				Dataset string `json:"dataset"`
			} `json:"relation"`
			From struct {
				ID string `json:"id"`
			} `json:"from"`
		} `json:"steps"`
	} `json:"path"`
	Cursor string `json:"cursor"`
}

const (
	changesSubscription = `subscription($ds: [String!], $after: String) { changes(datasets: $ds, after: $after) { cursor change { operation dataset targets } } }`
	pathSubscription    = `subscription($from: ID!, $to: ID!, $ds: [String!]) { watchPath(from: $from, to: $to, filter: {datasets: $ds}) { kind cursor path { length steps { relation { id dataset } from { id } } } } }`
)

func (c *wsClient) changeEvent(t *testing.T, id string) changeEvent {
	t.Helper()
	var e changeEvent
	c.next(id).field(t, "changes", &e)
	return e
}

func (c *wsClient) pathEvent(t *testing.T, id string) pathEvent {
	t.Helper()
	var e pathEvent
	c.next(id).field(t, "watchPath", &e)
	return e
}

// TestWatchChanges: over graphql-ws, an editor of dataset A hears of a
// write to A made in another request, in commit order, and never of a
// write to B; after reconnecting with its last cursor it gets every change
// it missed, once; a reader is refused.
func TestWatchChanges(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	w.sourceOf(a)
	w.sourceOf(b)
	editor := h.Key(casegraph.NewAPIKey{Name: "editor of A", Role: casegraph.RoleEditor, Datasets: []string{a}})
	reader := h.Key(casegraph.NewAPIKey{Name: "reader of A", Role: casegraph.RoleReader, Datasets: []string{a}})
	c := newWSClient(t, h.URL)

	if e := c.connect("editor", editor); e.Type != "connected" {
		t.Fatalf("editor's connection: %+v", e)
	}
	c.subscribe("editor", "all", changesSubscription, nil)
	c.subscribe("editor", "a", changesSubscription, map[string]any{"ds": []string{a}})
	for _, id := range []string{"all", "a"} {
		if first := c.changeEvent(t, id); first.Change != nil || first.Cursor == "" {
			t.Fatalf("%s: the first event must say the watch is live, with a cursor: %+v", id, first)
		}
	}

	inB := w.entity(b, "Someone in B")
	inA := w.entity(a, "Someone in A")
	for _, id := range []string{"all", "a"} {
		got := c.changeEvent(t, id)
		if got.Change == nil || got.Change.Dataset != a || got.Change.Operation != "upsertEntity" || got.Change.Targets[0] != inA {
			t.Errorf("%s: want the write to A (%s) and nothing of B (%s), got %+v", id, inA, inB, got.Change)
		}
	}

	// Resume: the client leaves after its last cursor, two writes commit,
	// and a new connection after that cursor gets both, in order, once.
	c.subscribe("editor", "before", changesSubscription, map[string]any{"ds": []string{a}})
	cursor := c.changeEvent(t, "before").Cursor
	c.close("editor")
	if e := c.next("editor"); e.Type != "closed" {
		t.Fatalf("closing: %+v", e)
	}
	second, third := w.entity(a, "Second"), w.entity(a, "Third")
	w.entity(b, "Not for A")
	if e := c.connect("again", editor); e.Type != "connected" {
		t.Fatalf("reconnecting: %+v", e)
	}
	c.subscribe("again", "resumed", changesSubscription, map[string]any{"after": cursor})
	if first := c.changeEvent(t, "resumed"); first.Change != nil || first.Cursor != cursor {
		t.Errorf("resumed: the first event must carry the cursor sent back %q: %+v", cursor, first)
	}
	for _, want := range []string{second, third} {
		got := c.changeEvent(t, "resumed")
		if got.Change == nil || got.Change.Targets[0] != want {
			t.Fatalf("resumed: want the change of %s, got %+v", want, got.Change)
		}
	}
	fourth := w.entity(a, "Fourth")
	if got := c.changeEvent(t, "resumed"); got.Change == nil || got.Change.Targets[0] != fourth {
		t.Errorf("after catching up: want %s, got %+v", fourth, got.Change)
	}

	// A protected person's changes are for callers with clearance only:
	// this editor has none.
	w.h.MustPost(`mutation($ds: String!, $s: ID!) { upsertEntity(input: {kind: PERSON, name: "A witness", protected: true, dataset: $ds, sourceIds: [$s]}) { id } }`,
		map[string]any{"ds": a, "s": w.sourceOf(a)})
	fifth := w.entity(a, "Fifth")
	if got := c.changeEvent(t, "resumed"); got.Change == nil || got.Change.Targets[0] != fifth {
		t.Errorf("after a protected person's change: want only %s, got %+v", fifth, got.Change)
	}

	// A reader may not follow the audit log; a dataset the editor may not
	// read is not there; a bad cursor is bad input.
	if e := c.connect("reader", reader); e.Type != "connected" {
		t.Fatalf("reader's connection: %+v", e)
	}
	c.subscribe("reader", "refused", changesSubscription, nil)
	if e := c.next("refused"); e.code() != string(casegraph.CodeForbidden) {
		t.Errorf("a reader's changes: want FORBIDDEN, got %+v", e)
	}
	c.subscribe("again", "b", changesSubscription, map[string]any{"ds": []string{b}})
	if e := c.next("b"); e.code() != string(casegraph.CodeNotFound) {
		t.Errorf("changes of B for an editor of A: want NOT_FOUND, got %+v", e)
	}
	c.subscribe("again", "bad", changesSubscription, map[string]any{"after": "yesterday"})
	if e := c.next("bad"); e.code() != string(casegraph.CodeBadUserInput) {
		t.Errorf("a bad cursor: want BAD_USER_INPUT, got %+v", e)
	}
}

// TestWatchPath: a reader of A watching two entities of A hears when a
// path appears, becomes shorter, longer, and disappears, each with the
// path; a relation of B between them (which the reader may not read) is
// never heard of, nor taken into a path.
func TestWatchPath(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	x, y, m := w.entity(a, "X"), w.entity(a, "Y"), w.entity(a, "M")
	reader := h.Key(casegraph.NewAPIKey{Name: "reader of A", Role: casegraph.RoleReader, Datasets: []string{a}})
	c := newWSClient(t, h.URL)
	if e := c.connect("reader", reader); e.Type != "connected" {
		t.Fatalf("connection: %+v", e)
	}
	c.subscribe("reader", "p", pathSubscription, map[string]any{"from": x, "to": y})
	if e := c.pathEvent(t, "p"); e.Kind != "CURRENT" || e.Path != nil {
		t.Fatalf("first: want CURRENT without a path, got %+v", e)
	}

	// Of B: a relation the reader cannot read, joining X and Y directly.
	w.link(b, x, y)
	xm := w.link(a, x, m)
	w.link(a, m, y)
	e := c.pathEvent(t, "p")
	if e.Kind != "APPEARED" || e.Path == nil || e.Path.Length != 2 {
		t.Fatalf("after X-M-Y in A: want APPEARED of length 2 (not B's relation), got %+v", e)
	}
	for _, s := range e.Path.Steps {
		if s.Relation.Dataset != a {
			t.Errorf("a step of dataset %s in the reader's path", s.Relation.Dataset)
		}
	}
	direct := w.link(a, x, y)
	if e := c.pathEvent(t, "p"); e.Kind != "SHORTER" || e.Path == nil || e.Path.Length != 1 || e.Path.Steps[0].Relation.ID != direct {
		t.Fatalf("after X-Y in A: want SHORTER through %s, got %+v", direct, e)
	}
	w.unlink(direct)
	if e := c.pathEvent(t, "p"); e.Kind != "LONGER" || e.Path == nil || e.Path.Length != 2 {
		t.Fatalf("after unlinking X-Y: want LONGER, got %+v", e)
	}
	w.unlink(xm)
	if e := c.pathEvent(t, "p"); e.Kind != "DISAPPEARED" || e.Path != nil {
		t.Fatalf("after unlinking X-M: want DISAPPEARED, got %+v", e)
	}
	if !c.none("p") {
		t.Errorf("more events than changes of the path: %+v", c.next("p"))
	}

	// From an entity to itself: the path of no relations, the entity
	// alone (as shortestPath answers), until the entity goes.
	self := w.entity(a, "S")
	c.subscribe("reader", "self", pathSubscription, map[string]any{"from": self, "to": self})
	if e := c.pathEvent(t, "self"); e.Kind != "CURRENT" || e.Path == nil || e.Path.Length != 0 {
		t.Fatalf("a path from an entity to itself: want CURRENT of length 0, got %+v", e)
	}
	h.MustPost(`mutation($id: ID!) { deleteEntity(id: $id) { id } }`, map[string]any{"id": self})
	if e := c.pathEvent(t, "self"); e.Kind != "DISAPPEARED" || e.Path != nil {
		t.Fatalf("after deleting the entity: want DISAPPEARED, got %+v", e)
	}

	// An end the reader cannot read is not there.
	z := w.entity(b, "Z in B")
	c.subscribe("reader", "hidden", pathSubscription, map[string]any{"from": x, "to": z})
	if e := c.next("hidden"); e.code() != string(casegraph.CodeNotFound) {
		t.Errorf("a path to an entity of B: want NOT_FOUND, got %+v", e)
	}
}

// TestWatchLimits: a caller holds at most its share of watches (BUSY,
// TOO_MANY_WATCHES), and one that ends frees its place; a connection
// without credentials, or with a bad key, is closed with 4403; one whose
// key is revoked is closed.
func TestWatchLimits(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) {
		c.Watch.PerCaller = 2
		c.KeyCacheTTL = time.Second
	}})
	ds := cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	x, y := w.entity(ds, "X"), w.entity(ds, "Y")
	c := newWSClient(t, h.URL)
	if e := c.connect("admin", h.Token); e.Type != "connected" {
		t.Fatalf("connection: %+v", e)
	}
	vars := map[string]any{"from": x, "to": y}
	for _, id := range []string{"one", "two"} {
		c.subscribe("admin", id, pathSubscription, vars)
		if e := c.pathEvent(t, id); e.Kind != "CURRENT" {
			t.Fatalf("%s: %+v", id, e)
		}
	}
	c.subscribe("admin", "three", pathSubscription, vars)
	if e := c.next("three"); e.code() != string(casegraph.CodeBusy) || !strings.Contains(e.Payload.Errors[0].Message+fmtErrors(e.Errors), "watches") {
		t.Fatalf("a third watch: want BUSY, got %+v", e)
	}
	c.unsubscribe("one")
	waitFor(t, func() bool {
		c.subscribe("admin", "again", pathSubscription, vars)
		return c.next("again").code() == ""
	})

	for _, tc := range []struct{ name, token string }{{"no credentials", ""}, {"a bad key", "cgk_0000000000000000_bad"}} {
		if e := c.connect(tc.name, tc.token); e.Type != "closed" || e.Code != 4403 {
			t.Errorf("%s: want the socket closed with 4403, got %+v", tc.name, e)
		}
	}

	editor := h.Key(casegraph.NewAPIKey{Name: "revoked soon", Role: casegraph.RoleEditor, Datasets: []string{ds}})
	if e := c.connect("revoked", editor); e.Type != "connected" {
		t.Fatalf("connection: %+v", e)
	}
	c.subscribe("revoked", "r", changesSubscription, nil)
	c.changeEvent(t, "r")
	keyID, _, _ := casegraph.ParseKeyToken(editor)
	h.MustPost(`mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, map[string]any{"id": keyID})
	if e := c.next("revoked"); e.Type != "closed" {
		t.Errorf("after its key was revoked: want the socket closed, got %+v", e)
	}
}

func fmtErrors(errs []wsError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Message)
	}
	return b.String()
}

// waitFor tries cond until it holds (the server frees a watch when the
// unsubscription reaches it, a moment after the client sends it).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 50 {
		if cond() {
			return
		}
	}
	t.Fatal("the condition never held")
}

// TestWatchOverSSE: the same subscription over server-sent events (POST
// with Accept: text/event-stream): the first event, then a write made in
// another request.
func TestWatchOverSSE(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	w.sourceOf(ds)
	next := sseChanges(t, h, h.Token, map[string]any{"ds": []string{ds}})
	if first := next(); first.Change != nil || first.Cursor == "" {
		t.Fatalf("first event: %+v", first)
	}
	id := w.entity(ds, "Over SSE")
	if got := next(); got.Change == nil || got.Change.Targets[0] != id {
		t.Errorf("want the change of %s, got %+v", id, got.Change)
	}
	if metrics := h.Get("/metrics").Raw; !strings.Contains(metrics, "casegraph_watches 1\n") {
		t.Errorf("/metrics does not count the open watch:\n%s", grepLines(metrics, "casegraph_watches"))
	}
}

// sseChanges subscribes to changes over server-sent events (POST with
// Accept: text/event-stream) as the token's holder, and returns a
// function that waits for the next event.
func sseChanges(t *testing.T, h *servertest.Harness, token string, vars map[string]any) func() changeEvent {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": changesSubscription, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, h.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, ct)
	}
	events := make(chan string)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- data
			}
		}
	}()
	return func() changeEvent {
		t.Helper()
		data, ok := <-events
		if !ok {
			t.Fatal("the stream ended")
		}
		var r struct {
			Data struct {
				Changes changeEvent `json:"changes"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		return r.Data.Changes
	}
}

// TestWatchChangesAcrossDatasets: the changes subscription, over
// graphql-ws and over SSE, leaves out a change that names what its caller
// may not read: an editor of A alone never hears of a link between A's
// entity and B's (whichever dataset the relation belongs to), only of the
// next change of A.
func TestWatchChangesAcrossDatasets(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	w := newGraphWriter(t, h)
	inA, inB := w.entity(a, "Alpha"), w.entity(b, "Bravo")
	editor := h.Key(casegraph.NewAPIKey{Name: "editor of A", Role: casegraph.RoleEditor, Datasets: []string{a}})
	c := newWSClient(t, h.URL)
	if e := c.connect("editor", editor); e.Type != "connected" {
		t.Fatalf("editor's connection: %+v", e)
	}
	c.subscribe("editor", "ws", changesSubscription, nil)
	if first := c.changeEvent(t, "ws"); first.Change != nil {
		t.Fatalf("first event: %+v", first)
	}
	sse := sseChanges(t, h, editor, nil)
	if first := sse(); first.Change != nil {
		t.Fatalf("first event over SSE: %+v", first)
	}
	w.link(a, inA, inB)
	w.link(b, inB, inA)
	next := w.entity(a, "Next in A")
	for name, event := range map[string]func() changeEvent{"ws": func() changeEvent { return c.changeEvent(t, "ws") }, "sse": sse} {
		if got := event(); got.Change == nil || got.Change.Operation != "upsertEntity" || got.Change.Targets[0] != next {
			t.Errorf("%s: want the change of %s and no link naming %s, got %+v", name, next, inB, got.Change)
		}
	}
}

// TestWatchAcrossReplicas: a change written through one replica reaches a
// subscriber of another, which hears of it at its next poll of the feed.
func TestWatchAcrossReplicas(t *testing.T) {
	t.Parallel()
	poll := func(c *server.Config) { c.Watch.Poll = 50 * time.Millisecond }
	one, two := servertest.New(t, servertest.Options{Config: poll}), servertest.New(t, servertest.Options{Config: poll})
	ds := cyphertest.Dataset(t)
	w := newGraphWriter(t, one)
	w.sourceOf(ds)
	c := newWSClient(t, two.URL)
	if e := c.connect("admin", two.Token); e.Type != "connected" {
		t.Fatalf("connection: %+v", e)
	}
	c.subscribe("admin", "s", changesSubscription, map[string]any{"ds": []string{ds}})
	c.changeEvent(t, "s")
	id := w.entity(ds, "Written elsewhere")
	if got := c.changeEvent(t, "s"); got.Change == nil || got.Change.Targets[0] != id {
		t.Errorf("want the change of %s, got %+v", id, got.Change)
	}
}
