// Package benchdb opens the Neo4j driver the bench tools (bench,
// bench/coldstart, bench/pathload, bench/rawimport) talk to the database
// with: one way to name the database on their command lines, and the
// same driver settings and connection check for each.
package benchdb

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"

	"github.com/casegraph/casegraph/cypher"
)

// Flags are a tool's Neo4j flags: -neo4j (default $NEO4J_URI, else the
// local Neo4j), -neo4j-user and -neo4j-password (default $NEO4J_USER and
// $NEO4J_PASSWORD; no user, no authentication, as `make neo4j-up`'s).
type Flags struct {
	URI, User, Password string
}

// Register adds the flags to fs, named uriFlag (bench's is -neo4j-uri,
// the others' -neo4j), with their defaults from getenv.
func (f *Flags) Register(fs *flag.FlagSet, uriFlag string, getenv func(string) string) {
	uri := getenv("NEO4J_URI")
	if uri == "" {
		uri = "bolt://127.0.0.1:7687"
	}
	fs.StringVar(&f.URI, uriFlag, uri, "Neo4j's Bolt URI (NEO4J_URI)")
	fs.StringVar(&f.User, "neo4j-user", getenv("NEO4J_USER"), "Neo4j user, empty for none (NEO4J_USER)")
	fs.StringVar(&f.Password, "neo4j-password", getenv("NEO4J_PASSWORD"), "Neo4j password (NEO4J_PASSWORD)")
}

// Open opens a driver to the database with Casegraph's driver settings
// (cypher.DriverConfig) and checks that it answers; the caller closes it.
func (f Flags) Open(ctx context.Context) (neo4j.DriverWithContext, error) {
	if f.URI == "" {
		return nil, errors.New("no Neo4j URI: set -neo4j or NEO4J_URI")
	}
	auth := neo4j.NoAuth()
	if f.User != "" {
		auth = neo4j.BasicAuth(f.User, f.Password, "")
	}
	driver, err := neo4j.NewDriverWithContext(f.URI, auth, func(c *config.Config) { cypher.DriverConfig(c) })
	if err != nil {
		return nil, fmt.Errorf("neo4j %q: %w", f.URI, err)
	}
	if err := driver.VerifyConnectivity(ctx); err != nil {
		driver.Close(ctx)
		return nil, fmt.Errorf("neo4j at %s: %w", f.URI, err)
	}
	return driver, nil
}
