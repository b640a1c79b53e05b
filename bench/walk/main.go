// Command walk counts the hand-written files one request passes through,
// from the route to Neo4j and back (bench/README.md, "Request walks"):
//
//	walk instrument DIR      rewrite the copy of the source in DIR for measuring
//	walk measure [flags]     serve a binary built from it, send the requests, report
//
// bench/walk/run.sh does both for a commit: a copy of it from git archive,
// instrument, go build -cover, measure.
package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
)

// The sources of the two packages instrument adds to the copy it rewrites.
var (
	//go:embed walktrace/walktrace.go
	traceSource string
	//go:embed hook/hook.go
	hookSource string
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "walk:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: walk instrument DIR | walk measure [flags] (walk measure -h lists them)")
	}
	switch args[0] {
	case "instrument":
		if len(args) != 2 {
			return fmt.Errorf("usage: walk instrument DIR")
		}
		module, files, err := instrument(args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "walk: instrumented %d hand-written files of %s\n", len(files), module)
		return nil
	case "measure":
		return measure(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown command %q; want instrument or measure", args[0])
}
