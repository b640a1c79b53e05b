package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// keySummaries are the summaries of key's subcommands.
var keySummaries = map[string]string{
	"key create": "create an API key and print its token (shown this once; the database keeps only a hash)",
	"key list":   "list the API keys: id, name, role, datasets, clearance, created, last used, revoked",
	"key revoke": "revoke an API key for good",
}

// keyOperator is who the command line acts as in a key's createdBy: the
// operator, who reaches the database directly.
const keyOperator = "operator"

func runKey(ctx context.Context, args []string, e env) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.stdout, `Usage:
  casegraph key create --name NAME --role reader|editor|admin [--datasets a,b | --datasets '*'] [--cleared] [--out FILE]
  casegraph key list
  casegraph key revoke ID

API keys, straight in the database (an operator's command: it needs the
Neo4j settings, not a key). A request sends a key as
"Authorization: Bearer TOKEN"; the token is printed once, by create.`)
		return nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "create":
		var k casegraph.NewAPIKey
		var role, datasets, out string
		flags := func(fs *flag.FlagSet) {
			fs.StringVar(&k.Name, "name", "", "who or what the key is for (required)")
			fs.StringVar(&role, "role", "", "reader, editor or admin (required)")
			fs.StringVar(&datasets, "datasets", "", "the datasets granted, comma-separated, or * for every one")
			fs.BoolVar(&k.Cleared, "cleared", false, "may see protected people")
			fs.StringVar(&out, "out", "", "write the token to this file (mode 0600, replaced whole) instead of standard output")
		}
		return withStore(ctx, "key create", rest, e, flags, func(ctx context.Context, store *cypher.Store, _ []string) error {
			k.Role = casegraph.Role(role)
			for _, ds := range strings.Split(datasets, ",") {
				if ds = strings.TrimSpace(ds); ds != "" {
					k.Datasets = append(k.Datasets, ds)
				}
			}
			key, token, err := store.CreateAPIKey(ctx, k, keyOperator)
			if err != nil {
				return describe(err)
			}
			if out != "" {
				if err := writeToken(out, token); err != nil {
					// The key exists and no one holds its token: revoke it.
					if _, rerr := store.RevokeAPIKey(ctx, key.ID); rerr != nil {
						return fmt.Errorf("key create: %w; the key %s was made, and could not be revoked: %v", err, key.ID, describe(rerr))
					}
					return fmt.Errorf("key create: %w (the key %s was made and revoked)", err, key.ID)
				}
				fmt.Fprintf(e.stderr, "created key %s (%s, %s); its token is in %s (the database keeps only a hash)\n", key.ID, key.Name, describeGrant(key), out)
				return nil
			}
			fmt.Fprintf(e.stderr, "created key %s (%s, %s); its token, shown this once, on standard output:\n", key.ID, key.Name, describeGrant(key))
			fmt.Fprintln(e.stdout, token)
			return nil
		})
	case "list":
		return withStore(ctx, "key list", rest, e, func(*flag.FlagSet) {}, func(ctx context.Context, store *cypher.Store, _ []string) error {
			keys, err := store.APIKeys(ctx)
			if err != nil {
				return describe(err)
			}
			printKeys(e.stdout, keys)
			return nil
		})
	case "revoke":
		return withStore(ctx, "key revoke", rest, e, func(*flag.FlagSet) {}, func(ctx context.Context, store *cypher.Store, args []string) error {
			if len(args) != 1 {
				return usagef("key revoke: name the key's id (casegraph key list shows them)")
			}
			key, err := store.RevokeAPIKey(ctx, args[0])
			if err != nil {
				return describe(err)
			}
			fmt.Fprintf(e.stdout, "revoked key %s (%s) at %s\n", key.ID, key.Name, key.RevokedAt.UTC().Format(time.RFC3339))
			return nil
		})
	}
	return usagef("key: unknown subcommand %q; want create, list or revoke", sub)
}

func describeGrant(k casegraph.APIKey) string {
	grant := string(k.Role)
	if len(k.Datasets) > 0 {
		grant += " of " + strings.Join(k.Datasets, ", ")
	}
	if k.Cleared {
		grant += ", cleared"
	}
	return grant
}

func printKeys(w io.Writer, keys []casegraph.APIKey) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tROLE\tDATASETS\tCLEARED\tCREATED\tLAST USED\tREVOKED")
	when := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, k := range keys {
		ds := strings.Join(k.Datasets, ",")
		if ds == "" {
			ds = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\t%s\t%s\n", k.ID, k.Name, k.Role, ds, k.Cleared, when(k.CreatedAt), when(k.LastUsedAt), when(k.RevokedAt))
	}
	tw.Flush()
}

// writeToken writes a token to path, readable by its owner alone, whole
// or not at all (a temporary file beside it, renamed over it).
func writeToken(path, token string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing
	if _, err := fmt.Fprintln(tmp, token); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
