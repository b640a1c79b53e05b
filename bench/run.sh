#!/usr/bin/env bash
# run.sh runs the peer comparison (bench/README.md): it installs the peer's
# Node packages when they are missing (npm ci), builds Casegraph and the load
# generator, starts Casegraph and the peer against NEO4J_URI, runs the load
# generator with the arguments given to it (bench -h lists them), and stops
# both servers when it ends, however it ends.
#
# Environment: NEO4J_URI (bolt://127.0.0.1:7687), BENCH_CASEGRAPH_PORT
# (8090), BENCH_PEER_PORT (4090), BENCH_ANONYMOUS (*: what Casegraph lets
# anonymous callers read). Neo4j must hold a generated graph
# (bench/README.md says how); the servers' logs go to a temporary folder.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export NEO4J_URI=${NEO4J_URI:-bolt://127.0.0.1:7687}
cg_port=${BENCH_CASEGRAPH_PORT:-8090}
peer_port=${BENCH_PEER_PORT:-4090}

say() { printf 'bench: %s\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for port in "$cg_port" "$peer_port"; do
  if port_open "$port"; then
    die "something already listens on 127.0.0.1:$port; set BENCH_CASEGRAPH_PORT or BENCH_PEER_PORT"
  fi
done
command -v node >/dev/null || die "node not found: install Node 20 or newer"
command -v npm >/dev/null || die "npm not found: install it with Node"

if [ ! -d bench/peer/node_modules ]; then
  say "installing the peer's Node packages (npm ci)"
  (cd bench/peer && npm ci --no-audit --no-fund) || die "npm ci failed in bench/peer"
fi
go build -o bin/casegraph ./cmd/casegraph
go build -o bin/casegraph-bench ./bench

logs=$(mktemp -d "${TMPDIR:-/tmp}/casegraph-bench.XXXXXX")
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap stop EXIT

# Casegraph runs with its default limits (W3, 10 roots x 10 x 10, costs
# about 3,500 of the 5,000 its complexity model allows). Warnings only: the
# peer logs nothing a request either. The peer has no access control, so
# anonymous callers may read every dataset here (BENCH_ANONYMOUS).
CASEGRAPH_ANONYMOUS=${BENCH_ANONYMOUS:-*} CASEGRAPH_RATE_LIMIT=0 CASEGRAPH_ADDR=127.0.0.1:$cg_port CASEGRAPH_LOG_LEVEL=warn \
  bin/casegraph serve >"$logs/casegraph.log" 2>&1 &
cg_pid=$!
pids+=("$cg_pid")
(cd bench/peer && PORT=$peer_port exec node server.js) >"$logs/peer.log" 2>&1 &
peer_pid=$!
pids+=("$peer_pid")
say "Casegraph on :$cg_port, the peer on :$peer_port, Neo4j at $NEO4J_URI; logs in $logs"

# Neo4j's process, whose CPU a request the table shows beside the
# servers' (bench/cpu.go): the one listening on NEO4J_URI's port, when
# Neo4j runs on this machine and ss can tell (0: not measured).
neo4j_pid=0
case $NEO4J_URI in
  *://127.0.0.1:* | *://localhost:*)
    found=$(ss -Hltnp "sport = :${NEO4J_URI##*:}" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1 || true)
    neo4j_pid=${found:-0}
    ;;
esac

bin/casegraph-bench \
  -casegraph "http://127.0.0.1:$cg_port/graphql" \
  -peer "http://127.0.0.1:$peer_port/graphql" \
  -casegraph-pid "$cg_pid" -peer-pid "$peer_pid" -neo4j-pid "$neo4j_pid" \
  "$@"
# The service's peak resident memory over the whole run (VmHWM).
peak=$(sed -n 's/^VmHWM:[[:space:]]*//p' "/proc/$cg_pid/status" 2>/dev/null || true)
say "Casegraph's peak RSS over the run: ${peak:-unknown}"
