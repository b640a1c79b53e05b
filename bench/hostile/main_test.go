package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLoadCountsAnswersAndErrors: a load counts the answers that came and,
// apart, the refusals and the answers with GraphQL errors.
func TestLoadCountsAnswersAndErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(b), "refused"):
			http.Error(w, "busy", http.StatusTooManyRequests)
		case strings.Contains(string(b), "wrong"):
			io.WriteString(w, `{"errors":[{"message":"no"}],"data":null}`)
		default:
			io.WriteString(w, `{"data":{"entity":null}}`)
		}
	}))
	defer srv.Close()
	client := srv.Client()
	for _, c := range []struct {
		name     string
		bodies   []string
		answered bool
		failed   bool
	}{
		{"answers", []string{"fine"}, true, false},
		{"refusals", []string{"refused"}, false, true},
		{"errors", []string{"wrong"}, false, true},
		{"both", []string{"fine", "wrong"}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var bodies [][]byte
			for _, b := range c.bodies {
				bodies = append(bodies, []byte(b))
			}
			got := load(context.Background(), client, srv.URL, bodies, 2, 100*time.Millisecond)
			if (len(got.took) > 0) != c.answered || (got.errors > 0) != c.failed {
				t.Errorf("%d answers, %d errors; want answers %t, errors %t", len(got.took), got.errors, c.answered, c.failed)
			}
			if got.window < 100*time.Millisecond {
				t.Errorf("the load ran %s, want at least 100ms", got.window)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	r := result{took: []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}, window: time.Second}
	for p, want := range map[float64]time.Duration{0: 1, 0.5: 6, 0.95: 10, 0.99: 10} {
		if got := r.percentile(p); got != want {
			t.Errorf("percentile(%v) = %d, want %d", p, got, want)
		}
	}
	if got := r.rate(); got != 10 {
		t.Errorf("rate = %v, want 10", got)
	}
	if got := (result{window: time.Second}).percentile(0.5); got != 0 {
		t.Errorf("no answers: percentile %d, want 0", got)
	}
}
