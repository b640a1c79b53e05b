package loaders

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// batchSizes is a BatchObserver that keeps every batch's size, by loader.
type batchSizes struct {
	mu    sync.Mutex
	sizes map[string][]int
}

func (b *batchSizes) ObserveBatch(loader string, keys int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sizes[loader] = append(b.sizes[loader], keys)
}

// TestBatchSizesObserved: the loaders of a request made by Middleware tell
// the observer the size of every batch they send; the keys of all the
// batches of a loader are the keys asked for, each once (how they split
// into batches depends on timing, which is not tested).
func TestBatchSizesObserved(t *testing.T) {
	obs := &batchSizes{sizes: map[string][]int{}}
	h := Middleware(stubStore{}, obs, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		Entities(ctx, []string{"a", "b", "c", "a"})
		if _, err := Sources(ctx, []string{"s", "t"}); err != nil {
			t.Error(err)
		}
		// Loaded already: from the request's cache, no batch.
		if _, _, err := Entity(ctx, "b"); err != nil {
			t.Error(err)
		}
		// A saved query's run has fresh loaders, observed as well.
		fresh := With(casegraph.AsOperator(context.Background()), forRequest(ctx).Fresh())
		Entities(fresh, []string{"a"})
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))

	got := map[string]int{}
	for loader, sizes := range obs.sizes {
		for _, n := range sizes {
			got[loader] += n
		}
	}
	if diff := cmp.Diff(map[string]int{"entity": 3 + 1, "source": 2}, got); diff != "" {
		t.Errorf("keys over all batches, by loader (-want +got):\n%s", diff)
	}
}
