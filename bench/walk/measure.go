package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// settings are measure's flags.
type settings struct {
	bin, files, commit, dataset, out string
	window                           time.Duration
}

// measure serves the instrumented binary over the Neo4j of NEO4J_URI,
// sends each request once to warm up, then measures windows of the same
// length: an idle one, one for each request, and an idle one again; and
// prints the report.
func measure(args []string, stdout, stderr io.Writer) error {
	var s settings
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&s.bin, "bin", "", "the casegraph binary, built by run.sh from an instrumented copy (required)")
	fs.StringVar(&s.files, "files", "", "the copy's list of instrumented files, "+filesList+" (required; "+funcsList+" must be beside it)")
	fs.StringVar(&s.commit, "commit", "", "the commit it was built from, for the report")
	fs.StringVar(&s.dataset, "dataset", "walk-bench", "the dataset the write goes into (deleted before and after)")
	fs.StringVar(&s.out, "out", "", "a folder for the raw data, kept (default: a temporary one, removed)")
	fs.DurationVar(&s.window, "window", time.Second, "each window's length; a request's window runs on for the rest of it after its answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if s.bin == "" || s.files == "" {
		return errors.New("measure: -bin and -files are required")
	}
	handWritten, err := readLines(s.files)
	if err != nil {
		return err
	}
	if s.out == "" {
		if s.out, err = os.MkdirTemp("", "casegraph-walk-"); err != nil {
			return err
		}
		defer os.RemoveAll(s.out)
	}
	windows, err := collect(s, stderr)
	if err != nil {
		return err
	}
	funcs, err := readFuncs(filepath.Join(filepath.Dir(s.files), filepath.Base(funcsList)), handWritten)
	if err != nil {
		return err
	}
	rep, err := analyse(windows, handWritten, funcs)
	if err != nil {
		return err
	}
	rep.commit = s.commit
	rep.print(stdout)
	return nil
}

// window is what one window recorded: its folder of counters and edges,
// the request (empty for an idle one), and the statements the store ran
// in it (casegraph_cypher_queries_total's moves).
type window struct {
	name, dir  string
	statements map[string]float64
}

// collect runs the server and records the windows.
func collect(s settings, stderr io.Writer) (_ []window, err error) {
	say := func(format string, a ...any) { fmt.Fprintf(stderr, "walk: "+format+"\n", a...) }
	control := filepath.Join(s.out, "windows")
	if err := os.RemoveAll(control); err != nil { // an earlier run's files would answer for this one's
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(s.out, "gocover"), 0o755); err != nil {
		return nil, err
	}
	env := cleanEnv(filepath.Join(s.out, "gocover"))
	cli := func(args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		cmd := exec.Command(s.bin, args...)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, &out, &errOut
		err := cmd.Run()
		if err != nil {
			err = fmt.Errorf("casegraph %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
		}
		return out.String(), errOut.String(), err
	}

	token, created, err := cli("key", "create", "--log-level", "warn", "--name", "walk "+s.commit, "--role", "admin", "--cleared")
	if err != nil {
		return nil, err
	}
	token = strings.TrimSpace(token)
	keyID := strings.Fields(strings.TrimPrefix(strings.TrimSpace(created), "created key "))[0]
	defer func() {
		if _, _, rerr := cli("key", "revoke", keyID); rerr != nil {
			say("could not revoke key %s: %v", keyID, rerr)
		}
	}()
	_, _, _ = cli("dataset", "delete", s.dataset) // left by an interrupted run, or absent
	defer func() {
		if _, _, derr := cli("dataset", "delete", s.dataset); derr != nil {
			say("could not delete dataset %s: %v", s.dataset, derr)
		}
	}()

	port, err := freePort()
	if err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	logFile, err := os.Create(filepath.Join(s.out, "serve.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// As make run serves, but: no schema migration at start (its
	// goroutine would run into the windows; the shared database has the
	// schema), and the watch hub's poll at its longest (a minute), so that
	// no tick falls into a window; the idle windows check both.
	srv := exec.Command(s.bin, "serve")
	srv.Env = append(env, "CASEGRAPH_ADDR=127.0.0.1:"+strconv.Itoa(port), "CASEGRAPH_ANONYMOUS=caesar-report",
		"CASEGRAPH_MIGRATE=false", "CASEGRAPH_WATCH_POLL=1m", "WALK_CONTROL="+control)
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		return nil, err
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = srv.Process.Kill()
			<-done
		}
	}()
	c := client{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}}
	if err := c.waitReady(60 * time.Second); err != nil {
		return nil, fmt.Errorf("%w (the server's log: %s)", err, logFile.Name())
	}
	say("serving %s on %s; warming up", s.bin, base)

	if err := c.send(setup, setup.warm(s.dataset)); err != nil {
		return nil, err
	}
	for _, r := range requests {
		if err := c.send(r, r.warm(s.dataset)); err != nil {
			return nil, fmt.Errorf("warm-up: %w", err)
		}
	}
	// Whatever the warm-ups set off settles first.
	time.Sleep(s.window)

	var windows []window
	n := 0
	record := func(name string, send func() error) error {
		n++
		dir := filepath.Join(control, strconv.Itoa(n))
		before, err := c.statements()
		if err != nil {
			return err
		}
		if err := srv.Process.Signal(syscall.SIGUSR1); err != nil {
			return err
		}
		if err := waitFile(filepath.Join(dir, "started")); err != nil {
			return err
		}
		start := time.Now()
		if err := send(); err != nil {
			return err
		}
		time.Sleep(time.Until(start.Add(s.window)))
		if err := srv.Process.Signal(syscall.SIGUSR1); err != nil {
			return err
		}
		if err := waitFile(filepath.Join(dir, "done")); err != nil {
			return err
		}
		after, err := c.statements()
		if err != nil {
			return err
		}
		for k, v := range before {
			if after[k] -= v; after[k] == 0 {
				delete(after, k)
			}
		}
		windows = append(windows, window{name: name, dir: dir, statements: after})
		return nil
	}
	idle := func() error { return nil }
	if err := record("", idle); err != nil {
		return nil, err
	}
	for _, r := range requests {
		say("measuring %s", r.name)
		if err := record(r.name, func() error { return c.send(r, r.measured(s.dataset)) }); err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
	}
	if err := record("", idle); err != nil {
		return nil, err
	}
	return windows, nil
}

