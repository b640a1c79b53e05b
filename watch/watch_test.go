package watch_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/watch"
)

// TestChangesUnderConcurrentWrites: while 8 writers commit 5 changes
// each, a subscriber of their dataset gets all 40, once each, in the
// order of their numbers; a second subscriber that starts from the cursor
// of the first's first event, after the writes, gets the same 40 (from its
// group's recent changes); a third, from a cursor older than its group's
// start, gets the change before that too (from the feed itself), then the
// same 40.
func TestChangesUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	store := cyphertest.Store(t, cypher.Options{})
	hub := watch.New(store, watch.Options{Poll: 20 * time.Millisecond}, zerolog.Nop())
	ctx, cancel := context.WithCancel(casegraph.AsOperator(context.Background()))
	defer cancel()
	remove := store.OnCommit(hub.Notify)
	defer remove()
	go hub.Run(ctx)

	ds := cyphertest.Dataset(t)
	admin := casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:admin", Role: casegraph.RoleAdmin, Datasets: []string{casegraph.AllDatasets}})
	src, err := store.UpsertSource(admin, casegraph.Source{ID: ds + ":src", Title: "watch test", Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	head, err := store.ChangeHead(admin)
	if err != nil {
		t.Fatal(err)
	}
	before := casegraph.Entity{ID: ds + ":before", Kind: casegraph.KindPerson, Name: "Before", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := store.UpsertEntity(admin, before, nil); err != nil {
		t.Fatal(err)
	}
	events, err := hub.Changes(admin, []string{ds}, "")
	if err != nil {
		t.Fatal(err)
	}
	first := <-events
	if first.Change != nil {
		t.Fatalf("first event: %+v", first)
	}

	const writers, each = 8, 5
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e := casegraph.Entity{ID: fmt.Sprintf("%s:w%d-%d", ds, w, i), Kind: casegraph.KindPerson, Name: fmt.Sprintf("Writer %d, %d", w, i), Dataset: ds, SourceIDs: []string{src.ID}}
				if _, err := store.UpsertEntity(admin, e, nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	read := func(events <-chan watch.ChangeEvent, n int) []string {
		t.Helper()
		var ids []string
		var last int64
		timeout := time.After(60 * time.Second)
		for len(ids) < n {
			select {
			case e, ok := <-events:
				if !ok {
					t.Fatal("the watch ended")
				}
				if e.Change.Seq <= last || e.Cursor != watch.Cursor(e.Change.Seq) {
					t.Fatalf("change %d (cursor %s) after %d: out of order", e.Change.Seq, e.Cursor, last)
				}
				last = e.Change.Seq
				ids = append(ids, e.Change.Targets[0])
			case <-timeout:
				t.Fatalf("%d of %d changes arrived", len(ids), writers*each)
			}
		}
		return ids
	}
	live := read(events, writers*each)
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range live {
		if seen[id] {
			t.Errorf("%s came twice", id)
		}
		seen[id] = true
	}

	resumed, err := hub.Changes(admin, []string{ds}, first.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-resumed; e.Cursor != first.Cursor {
		t.Errorf("resumed: first cursor %s, want %s", e.Cursor, first.Cursor)
	}
	again := read(resumed, writers*each)
	if fmt.Sprint(again) != fmt.Sprint(live) {
		t.Errorf("resumed from the cursor:\n%v\nlive:\n%v", again, live)
	}
	older, err := hub.Changes(admin, []string{ds}, watch.Cursor(head))
	if err != nil {
		t.Fatal(err)
	}
	<-older
	all := read(older, 1+writers*each)
	if want := append([]string{before.ID}, live...); fmt.Sprint(all) != fmt.Sprint(want) {
		t.Errorf("from before the group's start:\n%v\nwant:\n%v", all, want)
	}
	cancel()
	for range events {
	}
	for range resumed {
	}
	for range older {
	}
	if n := hub.Watches(); n != 0 {
		t.Errorf("%d watches held after both ended", n)
	}
}
