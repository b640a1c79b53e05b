package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/oidc"
	"github.com/casegraph/casegraph/server"
)

// neo4jConfig says where the database is.
type neo4jConfig struct {
	URI      string
	User     string
	Password string
	Database string
}

// logConfig says how to log.
type logConfig struct {
	Level  string // trace, debug, info, warn, error
	Format string // auto (console on a terminal, JSON otherwise), console, json
}

// serveConfig is the serve command's whole configuration: the binary's own
// settings (the database, the log, the store's path budget, whether to
// migrate) and the server's.
type serveConfig struct {
	Neo4j       neo4jConfig
	Log         logConfig
	PathTimeout time.Duration
	// Admission bounds the statements the store runs at once.
	Admission cypher.Admission
	Migrate   bool
	// Anonymous is what anonymous callers may read: "none", or datasets,
	// comma-separated ("*": every one). Parsed into Server.Anonymous.
	Anonymous string
	// JWT, when its issuer is set, accepts bearer JWTs of that OpenID
	// Connect provider beside API keys.
	JWT oidc.JWTConfig
	// Tracing says where traces go (tracing.go); off by default.
	Tracing tracingConfig
	// MemoryLimit is the Go runtime's soft memory limit in bytes
	// (memory.go); 0 leaves the runtime's own (GOMEMLIMIT, or none).
	MemoryLimit int64
	Server      server.Config
}

func defaultNeo4j() neo4jConfig { return neo4jConfig{URI: "bolt://127.0.0.1:7687", Database: "neo4j"} }
func defaultLog() logConfig     { return logConfig{Level: "info", Format: "auto"} }

func defaultServeConfig() serveConfig {
	return serveConfig{Neo4j: defaultNeo4j(), Log: defaultLog(), PathTimeout: cypher.DefaultPathTimeout, Admission: cypher.DefaultAdmission(), Anonymous: "none", JWT: defaultJWT(), Tracing: defaultTracing(), MemoryLimit: defaultMemoryLimit, Server: defaultServer()}
}

// defaultJWT names the claims' defaults where --help and
// docs/configuration.md show them; the issuer stays empty (JWTs off).
func defaultJWT() oidc.JWTConfig {
	return oidc.JWTConfig{RoleClaim: oidc.DefaultRoleClaim, DatasetsClaim: oidc.DefaultDatasetsClaim, ClearanceClaim: oidc.DefaultClearanceClaim}
}

// bind registers the Neo4j settings on fs, with defaults taken from the
// environment, so that a flag overrides its variable.
func (c *neo4jConfig) bind(fs *flag.FlagSet, getenv func(string) string) error {
	b := binder{fs: fs, getenv: getenv}
	c.register(&b)
	return b.err
}

func (c *neo4jConfig) register(b *binder) {
	b.group("Neo4j", "Every command that reaches the database takes these (serve, migrate, seed, import, export, key, dataset, audit).")
	b.str(&c.URI, "neo4j-uri", "NEO4J_URI", "Neo4j URI: bolt:// for one server, or neo4j:// or neo4j+s:// for a cluster or Aura (routing: reads go to readers, writes to the leader)")
	b.str(&c.User, "neo4j-user", "NEO4J_USER", "Neo4j user; empty for a database without authentication")
	b.str(&c.Password, "neo4j-password", "NEO4J_PASSWORD", "Neo4j password")
	b.str(&c.Database, "neo4j-database", "NEO4J_DATABASE", "Neo4j database name, sent with every transaction (so no home-database lookup)")
}

// bind registers the log settings on fs.
func (c *logConfig) bind(fs *flag.FlagSet, getenv func(string) string) error {
	b := binder{fs: fs, getenv: getenv}
	c.register(&b)
	return b.err
}

func (c *logConfig) register(b *binder) {
	b.group("Log", "Every command takes these; the log goes to standard error.")
	b.str(&c.Level, "log-level", "CASEGRAPH_LOG_LEVEL", "log level: trace, debug, info, warn or error")
	b.str(&c.Format, "log-format", "CASEGRAPH_LOG_FORMAT", "log format: auto (console on a terminal, else JSON lines), console or json")
}

