//go:build drills

package drills

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The drills' Neo4j instances listen from this port up (the shared one on
// it, drill 1's own, when it needs one, on the next), away from 7687,
// where CI's test database runs; DRILLS_BOLT_PORT moves them.
const defaultBasePort = 7695

// env is what the drills share: the repository, the binary, a temporary
// folder, and one Neo4j that every drill which does not stop it uses.
type env struct {
	parent   *testing.T // owns the shared instance's cleanup
	root     string
	bin      string
	tmp      string
	basePort int

	shared      *neo4jInstance
	sharedUp    bool
	reaper      *reaper
	adminToken  string // admin, cleared: writes anywhere, sees everything
	genEntities []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{parent: t, root: root, tmp: t.TempDir(), basePort: defaultBasePort, reaper: newReaper(t)}
	if v := os.Getenv("DRILLS_BOLT_PORT"); v != "" {
		if e.basePort, err = strconv.Atoi(v); err != nil || e.basePort < 1024 || e.basePort > 65000 {
			t.Fatalf("DRILLS_BOLT_PORT=%q: want a port from 1024 to 65000", v)
		}
	}
	// make drills builds bin/casegraph and names it; otherwise build a
	// fresh one here, so that a drill never runs a stale binary. go test
	// runs in drills/: the build runs from the repository's root.
	e.bin = os.Getenv("CASEGRAPH_BIN")
	if e.bin == "" {
		e.bin = filepath.Join(e.tmp, "casegraph")
		build := exec.Command("go", "build", "-o", e.bin, "./cmd/casegraph")
		build.Dir = root
		out, err := build.CombinedOutput()
		if err != nil {
			t.Fatalf("go build ./cmd/casegraph: %v\n%s", err, out)
		}
	} else if !filepath.IsAbs(e.bin) {
		e.bin = filepath.Join(root, e.bin) // relative to the repository, as make names it
	}
	e.shared = e.instance("shared", e.basePort)
	return e
}

// sharedDB returns the shared Neo4j, starting it, with the schema, the
// seed and an admin key, on first use. Its cleanup belongs to the parent
// test: it outlives the drill that started it.
func (e *env) sharedDB(t *testing.T) *neo4jInstance {
	t.Helper()
	if !e.sharedUp {
		e.shared.up(t, e.parent)
		e.casegraph(t, e.shared, "migrate")
		e.prepare(t, e.shared)
		e.sharedUp = true
	}
	return e.shared
}

// prepare loads the seed into a migrated database and makes the admin key.
func (e *env) prepare(t *testing.T, db *neo4jInstance) {
	t.Helper()
	e.casegraph(t, db, "seed")
	e.adminToken = strings.TrimSpace(e.casegraph(t, db, "key", "create", "--name", "drills admin", "--role", "admin", "--cleared"))
}

// readerKey makes a reader key of every dataset: a caller of its own.
func (e *env) readerKey(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(e.casegraph(t, e.sharedDB(t), "key", "create", "--name", name, "--role", "reader", "--datasets", "*"))
}

// casegraph runs a command of the binary against db and returns its
// standard output; a failure ends the test with its output.
func (e *env) casegraph(t *testing.T, db *neo4jInstance, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Dir = e.root
	cmd.Env = cleanEnviron("NEO4J_URI="+db.uri(), "CASEGRAPH_LOG_LEVEL=warn")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("casegraph %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// cleanEnviron is this process's environment without the settings of any
// Neo4j or Casegraph (make exports NEO4J_URI for CI's database, which no
// drill may touch), plus extra.
func cleanEnviron(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "NEO4J_") || strings.HasPrefix(kv, "CASEGRAPH_") {
			continue
		}
		out = append(out, kv)
	}
	// The commands name their databases: the checkout's .casegraph.env
	// (make run's instance) is not theirs.
	out = append(out, "CASEGRAPH_CHECKOUT=off")
	return append(out, extra...)
}

// neo4jInstance is one local Neo4j, run by neo4j-local/neo4j.sh with a
// data folder of its own.
type neo4jInstance struct {
	name string
	sh   string
	home string
	port int
}

func (e *env) instance(name string, port int) *neo4jInstance {
	n := &neo4jInstance{name: name, sh: filepath.Join(e.root, "neo4j-local", "neo4j.sh"),
		home: filepath.Join(e.tmp, "neo4j-"+name), port: port}
	e.reaper.add(func() {
		if pid, err := n.pid(); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return n
}

func (n *neo4jInstance) uri() string  { return "bolt://" + n.addr() }
func (n *neo4jInstance) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(n.port)) }

