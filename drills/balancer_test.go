//go:build drills

package drills

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// balancerConfig is the project's HAProxy configuration, the one an
// operator runs (docs/operator.md, "Deployment on several replicas").
const balancerConfig = "deploy/haproxy.cfg"

// balancerReplicas is how many server lines it has.
const balancerReplicas = 3

// balancer is HAProxy on the project's configuration, in front of some
// `casegraph serve` replicas, on free ports.
type balancer struct {
	proc
	addr      string // where clients send requests
	statsAddr string // HAProxy's statistics (/stats;csv)
}

// haproxyBinary is HAProxy's path: on PATH, or where Debian puts it
// (/usr/sbin, which a user's PATH may lack). A machine without it fails
// the drill: .ci/run installs it.
func haproxyBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/haproxy"); err == nil {
		return "/usr/sbin/haproxy"
	}
	t.Fatal("haproxy not found: apt-get install haproxy (.ci/run installs it)")
	return ""
}

// balance starts HAProxy in front of the replicas, checks its
// configuration first (haproxy -c), waits until its health checks
// (/readyz) see every replica up, and stops it when the drill ends.
func (e *env) balance(t *testing.T, replicas []*server) *balancer {
	t.Helper()
	if len(replicas) != balancerReplicas {
		t.Fatalf("%s has %d replicas, not %d", balancerConfig, balancerReplicas, len(replicas))
	}
	bin := haproxyBinary(t)
	b := &balancer{addr: freeAddr(t), statsAddr: freeAddr(t)}
	settings := []string{"CASEGRAPH_LB_ADDR=" + b.addr, "CASEGRAPH_LB_STATS_ADDR=" + b.statsAddr}
	for i, r := range replicas {
		settings = append(settings, fmt.Sprintf("CASEGRAPH_REPLICA_%d=%s", i+1, r.addr))
	}
	cfg := filepath.Join(e.root, balancerConfig)
	check := exec.Command(bin, "-c", "-f", cfg)
	check.Env = cleanEnviron(settings...)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c -f %s: %v\n%s", balancerConfig, err, out)
	}

	// -db: in the foreground, its log (to stdout) in the file.
	b.log = filepath.Join(t.TempDir(), "haproxy.log")
	b.cmd = exec.Command(bin, "-db", "-f", cfg)
	b.cmd.Env = cleanEnviron(settings...)
	b.start(t, "haproxy")
	e.reaper.add(func() { _ = b.cmd.Process.Kill() })
	t.Cleanup(func() { b.stop(t) })
	if _, err := b.waitServers(t, setupWait, func(up int) bool { return up == len(replicas) }); err != nil {
		t.Fatalf("haproxy: the replicas are not all up: %v\n%s", err, tail(b.log, 30))
	}
	return b
}

// client is a caller of the replicas through the balancer.
func (b *balancer) client(token string, timeout time.Duration) *Client {
	return NewClient("http://"+b.addr, token, timeout)
}

// stats reads HAProxy's statistics of the replicas' backend: each
// server's row (and the backend's own, "BACKEND"), by column name.
func (b *balancer) stats(ctx context.Context) (map[string]map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+b.statsAddr+"/stats;csv", nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /stats;csv: HTTP %d", res.StatusCode)
	}
	rows, err := csv.NewReader(res.Body).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("GET /stats;csv: %w", err)
	}
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, fmt.Errorf("GET /stats;csv: no header")
	}
	header := rows[0]
	header[0] = strings.TrimPrefix(header[0], "# ")
	out := map[string]map[string]string{}
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, v := range row {
			if i < len(header) {
				m[header[i]] = v
			}
		}
		if m["pxname"] == "replicas" {
			out[m["svname"]] = m
		}
	}
	return out, nil
}

// upServers is how many replicas HAProxy's health checks hold up.
func (b *balancer) upServers(ctx context.Context) (int, error) {
	st, err := b.stats(ctx)
	if err != nil {
		return 0, err
	}
	up := 0
	for name, row := range st {
		if name != "BACKEND" && strings.HasPrefix(row["status"], "UP") {
			up++
		}
	}
	return up, nil
}

// waitServers polls the statistics until want holds of the number of
// replicas up, for at most wait, and returns how long that took.
func (b *balancer) waitServers(t *testing.T, wait time.Duration, want func(up int) bool) (time.Duration, error) {
	t.Helper()
	return waitFor(context.Background(), wait, 50*time.Millisecond, func() error {
		if b.hasExited() {
			return fmt.Errorf("haproxy exited: %v", b.err)
		}
		up, err := b.upServers(context.Background())
		if err != nil {
			return err
		}
		if !want(up) {
			return fmt.Errorf("%d replicas up", up)
		}
		return nil
	})
}

// stop ends HAProxy (SIGTERM: a hard stop), then kills it; on a failed
// test it shows the end of its log.
func (b *balancer) stop(t *testing.T) {
	b.terminate(10 * time.Second)
	if t.Failed() {
		t.Logf("haproxy log (end):\n%s", tail(b.log, 30))
	}
}

// balancerRefusals is the first n lines of HAProxy's log that are not
// an access line of a 200 that ended normally (option httplog: client,
// date, frontend, backend/server, timers, status, bytes, cookies, the
// termination state, "----" when nothing broke): other answers, answers
// cut off (a 200 whose replica died while sending it is SD--), and its
// own messages (a server down).
func balancerRefusals(log string, n int) string {
	var out []string
	for _, line := range strings.Split(tail(log, 100000), "\n") {
		if len(out) == n {
			break
		}
		if m := accessLine.FindStringSubmatch(line); line != "" && (m == nil || m[1] != "200" || m[2] != "----") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

var accessLine = regexp.MustCompile(`\] \S+ \S+ \S+ (-?\d+) \S+ \S+ \S+ (\S{4}) `)
