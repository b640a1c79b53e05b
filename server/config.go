// Package server is Casegraph's HTTP edge: configuration, routes,
// middleware (request ids, access log, deadlines, body limits, panics),
// the gqlgen handler with its limits and error presenter, health, readiness
// and Prometheus metrics.
package server

import (
	"flag"
	"fmt"
	"strconv"
	"time"
)

// Neo4jConfig says where the database is.
type Neo4jConfig struct {
	URI      string
	User     string
	Password string
	Database string
}

// LogConfig says how to log.
type LogConfig struct {
	Level  string // trace, debug, info, warn, error
	Format string // auto (console on a terminal, JSON otherwise), console, json
}

// Config is the serve command's whole configuration.
type Config struct {
	Neo4j Neo4jConfig
	Log   LogConfig

	Addr            string
	RequestTimeout  time.Duration
	PathTimeout     time.Duration
	ShutdownTimeout time.Duration
	MaxBodyBytes    int64
	MaxTokens       int
	MaxDepth        int
	MaxComplexity   int
	QueryCacheSize  int
	Introspection   bool
	GraphiQL        bool
	Migrate         bool
	// TrustedDocuments lets only saved queries and the hashes in
	// TrustedHashesFile run.
	TrustedDocuments  bool
	TrustedHashesFile string
}

// DefaultConfig returns the defaults; the README's configuration table
// explains each choice.
func DefaultConfig() Config {
	return Config{
		Neo4j:           Neo4jConfig{URI: "bolt://127.0.0.1:7687", Database: "neo4j"},
		Log:             LogConfig{Level: "info", Format: "auto"},
		Addr:            "127.0.0.1:8080",
		RequestTimeout:  15 * time.Second,
		PathTimeout:     10 * time.Second,
		ShutdownTimeout: 20 * time.Second,
		MaxBodyBytes:    1 << 20,
		MaxTokens:       5000,
		MaxDepth:        12,
		MaxComplexity:   5000,
		QueryCacheSize:  1000,
		Introspection:   true,
		GraphiQL:        true,
	}
}

// BindNeo4j registers the Neo4j settings on fs, with defaults taken from the
// environment, so that a flag overrides its variable.
func (c *Neo4jConfig) Bind(fs *flag.FlagSet, getenv func(string) string) error {
	b := binder{fs: fs, getenv: getenv}
	b.str(&c.URI, "neo4j-uri", "NEO4J_URI", "Neo4j URI (bolt://, neo4j://, neo4j+s:// ...)")
	b.str(&c.User, "neo4j-user", "NEO4J_USER", "Neo4j user; empty for a database without auth")
	b.str(&c.Password, "neo4j-password", "NEO4J_PASSWORD", "Neo4j password")
	b.str(&c.Database, "neo4j-database", "NEO4J_DATABASE", "Neo4j database name")
	return b.err
}

// Bind registers the log settings on fs.
func (c *LogConfig) Bind(fs *flag.FlagSet, getenv func(string) string) error {
	b := binder{fs: fs, getenv: getenv}
	b.str(&c.Level, "log-level", "CASEGRAPH_LOG_LEVEL", "log level: trace, debug, info, warn or error")
	b.str(&c.Format, "log-format", "CASEGRAPH_LOG_FORMAT", "log format: auto (console on a terminal, else JSON), console or json")
	return b.err
}

