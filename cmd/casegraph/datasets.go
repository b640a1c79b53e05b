package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/casegraph/casegraph/cypher"
)

// datasetSummaries are the summaries of dataset's subcommands.
var datasetSummaries = map[string]string{
	"dataset list":   "list the datasets: name, entities, relations, sources, last recorded change",
	"dataset delete": "delete a dataset (its entities with their relations, and its sources), in batches",
}

func runDataset(ctx context.Context, args []string, e env) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.stdout, `Usage:
  casegraph dataset list
  casegraph dataset delete NAME

Datasets, straight in the database (an operator's command: it needs the
Neo4j settings, not a key). delete runs in batches of at most 10,000
changes and records itself in the audit log; interrupted, run it again.`)
		return nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return withStore(ctx, "dataset list", rest, e, func(*flag.FlagSet) {}, func(ctx context.Context, store *cypher.Store, _ []string) error {
			found, err := store.Datasets(ctx, "")
			if err != nil {
				return describe(err)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tENTITIES\tRELATIONS\tSOURCES\tLAST CHANGE")
			for _, d := range found {
				last := "-"
				if !d.LastChange.IsZero() {
					last = d.LastChange.UTC().Format(time.RFC3339)
				}
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", d.Name, d.Entities, d.Relations, d.Sources, last)
			}
			return tw.Flush()
		})
	case "delete":
		return withStore(ctx, "dataset delete", rest, e, func(*flag.FlagSet) {}, func(ctx context.Context, store *cypher.Store, args []string) error {
			if len(args) != 1 {
				return usagef("dataset delete: name the dataset (casegraph dataset list shows them)")
			}
			d, err := store.RemoveDataset(ctx, args[0])
			if err != nil {
				return describe(err)
			}
			fmt.Fprintf(e.stdout, "deleted dataset %s: %d entities, %d relations, %d sources\n", d.Name, d.Entities, d.Relations, d.Sources)
			return nil
		})
	}
	return usagef("dataset: unknown subcommand %q; want list or delete", sub)
}
