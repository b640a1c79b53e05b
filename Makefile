# Casegraph. The two commands: `make run` and `make test` (see README.md).
GO ?= go
BIN := bin/casegraph
NEO4J := neo4j-local/neo4j.sh
NEO4J_BOLT_PORT ?= 7687
export NEO4J_BOLT_PORT
export NEO4J_URI ?= bolt://127.0.0.1:$(NEO4J_BOLT_PORT)

.PHONY: web-deps clients-deps run test test-unit fuzz build generate check-generated web check-web ftm-deps fmt-check vet staticcheck shellcheck neo4j-deps haproxy-check neo4j-up neo4j-down neo4j-status neo4j-log bench bench-peer drills clean

# The local admin key `make run` makes on its first run, kept beside the
# local database (git-ignored) and made again when that database no longer
# knows it.
LOCAL_KEY := $(or $(NEO4J_HOME),neo4j-local/data)/local-admin.key
# What anonymous requests may read under `make run`: the seed dataset and
# the fictional demonstration force, and only while the server listens on
# loopback (the default address).
comma := ,
RUN_ANONYMOUS := $(if $(filter 127.0.0.1:% localhost:% [::1]:%,$(or $(CASEGRAPH_ADDR),127.0.0.1:8080)),caesar-report$(comma)demo-force,none)

## run: Neo4j up, apply the schema, load the seed dataset and the fictional demo force, make a local admin key (first run), serve the API (foreground)
# It records the instance it runs in .casegraph.env (git-ignored), which
# bin/casegraph reads when run within the checkout, beneath its flags and
# environment (docs/getting-started.md, "The command line finds this
# checkout's instance").
RUN_ADDR := $(or $(CASEGRAPH_ADDR),127.0.0.1:8080)
run: neo4j-up build
	@printf '%s\n' "# Written by make run: this checkout's instance. bin/casegraph, run within the checkout, reads it" \
	  "# where neither a flag nor the environment sets a variable; make run writes it again each time." \
	  "NEO4J_URI=$(NEO4J_URI)" "CASEGRAPH_ADDR=$(RUN_ADDR)" "CASEGRAPH_LOCAL_KEY=$(abspath $(LOCAL_KEY))" >.casegraph.env; \
	echo "make run: recorded this checkout's instance in .casegraph.env (Neo4j $(NEO4J_URI), server $(RUN_ADDR)); bin/casegraph run here uses it"
	$(BIN) migrate
	$(BIN) seed
	@id=$$(sed -n 's/^cgk_\([0-9a-f]*\)_.*/\1/p' "$(LOCAL_KEY)" 2>/dev/null); \
	if [ -n "$$id" ] && $(BIN) key list --log-level warn | grep -q "^$$id "; then \
	  echo "make run: the local admin key $$id (made by an earlier make run) is in $(LOCAL_KEY)"; \
	else \
	  if [ -n "$$id" ]; then echo "make run: the key in $(LOCAL_KEY) ($$id) is not in this database; making a new one"; fi; \
	  mkdir -p "$(dir $(LOCAL_KEY))" && $(BIN) key create --log-level warn --name "local admin (make run)" --role admin --cleared --out "$(LOCAL_KEY)" || exit 1; \
	fi; \
	echo "make run: send it as a bearer token, for example:"; \
	echo "  curl -H \"Authorization: Bearer \$$(cat $(LOCAL_KEY))\" -H 'Content-Type: application/json' \\"; \
	echo "    -d '{\"query\": \"{ entity(id: \\\"caesar\\\") { name } }\"}' http://$(RUN_ADDR)/graphql"; \
	echo "make run: anonymous requests may read: $(or $(CASEGRAPH_ANONYMOUS),$(RUN_ANONYMOUS))"; \
	echo "make run: the explorer is at http://$(RUN_ADDR)/ (Sign in with the key), GraphiQL at /graphiql"
	CASEGRAPH_ANONYMOUS="$(or $(CASEGRAPH_ANONYMOUS),$(RUN_ANONYMOUS))" exec $(BIN) serve