// Bind registers every serve setting on fs.
func (c *Config) Bind(fs *flag.FlagSet, getenv func(string) string) error {
	if err := c.Neo4j.Bind(fs, getenv); err != nil {
		return err
	}
	if err := c.Log.Bind(fs, getenv); err != nil {
		return err
	}
	b := binder{fs: fs, getenv: getenv}
	b.str(&c.Addr, "addr", "CASEGRAPH_ADDR", "address to listen on")
	b.duration(&c.RequestTimeout, "request-timeout", "CASEGRAPH_REQUEST_TIMEOUT", "deadline for every request")
	b.duration(&c.PathTimeout, "path-timeout", "CASEGRAPH_PATH_TIMEOUT", "time budget of one path search (shortestPath, paths, neighborhood, connections)")
	b.duration(&c.ShutdownTimeout, "shutdown-timeout", "CASEGRAPH_SHUTDOWN_TIMEOUT", "how long shutdown waits for requests in flight")
	b.int64(&c.MaxBodyBytes, "max-body-bytes", "CASEGRAPH_MAX_BODY_BYTES", "largest request body; larger ones get 413")
	b.int(&c.MaxTokens, "max-tokens", "CASEGRAPH_MAX_TOKENS", "largest GraphQL document, in parser tokens")
	b.int(&c.MaxDepth, "max-depth", "CASEGRAPH_MAX_DEPTH", "deepest selection nesting (introspection excepted)")
	b.int(&c.MaxComplexity, "max-complexity", "CASEGRAPH_MAX_COMPLEXITY", "largest query complexity (rows read: objects, times list sizes; see the README)")
	b.int(&c.QueryCacheSize, "query-cache-size", "CASEGRAPH_QUERY_CACHE_SIZE", "parsed documents kept in the query cache")
	b.bool(&c.Introspection, "introspection", "CASEGRAPH_INTROSPECTION", "allow schema introspection")
	b.bool(&c.GraphiQL, "graphiql", "CASEGRAPH_GRAPHIQL", "serve GraphiQL at /")
	b.bool(&c.Migrate, "migrate", "CASEGRAPH_MIGRATE", "apply the schema once Neo4j answers")
	b.bool(&c.TrustedDocuments, "trusted-documents", "CASEGRAPH_TRUSTED_DOCUMENTS", "run only saved queries and registered document hashes")
	b.str(&c.TrustedHashesFile, "trusted-hashes", "CASEGRAPH_TRUSTED_HASHES", "file of SHA-256 hashes of trusted documents, one a line")
	if b.err != nil {
		return b.err
	}
	return nil
}

// Validate checks values that parse but make no sense.
func (c Config) Validate() error {
	switch {
	case c.RequestTimeout <= 0:
		return fmt.Errorf("request-timeout must be positive")
	case c.PathTimeout <= 0:
		return fmt.Errorf("path-timeout must be positive")
	case c.MaxBodyBytes < 1024:
		return fmt.Errorf("max-body-bytes must be at least 1024")
	case c.MaxTokens < 100 || c.MaxDepth < 2 || c.MaxComplexity < 10:
		return fmt.Errorf("max-tokens (>= 100), max-depth (>= 2) and max-complexity (>= 10) are too low")
	case c.QueryCacheSize < 1:
		return fmt.Errorf("query-cache-size must be at least 1")
	}
	return c.Log.Validate()
}

// Validate checks the log settings.
func (c LogConfig) Validate() error {
	switch c.Format {
	case "auto", "console", "json":
	default:
		return fmt.Errorf("log-format %q: want auto, console or json", c.Format)
	}
	switch c.Level {
	case "trace", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log-level %q: want trace, debug, info, warn or error", c.Level)
	}
	return nil
}

// binder registers flags whose defaults come from environment variables,
// keeping the first bad variable as its error.
type binder struct {
	fs     *flag.FlagSet
	getenv func(string) string
	err    error
}

func (b *binder) env(name string, parse func(string) error) {
	v := b.getenv(name)
	if v == "" || b.err != nil {
		return
	}
	if err := parse(v); err != nil {
		b.err = fmt.Errorf("%s=%q: %v", name, v, err)
	}
}

func (b *binder) str(p *string, flagName, envName, usage string) {
	b.env(envName, func(v string) error { *p = v; return nil })
	b.fs.StringVar(p, flagName, *p, usage+" ($"+envName+")")
}

func (b *binder) int(p *int, flagName, envName, usage string) {
	b.env(envName, func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("want an integer")
		}
		*p = n
		return nil
	})
	b.fs.IntVar(p, flagName, *p, usage+" ($"+envName+")")
}

func (b *binder) int64(p *int64, flagName, envName, usage string) {
	b.env(envName, func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer")
		}
		*p = n
		return nil
	})
	b.fs.Int64Var(p, flagName, *p, usage+" ($"+envName+")")
}

func (b *binder) bool(p *bool, flagName, envName, usage string) {
	b.env(envName, func(v string) error {
		x, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		*p = x
		return nil
	})
	b.fs.BoolVar(p, flagName, *p, usage+" ($"+envName+")")
}

func (b *binder) duration(p *time.Duration, flagName, envName, usage string) {
	b.env(envName, func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("want a duration such as 15s")
		}
		*p = d
		return nil
	})
	b.fs.DurationVar(p, flagName, *p, usage+" ($"+envName+")")
}