// cleanEnv is this process's environment without any CASEGRAPH_ setting
// (the server runs on its defaults but for what collect sets), and with
// GOCOVERDIR, where the binary writes the counters of a whole run at exit
// (unused, but without it each command warns).
func cleanEnv(gocover string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CASEGRAPH_") && !strings.HasPrefix(kv, "GOCOVERDIR=") && !strings.HasPrefix(kv, "WALK_") {
			env = append(env, kv)
		}
	}
	return append(env, "GOCOVERDIR="+gocover)
}

// waitFile waits for the hook's file, and returns the error it holds.
func waitFile(path string) error {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if len(b) > 0 {
			return fmt.Errorf("the server's hook: %s", b)
		}
		return nil
	}
	return fmt.Errorf("the server did not write %s (was it built by run.sh?)", path)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func readLines(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			set[l] = true
		}
	}
	return set, nil
}

// client talks to the server over HTTP, on one kept-alive connection (the
// warm-ups open it, so that no window sees a connection accepted).
type client struct {
	base, token string
	http        *http.Client
}

func (c client) waitReady(limit time.Duration) error {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := c.http.Get(c.base + "/readyz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("the server was not ready within %s", limit)
}

// send posts the request and checks that it answered without errors and
// with the data it asks for.
func (c client) send(r request, vars map[string]any) error {
	body, err := json.Marshal(map[string]any{"query": r.document, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, c.base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	var answer struct {
		Data   map[string]any    `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || resp.StatusCode != http.StatusOK || len(answer.Errors) > 0 {
		return fmt.Errorf("%s: HTTP %d: %s", r.name, resp.StatusCode, raw)
	}
	var v any = answer.Data
	for _, k := range r.want {
		m, _ := v.(map[string]any)
		if v = m[k]; v == nil {
			return fmt.Errorf("%s: no %s in %s", r.name, strings.Join(r.want, "."), raw)
		}
	}
	return nil
}

// statements reads casegraph_cypher_queries_total from /metrics, by
// statement name.
func (c client) statements() (map[string]float64, error) {
	resp, err := c.http.Get(c.base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/metrics: HTTP %d", resp.StatusCode)
	}
	const prefix = `casegraph_cypher_queries_total{query="`
	got := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), prefix)
		if !ok {
			continue
		}
		name, value, ok := strings.Cut(rest, `"} `)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("/metrics: %q: %w", sc.Text(), err)
		}
		got[name] = v
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	_, err = io.Copy(io.Discard, resp.Body) // the connection stays open for the next
	return got, err
}
