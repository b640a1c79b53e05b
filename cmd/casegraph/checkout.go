package main

// The checkout's instance: `make run` records the settings it started the
// database and the server with in .casegraph.env at the checkout's root,
// and a command run from within the checkout (or the checkout's
// bin/casegraph) takes them where neither a flag nor the environment sets
// them. Without it, a second checkout's `make run` on other ports left the
// command line talking to the first one's server and writing into the
// first one's database.

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// checkoutFileName is the file `make run` writes at the checkout's root
// (git-ignored).
const checkoutFileName = ".casegraph.env"

// checkoutVars are the settings the checkout's file may hold: where the
// database is, the address the server listens on and the local admin
// key's file. Others are ignored, so an older binary reads a newer file.
var checkoutVars = []string{"NEO4J_URI", "CASEGRAPH_ADDR", "CASEGRAPH_LOCAL_KEY"}

// checkout is what the checkout's file says; its zero value is no file.
type checkout struct {
	path string // the file read
	vars map[string]string
}

// findCheckout reads the checkout's file: the first .casegraph.env found
// walking up from the working directory wd, else the one beside the
// binary exe when it is a checkout's bin/casegraph. No file is no error;
// a file that cannot be read or parsed is one.
func findCheckout(wd, exe string) (checkout, error) {
	var dirs []string
	if wd != "" {
		for dir := filepath.Clean(wd); ; {
			dirs = append(dirs, dir)
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if exe != "" && filepath.Base(filepath.Dir(exe)) == "bin" {
		dirs = append(dirs, filepath.Dir(filepath.Dir(exe)))
	}
	for _, dir := range dirs {
		path := filepath.Join(dir, checkoutFileName)
		c, err := readCheckout(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return c, err
	}
	return checkout{}, nil
}

// readCheckout parses a checkout file: NAME=VALUE lines, blank lines and
// # comments.
func readCheckout(path string) (checkout, error) {
	f, err := os.Open(path)
	if err != nil {
		return checkout{}, err
	}
	defer f.Close()
	c := checkout{path: path, vars: map[string]string{}}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return checkout{}, usagef("%s:%d: want NAME=VALUE (make run writes this file; delete it, or run make run again)", path, n)
		}
		c.vars[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return checkout{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// value is the checkout's value of a variable a command reads: the
// file's own settings, and CASEGRAPH_URL, the server's address as a
// client reaches it, from CASEGRAPH_ADDR.
func (c checkout) value(name string) string {
	if c.path == "" {
		return ""
	}
	if name == "CASEGRAPH_URL" {
		return clientURL(c.vars["CASEGRAPH_ADDR"])
	}
	for _, k := range checkoutVars {
		if k == name {
			return c.vars[k]
		}
	}
	return ""
}

// clientURL is the URL a client on this machine reaches a server listening
// on addr at: a wildcard or empty host is reached on loopback.
func clientURL(addr string) string {
	if addr == "" {
		return ""
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// overlay reads a variable from the environment, and, where it is unset,
// from the checkout's file: the order is flag, environment, checkout file,
// default (the flags are parsed over what this returns).
func (c checkout) overlay(getenv func(string) string) func(string) string {
	if c.path == "" {
		return getenv
	}
	return func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return c.value(name)
	}
}

// writingCommands are the commands that write to the database: run with
// a database other than the checkout's, they say so, and write only when
// --yes confirms it.
var writingCommands = map[string]bool{
	"migrate": true, "seed": true, "import": true,
	"key create": true, "key revoke": true, "dataset delete": true,
}

// checkDatabase refuses a writing command whose database (uri, from the
// setting named by from) is not the one the checkout's file names,
// unless confirmed; confirmed, it still says so on stderr.
func (e env) checkDatabase(name, uri, from string, confirmed bool) error {
	want := e.checkout.vars["NEO4J_URI"]
	if e.checkout.path == "" || want == "" || sameURI(uri, want) {
		return nil
	}
	msg := fmt.Sprintf("%s writes to %s (%s), which is not this checkout's database: %s names %s", name, uri, from, e.checkout.path, want)
	if confirmed {
		fmt.Fprintf(e.stderr, "casegraph: warning: %s; writing there, as --yes confirms\n", msg)
		return nil
	}
	return fmt.Errorf("%s; refused: pass --yes to write there anyway, or leave %s out to write to this checkout's", msg, from)
}

// sameURI compares two Neo4j URIs as the same server: localhost is
// 127.0.0.1, and a trailing slash is nothing.
func sameURI(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimRight(strings.TrimSpace(s), "/")
		return strings.Replace(s, "://localhost:", "://127.0.0.1:", 1)
	}
	return norm(a) == norm(b)
}
