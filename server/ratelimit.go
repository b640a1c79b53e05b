package server

// Rate limits: a token bucket per caller (its principal, or its address
// when it is anonymous or failed to sign in).

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	casegraph "github.com/casegraph/casegraph"
)

// rateLimiter holds a token bucket per caller: an API key or token's
// principal, or, for anonymous requests and failed sign-ins, the client's
// address. A caller that spends its burst gets BUSY (429 with Retry-After)
// until its bucket refills; nothing of the request runs.
type rateLimiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	swept   time.Time
}

// rateBucketsMax bounds the buckets kept; beyond it, buckets that have
// refilled (as good as new) are dropped.
const rateBucketsMax = 10000

// newRateLimiter returns a limiter of perSecond requests a second per
// caller with bursts of burst, or nil (no limit) when perSecond is 0.
func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	if perSecond <= 0 {
		return nil
	}
	return &rateLimiter{limit: rate.Limit(perSecond), burst: burst, now: time.Now, buckets: map[string]*rate.Limiter{}}
}

func (l *rateLimiter) bucket(key string, now time.Time) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= rateBucketsMax {
			l.sweep(now)
		}
		b = rate.NewLimiter(l.limit, l.burst)
		l.buckets[key] = b
	}
	return b
}

// sweep drops the buckets that are full again: a new one would be the same.
// When none is (a flood of new callers), it drops them all rather than grow
// without bound. It runs at most once a second.
func (l *rateLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Second {
		clear(l.buckets)
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= rateBucketsMax {
		clear(l.buckets)
	}
}

// take spends one token of key's bucket; when there is none, it returns
// false and how long until there will be.
func (l *rateLimiter) take(key string) (ok bool, wait time.Duration) {
	now := l.now()
	r := l.bucket(key, now).ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// empty says, without spending anything, whether key's bucket has run dry,
// and how long until it has a token again.
func (l *rateLimiter) empty(key string) (bool, time.Duration) {
	now := l.now()
	// Asked of every request: a key that has spent nothing has no bucket,
	// and gets none from being asked.
	l.mu.Lock()
	b, ok := l.buckets[key]
	l.mu.Unlock()
	if !ok {
		return false, 0
	}
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - tokens) / float64(l.limit) * float64(time.Second))
}

// callerKey names a caller's bucket: its principal, or for anonymous
// requests its address (the direct peer's: no proxy header is trusted).
func callerKey(p casegraph.Principal, addr string) string {
	if p.IsAnonymous() {
		return "addr:" + addr
	}
	return p.ID
}

// failureKey names the bucket of failed sign-ins from an address: a client
// that keeps sending unknown keys spends it, and is then refused before its
// keys are looked up.
func failureKey(addr string) string { return "failed:" + addr }

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// writeBusy refuses a request that is over its rate.
func writeBusy(w http.ResponseWriter, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(max(wait, time.Second).Seconds()))))
	writeReasonedErrorCode(w, http.StatusTooManyRequests, casegraph.CodeBusy, "RATE_LIMITED", msg)
}
