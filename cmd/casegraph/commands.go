package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"
	"github.com/rs/zerolog"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/oidc"
	"github.com/casegraph/casegraph/server"
)

func runServe(ctx context.Context, args []string, e env) error {
	cfg := defaultServeConfig()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	if err := cfg.bind(fs, e.getenv); err != nil {
		return usageError{err}
	}
	if err := parseFlags(fs, args, e, summaryOf("serve"), 0); err != nil {
		return err
	}
	if err := cfg.validate(); err != nil {
		return usageError{err}
	}
	log := newLogger(cfg.Log, e.stderr)
	applyGCPercent(applyMemoryLimit(cfg.MemoryLimit, log), e.getenv)
	metrics := server.NewMetrics()
	tp, stopTracing, err := newTracerProvider(ctx, cfg.Tracing)
	if err != nil {
		return usageError{err}
	}
	defer stopTracing()
	storeOpts := cypher.Options{Observer: metrics, PathTimeout: cfg.PathTimeout, Admission: cfg.Admission}
	if tp != nil {
		cfg.Server.Tracer = tp
		storeOpts.Tracer = tp.Tracer("github.com/casegraph/casegraph/cypher")
		log.Info().Str("endpoint", redactedURL(cfg.Tracing.Endpoint)).Float64("sample", cfg.Tracing.Sample).Msg("tracing over OTLP")
	}
	driver, store, err := openStore(cfg.Neo4j, storeOpts, cypher.DriverConfig)
	if err != nil {
		return err
	}
	defer driver.Close(context.Background())
	// Readiness asks on a driver of its own, with one connection, so that
	// clients that fill the store's pool cannot make the server look down.
	probeDriver, probe, err := openStore(cfg.Neo4j, cypher.Options{}, cypher.ProbeDriverConfig)
	if err != nil {
		return err
	}
	defer probeDriver.Close(context.Background())
	cfg.Server.Readiness = probe

	go connect(ctx, store, log, cfg.Migrate)

	if cfg.JWT.Issuer != "" {
		verifier, err := oidc.NewJWTVerifier(cfg.JWT, nil, log) // each fetch is bounded by the config's FetchTimeout
		if err != nil {
			return usageError{err}
		}
		cfg.Server.Tokens = verifier
		log.Info().Str("issuer", cfg.JWT.Issuer).Msg("accepting JWTs")
	}
	srv, err := server.New(cfg.Server, log, store, metrics)
	if err != nil {
		return usageError{err}
	}
	return srv.ListenAndServe(ctx)
}

// connect waits, with backoff, until Neo4j answers, then applies the schema
// when asked to. Meanwhile the server runs and /readyz says 503.
func connect(ctx context.Context, store *cypher.Store, log zerolog.Logger, migrate bool) {
	if err := waitForNeo4j(ctx, store, log, 0); err != nil {
		return
	}
	log.Info().Msg("Neo4j answers")
	if !migrate {
		return
	}
	for backoff := time.Second; ; backoff = min(2*backoff, 30*time.Second) {
		ms, err := store.Migrate(casegraph.AsOperator(ctx)) // the service's own work
		if err == nil {
			log.Info().Int("statements", len(ms)).Msg("schema applied")
			return
		}
		log.Warn().Err(err).Dur("retry_in", backoff).Msg("could not apply the schema")
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
	}
}

