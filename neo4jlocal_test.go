package casegraph_test

import (
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// neo4jScript runs neo4j-local/neo4j.sh as another checkout would: a copy
// in a folder of its own, with its own data folder and the given port.
func neo4jScript(t *testing.T, port string, args ...string) (string, error) {
	t.Helper()
	return neo4jScriptIn(t, filepath.Join(t.TempDir(), "neo4j-local"), port, args...)
}

// neo4jScriptIn is neo4jScript in a given folder (its data folder is
// dir/data).
func neo4jScriptIn(t *testing.T, dir, port string, args ...string) (string, error) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("neo4j-local/neo4j.sh")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "neo4j.sh")
	if err := os.WriteFile(script, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NEO4J_BOLT_PORT="+port, "NEO4J_HOME="+filepath.Join(dir, "data"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// freePort returns a port nothing listens on (it just did).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

func TestNeo4jScriptSaysWhoseDatabaseAnswers(t *testing.T) {
	cyphertest.Driver(t) // the test database is up (fails, never skips)
	u, err := url.Parse(cyphertest.URI())
	if err != nil {
		t.Fatal(err)
	}
	dbPort := u.Port()
	if dbPort == "" {
		dbPort = "7687"
	}

	t.Run("another checkout's database", func(t *testing.T) {
		out, err := neo4jScript(t, dbPort, "status")
		if err != nil || !strings.Contains(out, "not this checkout's: ") || !strings.Contains(out, "listens on 127.0.0.1:"+dbPort) {
			t.Errorf("status: err %v, output %q", err, out)
		}
		out, err = neo4jScript(t, dbPort, "log", "5")
		if err != nil || !strings.Contains(out, "this checkout's Neo4j is not running; ") {
			t.Errorf("log: err %v, output %q", err, out)
		}
	})

	t.Run("a process that is not Neo4j", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		_, port, _ := net.SplitHostPort(l.Addr().String())
		out, err := neo4jScript(t, port, "status")
		if err != nil || !strings.Contains(out, "not this checkout's: ") {
			t.Errorf("status: err %v, output %q", err, out)
		}
		if _, lookErr := exec.LookPath("ss"); lookErr == nil {
			if want := "not a Casegraph Neo4j listens on 127.0.0.1:" + port + " (pid " + strconv.Itoa(os.Getpid()); !strings.Contains(out, want) {
				t.Errorf("status = %q, want it to name this test's process: %q", out, want)
			}
		}
	})

	t.Run("nothing", func(t *testing.T) {
		out, err := neo4jScript(t, freePort(t), "status")
		if err == nil || !strings.Contains(out, "neo4j-local: down") {
			t.Errorf("status: err %v (want exit 1), output %q", err, out)
		}
		out, err = neo4jScript(t, freePort(t), "log")
		if err != nil || !strings.Contains(out, "no log in ") {
			t.Errorf("log: err %v, output %q", err, out)
		}
	})
}

// TestNeo4jScriptRefusesAnotherPort: a data folder serves one port; with
// this checkout's Neo4j up on one, `up` on another says so and fails
// instead of claiming the second is up.
func TestNeo4jScriptRefusesAnotherPort(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "neo4j-local")
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	running := freePort(t)
	// A stand-in for the launcher: its command line names its port, as the
	// launcher's does.
	proc := exec.Command("bash", "-c", "sleep 60; true", "-Dneo4j.bolt=127.0.0.1:"+running)
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { proc.Process.Kill(); proc.Wait() }()
	for name, content := range map[string]string{"launcher.pid": strconv.Itoa(proc.Process.Pid), "ready": ""} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := freePort(t)
	out, err := neo4jScriptIn(t, dir, other, "up")
	if err == nil || !strings.Contains(out, "is up on bolt://127.0.0.1:"+running) || !strings.Contains(out, "not on "+other) {
		t.Errorf("up on another port: err %v, output %q", err, out)
	}
	if out, err := neo4jScriptIn(t, dir, running, "up"); err != nil || !strings.Contains(out, "already up on bolt://127.0.0.1:"+running) {
		t.Errorf("up on its own port: err %v, output %q", err, out)
	}
}