// validate checks the log settings.
func (c logConfig) validate() error {
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

// bind registers every serve setting on fs.
func (c *serveConfig) bind(fs *flag.FlagSet, getenv func(string) string) error {
	b := binder{fs: fs, getenv: getenv}
	c.register(&b)
	return b.err
}

// register binds the serve settings group by group, in the order
// docs/configuration.md lists them (writeConfigMarkdown).
func (c *serveConfig) register(b *binder) {
	c.Neo4j.register(b)
	c.Log.register(b)
	s := &c.Server
	b.group("Listening and shutdown", "")
	b.str(&s.Addr, "addr", "CASEGRAPH_ADDR", "address the API listens on")
	b.str(&s.MetricsAddr, "metrics-addr", "CASEGRAPH_METRICS_ADDR", "serve /metrics on this address alone (then 404 on addr); empty: on addr. In production, a private address (loopback, or an interface only Prometheus reaches), as /metrics names operations and shows load")
	b.duration(&s.RequestTimeout, "request-timeout", "CASEGRAPH_REQUEST_TIMEOUT", "deadline of every request, passed to Neo4j as the transaction timeout")
	b.duration(&s.ShutdownTimeout, "shutdown-timeout", "CASEGRAPH_SHUTDOWN_TIMEOUT", "time for requests in flight on SIGINT or SIGTERM; must be longer than request-timeout. Requests that outlast it are cut off, each named in the log (shutdown: request cut off, with its request id, route and age), and the process still exits 0")
	b.duration(&s.DrainDelay, "drain-delay", "CASEGRAPH_DRAIN_DELAY", "on SIGTERM, how long /readyz says 503 (at once) while requests are still served, before the server stops accepting: set it above your load balancer's probe interval")
	b.duration(&s.WarmUp, "warm-up", "CASEGRAPH_WARM_UP", "before /readyz says ready, the server sends itself the common requests (as callers that read nothing) so that Neo4j plans their statements before a client waits: this long at most, then ready anyway (logged); 0 turns it off. /healthz answers meanwhile")
	b.bool(&c.Migrate, "migrate", "CASEGRAPH_MIGRATE", "apply the schema (as casegraph migrate does) once Neo4j answers")
	b.bool(&s.Web, "web", "CASEGRAPH_WEB", "serve the explorer at / and GraphiQL at /graphiql")

	b.group("Limits of a request", "Why these values: [the operator's guide](operator.md#limits).")
	b.int64(&s.MaxBodyBytes, "max-body-bytes", "CASEGRAPH_MAX_BODY_BYTES", "largest request body; larger ones get 413")
	b.int(&s.MaxTokens, "max-tokens", "CASEGRAPH_MAX_TOKENS", "largest GraphQL document, in parser tokens")
	b.int(&s.MaxDepth, "max-depth", "CASEGRAPH_MAX_DEPTH", "deepest selection (introspection fields excepted)")
	b.int(&s.MaxComplexity, "max-complexity", "CASEGRAPH_MAX_COMPLEXITY", "rows the database may read for one request, aliases included (objects, times list sizes; docs/operator.md)")
	b.int(&s.MaxCostInFlight, "max-cost-in-flight", "CASEGRAPH_MAX_COST_IN_FLIGHT", "complexity (as max-complexity measures it) of the requests being executed at once; a request beyond it waits its turn, never refused (its deadline still holds), so that the memory of the answers being built stays bounded however many clients there are (0: no bound; else at least max-complexity)")
	b.int(&s.QueryCacheSize, "query-cache-size", "CASEGRAPH_QUERY_CACHE_SIZE", "parsed documents kept in the query cache")
	b.int64(&c.MemoryLimit, "memory-limit-bytes", "CASEGRAPH_MEMORY_LIMIT_BYTES", "soft limit of the Go runtime's memory (heap, stacks, runtime), in bytes (default 100 MiB): near it the garbage collector runs more often rather than letting the heap grow further, which bounds resident memory under load (the limit plus the program's code) without refusing any request. Under a limit the collector lets the heap grow to five times what is live (GOGC 400) before it runs, rather than twice (GOGC's default, kept with no limit): less of the CPU goes to collecting. 0: none. GOMEMLIMIT and GOGC, when the process starts with them, win")
	b.duration(&c.PathTimeout, "path-timeout", "CASEGRAPH_PATH_TIMEOUT", "time budget of one path search (shortestPath, paths, neighborhood, connections); one that runs over is TIMEOUT")

	b.group("Admission and rate limits", "")
	a := &c.Admission
	b.int(&a.Statements, "max-statements", "CASEGRAPH_MAX_STATEMENTS", "database statements (other than searches) run at once; beyond it a statement waits admission-wait, then BUSY (0: no bound)")
	b.int(&a.Heavy, "max-heavy-statements", "CASEGRAPH_MAX_HEAVY_STATEMENTS", "path searches, neighbourhoods, connections, common neighbours and full-text searches run at once, in a pool of their own; beyond it, BUSY (0: no bound)")
	b.int(&a.PerRequest, "max-request-statements", "CASEGRAPH_MAX_REQUEST_STATEMENTS", "statements one request runs at once; its others wait their turn, never BUSY (0: no bound)")
	b.duration(&a.Wait, "admission-wait", "CASEGRAPH_ADMISSION_WAIT", "how long a statement waits for a free slot before BUSY")
	b.float(&s.RateLimit, "rate-limit", "CASEGRAPH_RATE_LIMIT", "requests a second per caller (API key, token, or address when anonymous); beyond it, BUSY with 429 and Retry-After (0: off)")
	b.int(&s.RateBurst, "rate-burst", "CASEGRAPH_RATE_BURST", "requests a caller may send at once above the rate")

	b.group("Access", "Who may call, and what they see: [the operator's guide](operator.md#access-control).")
	b.str(&c.Anonymous, "anonymous", "CASEGRAPH_ANONYMOUS", "what requests without credentials may read: none (401), or datasets, comma-separated (* for every one)")
	b.duration(&s.KeyCacheTTL, "key-cache-ttl", "CASEGRAPH_KEY_CACHE_TTL", "how long an API key is trusted before it is read again: a revoked key works for at most this long")
	b.bool(&s.Introspection, "introspection", "CASEGRAPH_INTROSPECTION", "allow schema introspection; false refuses __schema and __type with FORBIDDEN, and validation errors say nothing of the schema")
	b.bool(&s.TrustedDocuments, "trusted-documents", "CASEGRAPH_TRUSTED_DOCUMENTS", "run only saved queries' documents and the registered hashes (trusted-hashes); anything else is FORBIDDEN")
	b.str(&s.TrustedHashesFile, "trusted-hashes", "CASEGRAPH_TRUSTED_HASHES", "file of the SHA-256 hashes of trusted documents, one a line")
	b.str(&s.PersistedDocumentsFile, "persisted-documents", "CASEGRAPH_PERSISTED_DOCUMENTS", "JSON file of document ids to documents (relay-compiler's persistConfig file) that requests may name by documentId or doc_id; read at start, trusted in trusted-documents mode (docs/operator.md#persisted-documents)")
	b.list(&s.CORSOrigins, "cors-origins", "CASEGRAPH_CORS_ORIGINS", "comma-separated origins (scheme://host[:port]) of browser apps that may call the API (docs/frontend.md, \"CORS\"); empty: same-origin only")

	b.group("JWT bearer tokens (OpenID Connect)", "With jwt-issuer set, serve also accepts JWTs of that provider ([the operator's guide](operator.md#jwt-bearer-tokens-openid-connect)).")
	j := &c.JWT
	b.str(&j.Issuer, "jwt-issuer", "CASEGRAPH_JWT_ISSUER", "accept JWTs of this OpenID Connect issuer (exactly the token's iss); empty: API keys only")
	b.str(&j.Audience, "jwt-audience", "CASEGRAPH_JWT_AUDIENCE", "the audience a JWT must name (aud)")
	b.str(&j.JWKSURL, "jwt-jwks-url", "CASEGRAPH_JWT_JWKS_URL", "the issuer's JWKS (jwks_uri): https, or http on loopback")
	b.str(&j.JWKSFile, "jwt-jwks-file", "CASEGRAPH_JWT_JWKS_FILE", "a JWKS file, read at start, instead of a URL")
	b.str(&j.RoleClaim, "jwt-role-claim", "CASEGRAPH_JWT_ROLE_CLAIM", "the top-level claim that holds the role: reader, editor or admin")
	b.str(&j.DatasetsClaim, "jwt-datasets-claim", "CASEGRAPH_JWT_DATASETS_CLAIM", "the top-level claim that holds the datasets granted: an array of strings, or one space-separated string (* for every one)")
	b.str(&j.ClearanceClaim, "jwt-clearance-claim", "CASEGRAPH_JWT_CLEARANCE_CLAIM", "the top-level claim, a JSON boolean, that says whether protected people may be seen")

	b.group("Exports and imports over HTTP", "")
	b.int64(&s.MaxImportBytes, "max-import-bytes", "CASEGRAPH_MAX_IMPORT_BYTES", "largest file POST /datasets/{name}/import takes (413 beyond; larger files go through casegraph import); an NDJSON body is kept in a temporary file in TMPDIR while it is imported")
	b.duration(&s.TransferTimeout, "transfer-timeout", "CASEGRAPH_TRANSFER_TIMEOUT", "deadline of an export or import over HTTP (a dataset's file), instead of request-timeout")
	b.int(&s.MaxTransfers, "max-transfers", "CASEGRAPH_MAX_TRANSFERS", "exports, and imports, over HTTP at once (each, and one of each a caller); one more is BUSY (TOO_MANY_TRANSFERS)")
	b.duration(&s.TransferStall, "transfer-stall", "CASEGRAPH_TRANSFER_STALL", "cut off an export whose reader takes no bytes for this long (its slot and read transaction freed)")

	b.group("Subscriptions", "")
	b.duration(&s.Watch.Poll, "watch-poll", "CASEGRAPH_WATCH_POLL", "how often subscriptions look for changes written by other processes (replicas, the command line); this process's own are seen at once")
	b.int(&s.Watch.PerCaller, "max-watches-per-caller", "CASEGRAPH_MAX_WATCHES_PER_CALLER", "subscriptions one caller may hold at once; beyond it, BUSY (TOO_MANY_WATCHES)")
	b.int(&s.Watch.Total, "max-watches", "CASEGRAPH_MAX_WATCHES", "subscriptions the server holds at once; beyond it, BUSY (TOO_MANY_WATCHES)")

	b.group("Tracing", "Off unless an endpoint is set; OpenTelemetry's own variables and the spans: [the operator's guide](operator.md#tracing).")
	c.Tracing.bind(b)
}

// validate checks values that parse but make no sense, and parses the
// anonymous datasets into the server's settings.
func (c *serveConfig) validate() error {
	if c.PathTimeout <= 0 {
		return fmt.Errorf("path-timeout must be positive")
	}
	if c.MemoryLimit < 0 {
		return fmt.Errorf("memory-limit-bytes must be 0 (none) or positive")
	}
	anonymous, err := parseAnonymous(c.Anonymous)
	if err != nil {
		return err
	}
	c.Server.Anonymous = anonymous
	if c.JWT.Issuer != "" {
		if err := c.JWT.Validate(); err != nil {
			return fmt.Errorf("jwt: %w", err)
		}
	} else if c.JWT.Audience != "" || c.JWT.JWKSURL != "" || c.JWT.JWKSFile != "" {
		return fmt.Errorf("jwt: set jwt-issuer too, or none of the jwt settings")
	}
	if err := c.Server.Validate(); err != nil {
		return err
	}
	if err := c.Admission.Validate(); err != nil {
		return err
	}
	if err := c.Tracing.validate(); err != nil {
		return err
	}
	return c.Log.validate()
}

// binder registers flags whose defaults come from environment variables,
// keeping the first bad variable as its error. It is the one record of the
// settings: --help and docs/configuration.md are rendered from what it
// registers.
type binder struct {
	fs     *flag.FlagSet
	getenv func(string) string
	err    error
	// bound, when set, collects every setting in the order registered,
	// under the group last named.
	bound   *[]setting
	current settingGroup
}

// setting is one registered setting: its flag, its variable and its usage.
type setting struct {
	group settingGroup
	flag  string
	env   string
	usage string
}

// settingGroup is a heading of docs/configuration.md and what it says of
// the settings under it (Markdown, links relative to docs/).
type settingGroup struct{ title, note string }

// group names the group the settings registered next belong to.
func (b *binder) group(title, note string) { b.current = settingGroup{title, note} }

// record keeps a setting when the binder collects them, and gives the
// usage --help shows: the text, then the variable.
func (b *binder) record(flagName, envName, usage string) string {
	if b.bound != nil {
		*b.bound = append(*b.bound, setting{group: b.current, flag: flagName, env: envName, usage: usage})
	}
	return usage + " ($" + envName + ")"
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
	b.fs.StringVar(p, flagName, *p, b.record(flagName, envName, usage))
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
	b.fs.IntVar(p, flagName, *p, b.record(flagName, envName, usage))
}

func (b *binder) float(p *float64, flagName, envName, usage string) {
	b.env(envName, func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("want a number")
		}
		*p = f
		return nil
	})
	b.fs.Float64Var(p, flagName, *p, b.record(flagName, envName, usage))
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
	b.fs.Int64Var(p, flagName, *p, b.record(flagName, envName, usage))
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
	b.fs.BoolVar(p, flagName, *p, b.record(flagName, envName, usage))
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
	b.fs.DurationVar(p, flagName, *p, b.record(flagName, envName, usage))
}