// waitForNeo4j pings Neo4j with exponential backoff until it answers, ctx
// ends, or (when limit > 0) limit has passed.
func waitForNeo4j(ctx context.Context, store *cypher.Store, log zerolog.Logger, limit time.Duration) error {
	start := time.Now()
	for backoff := 250 * time.Millisecond; ; backoff = min(2*backoff, 15*time.Second) {
		pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := store.Ping(pingCtx)
		cancel()
		if err == nil {
			return nil
		}
		if limit > 0 && time.Since(start)+backoff > limit {
			return fmt.Errorf("Neo4j did not answer within %s: %w", limit, err)
		}
		log.Warn().Err(err).Dur("retry_in", backoff).Msg("waiting for Neo4j")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}

// reservedSample is how many of the reserved ids held migrate names.
const reservedSample = 5

func runMigrate(ctx context.Context, args []string, e env) error {
	return withStore(ctx, "migrate", args, e, nil, func(ctx context.Context, store *cypher.Store, _ []string) error {
		ms, err := store.Migrate(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", describe(err))
		}
		created := 0
		for _, m := range ms {
			if m.Created {
				created++
				fmt.Fprintf(e.stdout, "created %s (%s)\n", m.Name, m.File)
			}
		}
		fmt.Fprintf(e.stdout, "schema: %d of %d constraints and indexes created, %d already present\n", created, len(ms), len(ms)-created)
		n, err := store.BackfillSearch(ctx)
		if err != nil {
			return fmt.Errorf("migrate: search fields: %w", describe(err))
		}
		if n > 0 {
			fmt.Fprintf(e.stdout, "wrote the search fields of %d entities\n", n)
		}
		counted, err := store.BackfillDegree(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: degrees: %w", describe(err))
		}
		if counted > 0 {
			fmt.Fprintf(e.stdout, "counted the relations (degree) of %d entities\n", counted)
		}
		registered, err := store.BackfillRelationIDs(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: relation ids: %w", describe(err))
		}
		if registered > 0 {
			fmt.Fprintf(e.stdout, "registered the ids of %d relations\n", registered)
		}
		ends, err := store.BackfillProtectedEnds(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: protected ends: %w", describe(err))
		}
		if ends > 0 {
			fmt.Fprintf(e.stdout, "recorded whether an end is protected on %d relations\n", ends)
		}
		registryEnds, err := store.BackfillRelationEnds(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: relation registry ends: %w", describe(err))
		}
		if registryEnds > 0 {
			fmt.Fprintf(e.stdout, "recorded the ends, page keys and element ids of %d relations in the relation id registry\n", registryEnds)
		}
		cited, err := store.MigrateCitations(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: citations: %w", describe(err))
		}
		if cited.Relations > 0 || cited.Entities > 0 {
			fmt.Fprintf(e.stdout, "citations: %d relations and %d entities now cite each of their sources; "+
				"%d relations kept their quote (on the first source's citation; %d of them cite more than one source, whose others have none)\n",
				cited.Relations, cited.Entities, cited.Quoted, cited.QuotedOfSeveral)
		}
		citing, err := store.BackfillCitingDatasets(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: citing datasets: %w", describe(err))
		}
		if citing > 0 {
			fmt.Fprintf(e.stdout, "recorded the datasets citing each of %d sources\n", citing)
		}
		// Ids that no write creates any more may be held by data written
		// before: said, not fixed (renaming an id is the data's owner's
		// call), and no reason to fail.
		for _, report := range []struct {
			count func(context.Context, int) (int64, []string, error)
			what  string
		}{
			{store.ReservedIDs, "entities, relations or sources hold an id of a form reserved for the API's own (" +
				strings.Join(casegraph.ReservedIDPrefixes(), "..., ") + "...), which no write creates any more; they can be read and deleted, not written"},
			{func(ctx context.Context, n int) (int64, []string, error) { return store.SharedRelationIDs(ctx, nil, n) }, "relation ids are each held by more than one relation, which no write allows any more; relation(id) and unlink find one of them: delete or rename the others"},
		} {
			held, sample, err := report.count(ctx, reservedSample)
			if err != nil {
				return fmt.Errorf("migrate: %w", describe(err))
			}
			if held > int64(len(sample)) {
				sample = append(sample, "...")
			}
			if held > 0 {
				fmt.Fprintf(e.stderr, "warning: %d %s: %s\n", held, report.what, strings.Join(sample, ", "))
			}
		}
		return nil
	})
}

func runSeed(ctx context.Context, args []string, e env) error {
	return withStore(ctx, "seed", args, e, nil, func(ctx context.Context, store *cypher.Store, _ []string) error {
		// The seed, and beside it the fictional force of the command
		// chain's walkthrough.
		for _, seed := range []struct {
			name string
			data io.Reader
		}{{dataset.SeedName, dataset.Seed()}, {dataset.ForceDataset, dataset.DemoForce()}} {
			batch, err := dataset.Read(seed.data)
			if err != nil {
				return fmt.Errorf("seed dataset %s: %w", seed.name, err)
			}
			st, err := dataset.Import(ctx, batch, store, dataset.Options{})
			if err != nil {
				return fmt.Errorf("seed %s: %w", seed.name, describe(err))
			}
			if err := dataset.RecordImport(ctx, store, batch, st); err != nil {
				return describe(err)
			}
			printStats(e.stdout, "seeded dataset "+seed.name+":", st)
		}
		examples, err := dataset.SeedSavedQueries()
		if err != nil {
			return err
		}
		// The examples are checked as saveQuery checks any saved query's document.
		runner := server.NewRunner(server.DefaultConfig(), store)
		for _, q := range examples {
			if err := runner.Check(ctx, q.Document, q.DefaultVariables); err != nil {
				return fmt.Errorf("seed query %s: %w", q.Name, err)
			}
			// What was there, to say whether this run saved anything.
			before, err := store.SavedQuery(ctx, q.Name, 0)
			if err != nil && casegraph.ErrorCode(err) != casegraph.CodeNotFound {
				return fmt.Errorf("seed query %s: %w", q.Name, describe(err))
			}
			saved, err := store.SaveQuery(ctx, q)
			if err != nil {
				return fmt.Errorf("seed query %s: %w", q.Name, describe(err))
			}
			if before.Version == saved.Version {
				fmt.Fprintf(e.stdout, "saved query %s: version %d, its document already saved\n", saved.Name, saved.Version)
			} else {
				fmt.Fprintf(e.stdout, "saved query %s: version %d, new\n", saved.Name, saved.Version)
			}
		}
		return nil
	})
}

// withStore parses the Neo4j and log flags of a one-shot command (and the
// command's own, which flags registers), waits up to --wait for Neo4j, and
// runs fn with the arguments left after the flags (at most one).
func withStore(ctx context.Context, name string, args []string, e env, flags func(*flag.FlagSet),
	fn func(ctx context.Context, store *cypher.Store, args []string) error,
) error {
	neo, logCfg := defaultNeo4j(), defaultLog()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if err := neo.bind(fs, e.getenv); err != nil {
		return usageError{err}
	}
	if err := logCfg.bind(fs, e.getenv); err != nil {
		return usageError{err}
	}
	wait := fs.Duration("wait", 60*time.Second, "how long to wait for Neo4j to answer")
	timeout := fs.Duration("timeout", 2*time.Hour, "deadline for the whole command")
	var yes bool
	if writingCommands[name] {
		fs.BoolVar(&yes, "yes", false, "write to the database named though it is not the one this checkout's "+checkoutFileName+" names (make run's)")
	}
	if flags != nil {
		flags(fs)
	}
	maxArgs := 0
	if flags != nil && commandArg(name) != "" {
		maxArgs = 1
	}
	if err := parseFlags(fs, args, e, summaryOf(name), maxArgs); err != nil {
		return err
	}
	if err := logCfg.validate(); err != nil {
		return usageError{err}
	}
	if writingCommands[name] {
		from := "$NEO4J_URI"
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "neo4j-uri" {
				from = "--neo4j-uri"
			}
		})
		if err := e.checkDatabase(name, neo.URI, from, yes); err != nil {
			return err
		}
	}
	log := newLogger(logCfg, e.stderr)
	driver, store, err := openStore(neo, cypher.Options{}, cypher.DriverConfig)
	if err != nil {
		return err
	}
	defer driver.Close(context.Background())

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := waitForNeo4j(ctx, store, log, *wait); err != nil {
		return describe(err)
	}
	// The operator's commands act as the operator: every dataset,
	// protected people included, and the audit log says "operator".
	return fn(casegraph.AsOperator(ctx), store, fs.Args())
}