## test: Neo4j up, then the whole suite (race detector on) against it; the browser tests' screenshots go to test-artifacts/
# go test starts the packages' test binaries in the order they are named,
# two at once on this 2-core machine (-p is GOMAXPROCS): the longest
# (CI's times: graph 519 s, cypher 245, web 169, cmd/casegraph 151,
# server 124, docs 115) are named first, so that the longest does not
# start last and run alone at the end; ./... adds the rest, once each.
TEST_FIRST := ./graph ./cypher ./web ./cmd/casegraph ./server ./docs ./dataset
test: neo4j-up ftm-deps fmt-check vet staticcheck shellcheck web-deps clients-deps
	@mkdir -p test-artifacts
	$(GO) test -race -count=1 -timeout 25m -artifacts -outputdir $(CURDIR)/test-artifacts $(TEST_FIRST) ./...

## test-unit: the tests that need no database (the HTTP edge over a refusing store, the domain, config, CSV ...); no Java, no Neo4j
# cyphertest skips, by name, every test that needs Neo4j when CASEGRAPH_TEST_UNIT is set; the summary counts them.
test-unit: web-deps
	@out=$$(mktemp); \
	CASEGRAPH_TEST_UNIT=1 NEO4J_URI=bolt://127.0.0.1:1 $(GO) test -count=1 -v ./... >$$out 2>&1; rc=$$?; \
	grep -E '^(ok|FAIL|panic|--- FAIL)|^\s+--- FAIL|_test\.go:[0-9]+: ' $$out | grep -v 'needs Neo4j'; \
	echo "test-unit: $$(grep -cE '^\s*--- PASS' $$out) passed, $$(grep -cE '^\s*--- SKIP' $$out) skipped because they need Neo4j (make test runs them)"; \
	rm -f $$out; exit $$rc

## fuzz: each Go fuzz target (every func FuzzXxx of the *_test.go files) for FUZZTIME (60s) one after the other, failing on a finding; FUZZ=FuzzRead runs one; no Neo4j (not in make test, which runs their corpora as tests)
FUZZTIME ?= 60s
fuzz:
	@set -e; found=0; \
	for f in $$(git ls-files --cached --others --exclude-standard '*_test.go' | xargs grep -l '^func Fuzz'); do \
	  for name in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    if [ -n "$(FUZZ)" ] && [ "$$name" != "$(FUZZ)" ]; then continue; fi; \
	    found=$$((found + 1)); \
	    echo "fuzz: $$name ($$(dirname $$f)) for $(FUZZTIME)"; \
	    $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./$$(dirname $$f) \
	      || { echo "fuzz: $$name found a failing input; it is saved under $$(dirname $$f)/testdata/fuzz/$$name/ (commit it with the fix)"; exit 1; }; \
	  done; \
	done; \
	[ $$found -gt 0 ] || { echo "fuzz: no target $(FUZZ)"; exit 1; }; \
	echo "fuzz: $$found targets, $(FUZZTIME) each, no finding"

build:
	$(GO) build -o $(BIN) ./cmd/casegraph

## generate: regenerate gqlgen code after a schema change (commit the result with it)
generate:
	$(GO) run ./graph/generate

## check-generated: fail when the committed generated code is not what the schema generates
check-generated: generate
	@git diff --exit-code --stat -- graph/ || { echo "generated code is stale: run make generate and commit"; exit 1; }

## docs: render docs/configuration.md from the flag binder (cmd/casegraph/config.go); commit it with the change (TestConfigurationDoc fails while it is stale)
.PHONY: docs
docs:
	$(GO) test ./cmd/casegraph -run '^TestConfigurationDoc$$' -count=1 -update

## ftm-deps: the followthemoney Python package (pinned in dataset/testdata/ftm-requirements.txt) in .venv-ftm, which the FtM tests check exports with; once (pip compiles PyICU the first time: minutes)
FTM_VENV := .venv-ftm
ftm-deps: $(FTM_VENV)/.installed
$(FTM_VENV)/.installed: dataset/testdata/ftm-requirements.txt
	python3 -m venv $(FTM_VENV)
	$(FTM_VENV)/bin/pip install --quiet --disable-pip-version-check -r dataset/testdata/ftm-requirements.txt
	touch $@
