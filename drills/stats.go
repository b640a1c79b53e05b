//go:build drills

package drills

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Tally counts outcomes by label and keeps their times; safe for
// concurrent use.
type Tally struct {
	mu     sync.Mutex
	counts map[string]int
	times  []time.Duration
}

// Add records one outcome.
func (t *Tally) Add(o Outcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	t.counts[o.Label()]++
	t.times = append(t.times, o.Took)
}

// Count is how many outcomes had this label.
func (t *Tally) Count(label string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts[label]
}

// Total is how many outcomes were recorded.
func (t *Tally) Total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.times)
}

// Counts formats the counts as label=n, by label, for a drill's log line.
func (t *Tally) Counts() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return formatCounts(t.counts)
}

func formatCounts(counts map[string]int) string {
	labels := make([]string, 0, len(counts))
	for l := range counts {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	var b strings.Builder
	for i, l := range labels {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", strings.ToLower(l), counts[l])
	}
	if b.Len() == 0 {
		return "none=0"
	}
	return b.String()
}

// Latency summarises the recorded times.
func (t *Tally) Latency() Latency {
	t.mu.Lock()
	defer t.mu.Unlock()
	return latencyOf(t.times)
}

// Latency is the distribution of some requests' times.
type Latency struct {
	N             int
	P50, P95, Max time.Duration
}

func latencyOf(times []time.Duration) Latency {
	if len(times) == 0 {
		return Latency{}
	}
	s := slices.Clone(times)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[int(q*float64(len(s)-1)+0.5)] }
	return Latency{N: len(s), P50: at(0.50), P95: at(0.95), Max: s[len(s)-1]}
}

// Fields formats the latency for a drill line: prefix_n, prefix_p50_ms, prefix_p95_ms, prefix_max_ms.
func (l Latency) Fields(prefix string) string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("%s_n=%d %s_p50_ms=%s %s_p95_ms=%s %s_max_ms=%s", prefix, l.N, prefix, ms(l.P50), prefix, ms(l.P95), prefix, ms(l.Max))
}
