// Command casegraph is Casegraph's one binary: it serves the GraphQL API,
// applies the Neo4j schema and loads data.
//
//	casegraph serve     serve the API (and /healthz, /readyz, /metrics)
//	casegraph migrate   apply the schema: constraints and indexes (safe twice)
//	casegraph seed      load the seed dataset (idempotent)
//	casegraph key       create, list and revoke API keys
//	casegraph audit     read the audit log
//
// Configuration comes from the environment; flags override it. Run
// `casegraph COMMAND --help` for a command's settings.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var uerr usageError
		if errors.As(err, &uerr) {
			fmt.Fprintf(os.Stderr, "casegraph: %v\n", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "casegraph: %v\n", err)
		os.Exit(1)
	}
}

// usageError is a bad command line or configuration value: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, env env) error
}

// env is what a command may touch of the outside world.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
}

func commands() []command {
	return []command{
		{"serve", "serve the GraphQL API, /healthz, /readyz and /metrics", runServe},
		{"migrate", "apply the Neo4j schema (constraints and indexes; safe to run twice)", runMigrate},
		{"seed", "load the seed dataset, the graph of the Caesar report (idempotent)", runSeed},
		{"import", "import an NDJSON data file (FILE, or - for standard input) with the operator's rights: every dataset, protected people included", runImport},
		{"export", "export datasets as NDJSON to standard output", runExport},
		{"gen", "generate a synthetic graph as NDJSON (seeded, reproducible)", runGen},
		{"query", "saved queries on a running server: list | show NAME | run NAME", runQuery},
		{"key", "API keys in the database: create | list | revoke ID", runKey},
		{"dataset", "datasets in the database: list | delete NAME", runDataset},
		{"audit", "the audit log, newest first: who changed what, and when", runAudit},
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdout: stdout, stderr: stderr}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			if err := c.run(ctx, args[1:], e); !errors.Is(err, errHelp) {
				return err
			}
			return nil
		}
	}
	return usagef("unknown command %q; run 'casegraph help'", args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Casegraph: a GraphQL knowledge graph of people, organizations, events, documents")
	fmt.Fprintln(w, "and places, with the evidence behind every link.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: casegraph COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'casegraph COMMAND --help' for a command's flags and environment variables.")
}

// parseFlags parses a command's flags. --help prints the usage and returns
// errHelp (exit 0); a bad flag is one line and exit code 2.
func parseFlags(fs *flag.FlagSet, args []string, e env, summary string, maxArgs int) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		arg := ""
		if a := commandArg(fs.Name()); a != "" {
			arg = " " + a
		}
		fmt.Fprintf(e.stdout, "Usage: casegraph %s [flags]%s\n\n%s\n\n", fs.Name(), arg, summary)
		printFlags(e.stdout, fs)
		return errHelp
	}
	if err != nil {
		// The flag package names flags with one dash; the README and the
		// help write two, and either works.
		msg := strings.Replace(err.Error(), "flag provided but not defined: -", "unknown flag --", 1)
		msg = strings.Replace(msg, " for flag -", " for flag --", 1)
		return usagef("%s: %s", fs.Name(), msg)
	}
	if fs.NArg() > maxArgs {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(maxArgs))
	}
	return nil
}

var errHelp = errors.New("help")

// printFlags lists a command's flags as the README writes them, --name,
// each with its default and, when it has one, its environment variable.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Flags:")
	withEnv := false
	fs.VisitAll(func(f *flag.Flag) {
		typ, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if typ != "" {
			head += " " + typ
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			if typ == "string" {
				usage += fmt.Sprintf(" (default %q)", f.DefValue)
			} else {
				usage += fmt.Sprintf(" (default %s)", f.DefValue)
			}
		}
		withEnv = withEnv || strings.Contains(usage, "($")
		fmt.Fprintf(w, "%s\n      %s\n", head, usage)
	})
	if withEnv {
		fmt.Fprintln(w, "\nA flag overrides the environment variable ($NAME) shown with it.")
	}
}

func summaryOf(name string) string {
	for _, c := range commands() {
		if c.name == name {
			return c.summary
		}
	}
	if s, ok := datasetSummaries[name]; ok {
		return s
	}
	return keySummaries[name]
}

// commandArg names the one argument a command takes after its flags, if
// any.
func commandArg(name string) string {
	return map[string]string{"import": "FILE", "key revoke": "ID", "dataset delete": "NAME"}[name]
}