## web-deps: install web/package.json's pinned devDependencies (npm ci) when web/node_modules lacks them: the build's, and graphql-http, whose audit of the GraphQL-over-HTTP spec make test runs (needs Node and npm)
web-deps:
	@test -f web/node_modules/graphql-http/package.json -a -f web/node_modules/graphql-ws/package.json -a -f web/node_modules/ws/package.json -a -f web/node_modules/axe-core/axe.min.js || (cd web && npm ci --no-audit --no-fund --loglevel error)

## clients-deps: install clients/package.json's pinned clients (npm ci) when clients/node_modules lacks them: the client matrix (urql, Apollo Client, Relay, graphql-request, graphql-ws, graphql-sse) that make test runs (server/clients_test.go; needs Node and npm)
clients-deps:
	@test -f clients/node_modules/.package-lock.json -a clients/node_modules/.package-lock.json -nt clients/package-lock.json || (cd clients && npm ci --no-audit --no-fund --loglevel error)

## web: build the explorer and GraphiQL (web/src, TypeScript) into web/dist, which the binary embeds; commit the result (needs Node and npm)
web:
	cd web && npm ci --no-audit --no-fund --loglevel error && npx tsc --noEmit -p . && node build.mjs

## check-web: fail when the committed web/dist is not what web/src builds
check-web: web
	@git diff --exit-code --stat -- web/dist || { echo "web/dist is stale: run make web and commit"; exit 1; }
	@test -z "$$(git status --porcelain -- web/dist)" || { echo "web/dist has files git does not know: run make web and commit"; git status --porcelain -- web/dist; exit 1; }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# vet and staticcheck see the drills too (build tag drills), so a change
# that breaks them fails make test, not only make drills.
vet:
	$(GO) vet -tags drills ./...

## staticcheck: the Go linter, pinned in go.mod as a tool (nothing to install)
staticcheck:
	$(GO) tool staticcheck -tags drills ./...

## shellcheck: lint the shell scripts (.ci/run installs shellcheck; apt-get install shellcheck)
SHELL_SCRIPTS := .ci/run neo4j-local/neo4j.sh
shellcheck:
	@command -v shellcheck >/dev/null || { echo "shellcheck not found: apt-get install shellcheck (CI installs it)"; exit 1; }
	shellcheck $(SHELL_SCRIPTS)

## bench: the benchmarks (Neo4j up)
bench: neo4j-up
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-peer: Casegraph vs @neo4j/graphql vs its raw store on a generated graph (bench/README.md; not in make test), BENCH_FLAGS='-d 10s -c 8'
bench-peer: neo4j-up
	bench/run.sh $(BENCH_FLAGS)

## drills: the fault drills (drills/, README "Fault drills"): each starts its own Neo4j (bolt ports 7695-7696, DRILLS_BOLT_PORT moves them), servers and, for the replicas drill, HAProxy (apt-get install haproxy; .ci/run installs it), on free ports; 2.5 minutes on the quiet 2-core machine, 5 at load 13; the figures are the lines with "drill:"
# The exit status of go test is kept in a file: sh has no pipefail, and
# the output is shown as it comes.
drills: build neo4j-deps haproxy-check
	@out=$$(mktemp); rcf=$$(mktemp); \
	{ CASEGRAPH_BIN=$(BIN) $(GO) test -tags drills -count=1 -v -timeout 15m ./drills/; echo $$? >$$rcf; } 2>&1 | tee $$out; \
	rc=$$(cat $$rcf); echo; echo "drills: figures"; grep -o 'drill: .*' $$out || true; \
	rm -f $$out $$rcf; exit $$rc

neo4j-deps:
	@$(NEO4J) deps

# haproxy-check: the replicas drill runs Debian's HAProxy (deploy/haproxy.cfg); Debian puts it in /usr/sbin
haproxy-check:
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || { echo "haproxy not found: apt-get install haproxy (CI installs it; the replicas drill needs it)"; exit 1; }

## neo4j-up: start the local embedded Neo4j in the background (no-op when up)
neo4j-up:
	@$(NEO4J) up

## neo4j-down: stop it
neo4j-down:
	@$(NEO4J) down

neo4j-status:
	@$(NEO4J) status

## neo4j-log: the last lines of its logs (LINES=100)
neo4j-log:
	@$(NEO4J) log $(or $(LINES),100)

clean:
	rm -rf bin