// describe adds the cause of a coded error to its message: the command line
// is an operator's tool, and the operator may read what clients may not.
func describe(err error) error {
	var coded *casegraph.Error
	if errors.As(err, &coded) && coded.Cause != nil {
		return fmt.Errorf("%w (%v)", err, coded.Cause)
	}
	return err
}

func openStore(cfg neo4jConfig, opts cypher.Options, configure func(*config.Config)) (neo4j.DriverWithContext, *cypher.Store, error) {
	auth := neo4j.NoAuth()
	if cfg.User != "" {
		auth = neo4j.BasicAuth(cfg.User, cfg.Password, "")
	}
	driver, err := neo4j.NewDriverWithContext(cfg.URI, auth, configure)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("neo4j-uri %q: %v", cfg.URI, err)}
	}
	opts.Database = cfg.Database
	store, err := cypher.NewStore(driver, opts)
	if err != nil {
		driver.Close(context.Background())
		return nil, nil, err
	}
	return driver, store, nil
}

// newLogger builds the process's one logger: console output on a terminal,
// JSON lines otherwise (or as configured).
func newLogger(cfg logConfig, w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.Level)
	if err != nil {
		level = zerolog.InfoLevel
	}
	console := cfg.Format == "console"
	if cfg.Format == "auto" {
		if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
			console = true
		}
	}
	if console {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}