func (n *neo4jInstance) script(ctx context.Context, verb string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "bash", n.sh, verb)
	cmd.Env = cleanEnviron("NEO4J_HOME="+n.home, "NEO4J_BOLT_PORT="+strconv.Itoa(n.port),
		"NEO4J_HEAP=1g", "NEO4J_PAGECACHE=256m", "NEO4J_START_TIMEOUT=300")
	return cmd.CombinedOutput()
}

// up starts the instance and waits until it answers. The first start
// registers its stop on owner, so that it stops however the drills end.
// neo4j.sh would use whatever already listens on the port as the
// database; a drill refuses instead, as it may kill what it started.
func (n *neo4jInstance) up(t, owner *testing.T) {
	t.Helper()
	if portOpen(n.addr()) {
		t.Fatalf("neo4j %s: something already listens on %s: stop it or set DRILLS_BOLT_PORT", n.name, n.addr())
	}
	if _, err := os.Stat(n.home); errors.Is(err, os.ErrNotExist) {
		owner.Cleanup(func() { n.down(owner) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 330*time.Second)
	defer cancel()
	if out, err := n.script(ctx, "up"); err != nil {
		t.Fatalf("neo4j %s: neo4j.sh up: %v\n%s\n%s", n.name, err, out, n.logTail(40))
	}
}

// down stops the instance (neo4j.sh waits for it, and kills it after a
// minute); on a failed test it shows the end of its log first.
func (n *neo4jInstance) down(t *testing.T) {
	if t.Failed() {
		t.Logf("neo4j %s log (end):\n%s", n.name, n.logTail(30))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if out, err := n.script(ctx, "down"); err != nil {
		t.Errorf("neo4j %s: neo4j.sh down: %v\n%s", n.name, err, out)
	}
}

// kill9 kills the Neo4j process with SIGKILL, as a crash or the OOM killer
// would, and waits until it is gone and its port closed. neo4j.sh's
// launcher.pid is the java process itself (the script execs it).
func (n *neo4jInstance) kill9(t *testing.T) {
	t.Helper()
	pid, err := n.pid()
	if err != nil {
		t.Fatalf("neo4j %s: %v", n.name, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("neo4j %s: kill -9 %d: %v", n.name, pid, err)
	}
	_, err = waitFor(context.Background(), 30*time.Second, 50*time.Millisecond, func() error {
		if alive(pid) || portOpen(n.addr()) {
			return fmt.Errorf("pid %d still alive or port %d open", pid, n.port)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("neo4j %s: after kill -9: %v", n.name, err)
	}
	// A killed launcher leaves its ready file, which would make neo4j.sh
	// up believe it is still up, and, until its new parent reaps it, a
	// zombie that kill -0 finds: neo4j.sh would wait for it instead of
	// starting a new one.
	_ = os.Remove(filepath.Join(n.home, "ready"))
	_ = os.Remove(filepath.Join(n.home, "launcher.pid"))
}

// pid is the launcher's process id, as neo4j.sh wrote it.
func (n *neo4jInstance) pid() (int, error) {
	b, err := os.ReadFile(filepath.Join(n.home, "launcher.pid"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// alive says whether pid runs: neither gone nor a zombie no one reaped
// (the launcher's parent, the script, has exited).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) STATE ...; comm may hold spaces, so look after the ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// logTail is the end of the launcher's output and of Neo4j's debug.log.
func (n *neo4jInstance) logTail(lines int) string {
	var b strings.Builder
	for _, name := range []string{"launcher.log", filepath.Join("logs", "debug.log")} {
		fmt.Fprintf(&b, "== %s\n%s\n", name, tail(filepath.Join(n.home, name), lines))
	}
	return b.String()
}

// tail is the last lines of a file.
func tail(file string, lines int) string {
	f, err := os.Open(file)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	defer f.Close()
	var all []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		all = append(all, sc.Text())
	}
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}

func portOpen(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// freeAddr is a loopback address no one listened on a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// setupWait is how long a drill's set-up and checking requests are tried
// again: on a loaded machine they can miss a short deadline, which is not
// what the drill checks.
const setupWait = 90 * time.Second

// untilOK sends a request until it succeeds, for at most setupWait; then
// the test ends with the last answer.
func untilOK(t *testing.T, what string, do func() Outcome) Outcome {
	t.Helper()
	var o Outcome
	if _, err := waitFor(context.Background(), setupWait, 200*time.Millisecond, func() error {
		if o = do(); !o.OK() {
			return fmt.Errorf("%s: %s", what, o)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return o
}

// proc is a subprocess of a drill, its output in a log file.
type proc struct {
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
	err    error // its exit, once exited is closed
}

// start starts p.cmd with its output in a new file p.log, and reaps it
// when it exits; what names it in a failure.
func (p *proc) start(t *testing.T, what string) {
	t.Helper()
	p.exited = make(chan struct{})
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	if err := p.cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("%s: %v", what, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
}

func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// terminate stops the process, if it runs, with SIGTERM, and with
// SIGKILL after grace; it says whether it had to kill it.
func (p *proc) terminate(grace time.Duration) (killed bool) {
	if p.hasExited() {
		return false
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return false
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return true
	}
}

// server is one `casegraph serve` subprocess.
type server struct {
	proc
	addr string
}

// serve starts `casegraph serve` against uri with the given settings
// (VAR=value) over the drills' defaults, waits until /healthz answers,
// and stops it (SIGTERM, then SIGKILL) when the drill ends.
func (e *env) serve(t *testing.T, uri string, settings ...string) *server {
	t.Helper()
	s := &server{addr: freeAddr(t)}
	s.log = filepath.Join(t.TempDir(), "serve.log")
	defaults := []string{"NEO4J_URI=" + uri, "CASEGRAPH_ADDR=" + s.addr, "CASEGRAPH_LOG_FORMAT=json",
		"CASEGRAPH_LOG_LEVEL=warn", "CASEGRAPH_GRAPHIQL=false",
		// No warm-up: the drills wait for /readyz, and time what follows.
		"CASEGRAPH_WARM_UP=0"}
	s.cmd = exec.Command(e.bin, "serve")
	s.cmd.Dir = e.root
	s.cmd.Env = cleanEnviron(append(defaults, settings...)...)
	s.start(t, "casegraph serve")
	t.Cleanup(func() { s.stop(t) })
	e.reaper.add(func() { _ = s.cmd.Process.Kill() })
	c := NewClient("http://"+s.addr, "", 5*time.Second)
	_, err := waitFor(context.Background(), setupWait, 50*time.Millisecond, func() error {
		if s.hasExited() {
			return fmt.Errorf("serve exited: %v", s.err)
		}
		if o := c.Get(context.Background(), "/healthz"); o.Status != http.StatusOK {
			return fmt.Errorf("/healthz: %s", o)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("casegraph serve did not come up: %v\n%s", err, s.logTail(30))
	}
	return s
}

// client is a caller of this server.
func (s *server) client(token string, timeout time.Duration) *Client {
	return NewClient("http://"+s.addr, token, timeout)
}

func (s *server) stop(t *testing.T) {
	if s.terminate(30 * time.Second) {
		t.Errorf("casegraph serve did not stop within 30 s of SIGTERM; killed")
	}
	if t.Failed() {
		t.Logf("casegraph serve log (end):\n%s", s.logTail(30))
	}
}

func (s *server) logTail(lines int) string { return tail(s.log, lines) }

// kill9 kills the server with SIGKILL, as a crash or the OOM killer
// would (no drain, no answer to what is in flight), and waits until it is
// gone; it returns when the process was seen gone.
func (s *server) kill9(t *testing.T) time.Time {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("casegraph serve: kill -9: %v", err)
	}
	select {
	case <-s.exited:
		return time.Now()
	case <-time.After(10 * time.Second):
		t.Fatalf("casegraph serve: still running 10 s after kill -9")
		return time.Time{}
	}
}

// reaper kills, with SIGKILL, every process the drills started, shortly
// before go test's deadline: a test that times out panics without running
// its cleanups, and Neo4j, in a session of its own (neo4j.sh starts it
// with setsid), would outlive the run and hold its port.
type reaper struct {
	mu    sync.Mutex
	kills []func()
}

func newReaper(t *testing.T) *reaper {
	r := &reaper{}
	if d, ok := t.Deadline(); ok {
		timer := time.AfterFunc(time.Until(d)-15*time.Second, func() {
			fmt.Fprintln(os.Stderr, "drills: go test's deadline is near: killing every Neo4j and server the drills started")
			r.killAll()
		})
		t.Cleanup(func() { timer.Stop() })
	}
	return r
}

func (r *reaper) add(kill func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kills = append(r.kills, kill)
}

func (r *reaper) killAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, kill := range r.kills {
		kill()
	}
}
