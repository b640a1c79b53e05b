package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// runAudit is `casegraph audit`: the audit log, newest first, straight from
// the database (an operator's command).
func runAudit(ctx context.Context, args []string, e env) error {
	var f casegraph.ChangeFilter
	var since string
	var limit int
	flags := func(fs *flag.FlagSet) {
		fs.StringVar(&f.EntityID, "entity", "", "only changes of this entity or relation id")
		fs.StringVar(&f.Dataset, "dataset", "", "only changes of this dataset")
		fs.StringVar(&f.Principal, "principal", "", "only changes by this principal (key:<id>, jwt:<issuer>#<subject>, operator)")
		fs.StringVar(&since, "since", "", "only changes at or after this time (RFC 3339, or a date)")
		fs.IntVar(&limit, "limit", 50, "how many changes to show (at most 1000)")
	}
	return withStore(ctx, "audit", args, e, flags, func(ctx context.Context, store *cypher.Store, _ []string) error {
		if limit < 1 || limit > 1000 {
			return usagef("audit: limit must be between 1 and 1000")
		}
		if since != "" {
			t, err := casegraph.ParseSince(since)
			if err != nil {
				return usageError{fmt.Errorf("audit: %w", err)}
			}
			f.Since = t
		}
		if err := f.Validate(); err != nil {
			return usageError{err}
		}
		changes, more, err := store.Changes(ctx, f, casegraph.Page{First: limit})
		if err != nil {
			return describe(err)
		}
		printChanges(e.stdout, changes)
		if more {
			fmt.Fprintf(e.stderr, "(more: raise --limit, or narrow with --since, --dataset, --entity or --principal)\n")
		}
		return nil
	})
}

func printChanges(w io.Writer, changes []casegraph.Change) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tPRINCIPAL\tOPERATION\tDATASET\tTARGETS\tFIELDS")
	for _, c := range changes {
		fields := make([]string, len(c.Fields))
		for i, f := range c.Fields {
			fields[i] = fmt.Sprintf("%s: %s -> %s", f.Field, f.Old, f.New)
		}
		ds := c.Dataset
		if ds == "" {
			ds = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.At.UTC().Format(time.RFC3339), c.Principal, c.Operation, ds,
			strings.Join(c.Targets, ","), strings.Join(fields, "; "))
	}
	tw.Flush()
}