// parseAnonymous reads the anonymous setting: "none" (nil: anonymous
// requests are refused) or a comma-separated list of datasets.
func parseAnonymous(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "none") {
		return nil, nil
	}
	var out []string
	for _, ds := range strings.Split(v, ",") {
		ds = strings.TrimSpace(ds)
		if ds == casegraph.AllDatasets {
			out = append(out, ds)
			continue
		}
		if err := casegraph.ValidateID("anonymous dataset", ds); err != nil {
			return nil, fmt.Errorf("anonymous %q: want none, or datasets separated by commas (* for every one): %w", v, err)
		}
		out = append(out, ds)
	}
	return out, nil
}

// list binds a comma-separated list; blanks around items and empty items
// are dropped.
func (b *binder) list(p *[]string, flagName, envName, usage string) {
	b.env(envName, func(v string) error { *p = splitList(v); return nil })
	b.fs.Var(listFlag{p}, flagName, b.record(flagName, envName, usage))
}

// listFlag is a comma-separated list flag; its default shows in --help.
type listFlag struct{ p *[]string }

func (f listFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strings.Join(*f.p, ",")
}

func (f listFlag) Set(v string) error { *f.p = splitList(v); return nil }

func splitList(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// defaultServer is the server's defaults as `casegraph serve` has them: a
// warm-up (off in server.DefaultConfig, which tests start servers with).
func defaultServer() server.Config {
	c := server.DefaultConfig()
	c.WarmUp = DefaultWarmUp
	return c
}

// DefaultWarmUp is the warm-up budget of `casegraph serve`: on this
// machine the common requests plan in 27 to 29 s at rest on a cleared
// query cache (datasetTimeline alone 7 s), and once ran out of 30 s
// (bench/README.md, "What the cleared warm-up costs"); several times
// that beside a load.
const DefaultWarmUp = 60 * time.Second
