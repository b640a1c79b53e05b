// Command casegraph is Casegraph's one binary: it serves the GraphQL API,
// applies the Neo4j schema and loads data.
//
//	casegraph serve     serve the API (and /healthz, /readyz, /metrics)
//	casegraph migrate   apply the schema: constraints and indexes (safe twice)
//	casegraph seed      load the seed dataset (idempotent)
//	casegraph key       create, list and revoke API keys
//	casegraph audit     read the audit log
//
// Configuration comes from the environment, and, run within a checkout
// where `make run` ran, from its .casegraph.env where a variable is unset;
// flags override both. Run `casegraph COMMAND --help` for a command's
// settings.
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
	co, err := locateCheckout(os.Getenv)
	if err == nil {
		err = runIn(ctx, os.Args[1:], os.Getenv, co, os.Stdout, os.Stderr)
	}
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
	// getenv reads the environment, and the checkout's file where a
	// variable is unset.
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	// checkout is the checkout's file (checkout.go), if any.
	checkout checkout
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

// locateCheckout finds the checkout's file from the working directory and
// the binary's place, unless CASEGRAPH_CHECKOUT=off.
func locateCheckout(getenv func(string) string) (checkout, error) {
	switch v := getenv("CASEGRAPH_CHECKOUT"); v {
	case "", "on":
	case "off":
		return checkout{}, nil
	default:
		return checkout{}, usagef("CASEGRAPH_CHECKOUT=%q: want off (ignore the checkout's %s) or on", v, checkoutFileName)
	}
	wd, _ := os.Getwd()
	exe, _ := os.Executable()
	return findCheckout(wd, exe)
}

// run runs a command with no checkout file: the environment and the
// flags alone.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return runIn(ctx, args, getenv, checkout{}, stdout, stderr)
}

// runIn runs a command with the checkout's file beneath the environment.
func runIn(ctx context.Context, args []string, getenv func(string) string, co checkout, stdout, stderr io.Writer) error {
	e := env{getenv: co.overlay(getenv), stdout: stdout, stderr: stderr, checkout: co}
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
	fmt.Fprintln(w, "Within a checkout, a variable neither a flag nor the environment sets comes from")
	fmt.Fprintln(w, "the "+checkoutFileName+" make run wrote (CASEGRAPH_CHECKOUT=off: not read).")
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
