package docs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// The address the examples are written for (make run's), and what the
// examples that write make: the test deletes it before and after, should
// an example that cleans up after itself fail half-way.
const (
	runAddr      = "127.0.0.1:8080"
	notesDataset = "notes"
	// keyFile is where make run keeps its local admin key, relative to the
	// checkout; the examples read it from there.
	keyFile = "neo4j-local/data/local-admin.key"
)

// notesQueries are the saved queries the examples save (and delete), and
// notesViews the views they keep (and delete).
var (
	notesQueries = []string{"who-funds-whom"}
	notesViews   = []string{"caesar-and-the-report"}
)

// TestExamples runs every example of the manual as written, in page
// order, against a checkout like the one `make run` leaves: bin/casegraph
// built, the schema applied, the seed loaded, a local admin key in
// neo4j-local/data/local-admin.key and the server listening with anonymous
// reads of the seed. The only change to an example is the server's
// address, a free port instead of 8080 (so the test runs beside a make
// run); bin/casegraph query finds it in CASEGRAPH_URL.
//
// A ```sh block runs in bash with -euo pipefail, from the checkout's
// root, where curl fails on an HTTP error status (unless an output block
// shows what it prints); it must exit 0, and no line it prints that is a
// JSON object may hold "errors". A ```graphql
// block runs each of its operations as GraphiQL signed in with the local
// key would (a subscription until its first event). A ```json output or
// ```text output block after an example shows what it prints: the JSON
// must be found in the answer (objects may leave keys out), the text's
// lines in the output, in order ("..." skips). Blocks marked norun are
// not run.
func TestExamples(t *testing.T) {
	cyphertest.Driver(t) // skips under make test-unit
	unlock := lockExamples(t)
	defer unlock()

	c := newCheckout(t)
	c.deleteNotes(t)
	c.casegraph(t, "migrate")
	c.casegraph(t, "seed")
	token := c.casegraph(t, "key", "create", "--name", "local admin (docs examples)", "--role", "admin", "--cleared")
	if err := os.WriteFile(filepath.Join(c.root, keyFile), []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	defer func() {
		// cgk_<id>_<secret>
		if parts := strings.Split(strings.TrimSpace(token), "_"); len(parts) == 3 {
			c.casegraph(t, "key", "revoke", parts[1])
		}
	}()
	c.serve(t)
	c.deleteNotesQueries(t)
	defer c.deleteNotes(t)
	defer c.deleteNotesQueries(t)

	ran, skipped := 0, 0
	for _, page := range pages(t) {
		bs := blocks(t, page)
		for i, b := range bs {
			if b.lang != "sh" && b.lang != "graphql" {
				continue
			}
			if !b.runnable() {
				if b.has("norun") {
					skipped++
				}
				continue
			}
			var output *block
			if i+1 < len(bs) && bs[i+1].has("output") {
				output = &bs[i+1]
			}
			ran++
			t.Run(b.String(), func(t *testing.T) {
				switch b.lang {
				case "sh":
					c.runShell(t, b, output)
				case "graphql":
					c.runGraphQL(t, b, output)
				}
			})
		}
	}
	t.Logf("ran %d examples; %d are marked norun", ran, skipped)
}

// lockExamples keeps two runs of the examples over one database (two
// checkouts' make test) from taking turns inside each other: both write
// and delete the notes dataset.
func lockExamples(t *testing.T) func() {
	t.Helper()
	sum := sha256.Sum256([]byte(cyphertest.URI()))
	path := filepath.Join(os.TempDir(), "casegraph-docs-examples-"+hex.EncodeToString(sum[:6])+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// checkout is the directory the examples run in: bin/casegraph, the
// local key, the files examples write; and the server they talk to.
type checkout struct {
	root    string
	env     []string // the examples' environment
	url     string   // the server's, in place of http://127.0.0.1:8080
	addr    string
	token   string
	headers string // where the curl wrapper leaves each answer's headers
	log     *lockedBuffer
}

// lockedBuffer is the server's log, written while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newCheckout(t *testing.T) *checkout {
	t.Helper()
	root := t.TempDir()
	c := &checkout{root: root, headers: filepath.Join(root, ".headers"), log: new(lockedBuffer)}
	for _, dir := range []string{"bin", "neo4j-local/data", ".shim", ".headers"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", filepath.Join(root, "bin", "casegraph"), "./cmd/casegraph")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/casegraph: %v\n%s", err, out)
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Fatal("curl is not installed: the manual's examples use it")
	}
	// curl as the examples call it, failing on an HTTP error status, and
	// keeping the headers (a saved query's NOT_FOUND is a 200 with
	// X-Casegraph-Errors).
	shim := "#!/bin/sh\nfail=--fail-with-body\n[ -n \"$DOCS_CURL_ANY_STATUS\" ] && fail=\nh=$(mktemp \"$DOCS_CURL_HEADERS/h.XXXXXX\")\nexec " + curl + " $fail -D \"$h\" \"$@\"\n"
	if err := os.WriteFile(filepath.Join(root, ".shim", "curl"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.addr = ln.Addr().String()
	ln.Close()
	c.url = "http://" + c.addr
	c.env = []string{
		"PATH=" + filepath.Join(root, ".shim") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + root,
		"LANG=C.UTF-8",
		"TMPDIR=" + os.TempDir(),
		"NEO4J_URI=" + cyphertest.URI(),
		"CASEGRAPH_URL=" + c.url,
		"CASEGRAPH_LOG_LEVEL=warn",
		"DOCS_CURL_HEADERS=" + c.headers,
	}
	for _, k := range []string{"NEO4J_USER", "NEO4J_PASSWORD"} {
		if v := os.Getenv(k); v != "" {
			c.env = append(c.env, k+"="+v)
		}
	}
	return c
}

// casegraph runs bin/casegraph as make run does, and returns its standard
// output.
func (c *checkout) casegraph(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := c.tryCasegraph(args...)
	if err != nil {
		t.Fatalf("bin/casegraph %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	if args[0] == "key" && args[1] == "create" {
		c.token = strings.TrimSpace(out)
	}
	return out
}

func (c *checkout) tryCasegraph(args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(filepath.Join(c.root, "bin", "casegraph"), args...)
	cmd.Dir, cmd.Env = c.root, c.env
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	return string(out), errOut.String(), err
}

// deleteNotes deletes the examples' dataset, if there is one.
func (c *checkout) deleteNotes(t *testing.T) {
	t.Helper()
	if _, stderr, err := c.tryCasegraph("dataset", "delete", notesDataset); err != nil && !strings.Contains(stderr, "no dataset") {
		t.Errorf("bin/casegraph dataset delete %s: %v\n%s", notesDataset, err, stderr)
	}
}

// deleteNotesQueries deletes the saved queries and views the examples
// keep, if they are there.
func (c *checkout) deleteNotesQueries(t *testing.T) {
	t.Helper()
	deletes := map[string]string{}
	for _, name := range notesQueries {
		deletes[name] = `mutation ($name: String!) { deleteSavedQuery(name: $name) { name } }`
	}
	for _, name := range notesViews {
		deletes[name] = `mutation ($name: String!) { deleteSavedView(name: $name) { name } }`
	}
	for name, mutation := range deletes {
		answer := c.post(t, mutation, "", map[string]any{"name": name})
		var v struct {
			Errors []struct {
				Extensions struct{ Code string }
			}
		}
		if err := json.Unmarshal(answer, &v); err != nil || len(v.Errors) > 0 && v.Errors[0].Extensions.Code != "NOT_FOUND" {
			t.Errorf("delete %s: %s", name, answer)
		}
	}
}

// serve starts the server as make run does (anonymous reads of the seed,
// on loopback) and waits until it is ready.
func (c *checkout) serve(t *testing.T) {
	t.Helper()
	cmd := exec.Command(filepath.Join(c.root, "bin", "casegraph"), "serve", "--addr", c.addr)
	cmd.Dir = c.root
	cmd.Env = append(c.env, "CASEGRAPH_ANONYMOUS=caesar-report,demo-force", "CASEGRAPH_LOG_LEVEL=info", "CASEGRAPH_LOG_FORMAT=json",
		"CASEGRAPH_WARM_UP=0") // ready as soon as the database is: the examples' time is not a client's first wait
	cmd.Stdout, cmd.Stderr = c.log, c.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("the server's log:\n%s", tail(c.log.String(), 4000))
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := http.Get(c.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-done:
			t.Fatalf("bin/casegraph serve exited:\n%s", c.log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server is not ready after 90 s:\n%s", tail(c.log.String(), 4000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// localize points an example at the test's server.
func (c *checkout) localize(s string) string {
	return strings.ReplaceAll(s, runAddr, c.addr)
}

func (c *checkout) runShell(t *testing.T, b block, output *block) {
	entries, _ := os.ReadDir(c.headers)
	for _, e := range entries {
		os.Remove(filepath.Join(c.headers, e.Name()))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", c.localize(b.body))
	cmd.Dir, cmd.Env = c.root, c.env
	if output != nil {
		// The output shown is the check, errors and statuses included.
		cmd.Env = append(cmd.Env, "DOCS_CURL_ANY_STATUS=1")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the example fails (%v):\n%s\nstdout:\n%s\nstderr:\n%s", err, b.body, tail(stdout.String(), 3000), tail(stderr.String(), 3000))
	}
	entries, _ = os.ReadDir(c.headers)
	for _, e := range entries {
		h, _ := os.ReadFile(filepath.Join(c.headers, e.Name()))
		if bytes.Contains(bytes.ToLower(h), []byte("\nx-casegraph-errors:")) {
			t.Errorf("an answer of the example reports errors (X-Casegraph-Errors):\n%s\n%s", b.body, h)
		}
	}
	if output != nil {
		compareOutput(t, *output, stdout.String())
		return
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		var v map[string]any
		if json.Unmarshal([]byte(line), &v) == nil && v["errors"] != nil {
			t.Errorf("the example answers errors:\n%s\n%s", b.body, line)
		}
	}
}

func (c *checkout) runGraphQL(t *testing.T, b block, output *block) {
	doc, err := parser.ParseQuery(&ast.Source{Name: b.String(), Input: b.body})
	if err != nil {
		t.Fatalf("the example is not GraphQL: %v\n%s", err, b.body)
	}
	if output != nil && len(doc.Operations) != 1 {
		t.Fatalf("an output block follows a block of %d operations; want one", len(doc.Operations))
	}
	for _, op := range doc.Operations {
		var answer []byte
		if op.Operation == ast.Subscription {
			answer = c.firstEvent(t, b.body, op.Name)
		} else {
			answer = c.post(t, b.body, op.Name, nil)
		}
		if output != nil {
			compareOutput(t, *output, string(answer))
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(answer, &v); err != nil || v["errors"] != nil || v["data"] == nil {
			t.Errorf("operation %q answers %s", op.Name, answer)
		}
	}
}

func (c *checkout) request(t *testing.T, ctx context.Context, doc, operation string, variables map[string]any, accept string) *http.Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": doc, "operationName": operation, "variables": variables})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (c *checkout) post(t *testing.T, doc, operation string, variables map[string]any) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := c.request(t, ctx, doc, operation, variables, "application/json")
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// firstEvent subscribes over server-sent events, as GraphiQL does, and
// returns the first event's payload.
func (c *checkout) firstEvent(t *testing.T, doc, operation string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := c.request(t, ctx, doc, operation, nil, "text/event-stream")
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		out, _ := io.ReadAll(res.Body)
		t.Fatalf("subscription %q: %s: %s", operation, res.Status, out)
	}
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		if data, ok := strings.CutPrefix(lines.Text(), "data:"); ok && strings.TrimSpace(data) != "" {
			return []byte(strings.TrimSpace(data))
		}
	}
	t.Fatalf("subscription %q ended without an event: %v", operation, lines.Err())
	return nil
}
