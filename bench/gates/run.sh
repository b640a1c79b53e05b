#!/usr/bin/env bash
# run.sh measures the gates' cost (bench/README.md, "The gates' cost"): it
# builds Casegraph at two commits (base: before the gates; new: with them),
# loads the generated graph into its dataset when it is not there yet,
# makes an admin key (cleared) and a reader key (uncleared, of the dataset)
# with each binary, serves both binaries at once against NEO4J_URI, runs
# the load generator (bench/gates) with the arguments given to it
# (bench/gates -h lists them), and at the end stops both servers and
# revokes its keys, however it ends. The dataset stays, for the next
# run.
#
# Environment:
#   GATES_BASE (a58d367), GATES_NEW (main)  the commits, any git revision
#   GATES_BASE_BIN, GATES_NEW_BIN           binaries to use instead of building
#                                           (built from GATES_BASE, GATES_NEW: set those too)
#   GATES_BASE_PORT (8091), GATES_NEW_PORT (8092)
#   GATES_DATASET (bench-gates), GATES_DATA (/tmp/$GATES_DATASET.ndjson)
#                                           the 100k graph (gen --seed 7), the workloads' inputs
#   GATES_SMALL_DATASET (bench-gates-20k)   a 20k graph exported besides the 100k
#                                           one (empty: none); see the README
#   NEO4J_URI (bolt://127.0.0.1:7687), NEO4J_USER, NEO4J_PASSWORD
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export NEO4J_URI=${NEO4J_URI:-bolt://127.0.0.1:7687}
base_rev=$(git -C "$root" rev-parse "${GATES_BASE:-a58d367}^{commit}")
new_rev=$(git -C "$root" rev-parse "${GATES_NEW:-main}^{commit}")
ports=("${GATES_BASE_PORT:-8091}" "${GATES_NEW_PORT:-8092}")
dataset=${GATES_DATASET:-bench-gates}
data=${GATES_DATA:-/tmp/$dataset.ndjson}
small=${GATES_SMALL_DATASET-bench-gates-20k}
if { [ -n "${GATES_BASE_BIN:-}" ] && [ -z "${GATES_BASE:-}" ]; } || { [ -n "${GATES_NEW_BIN:-}" ] && [ -z "${GATES_NEW:-}" ]; }; then
  echo "gates: with GATES_BASE_BIN or GATES_NEW_BIN, name the commit it was built from in GATES_BASE or GATES_NEW" >&2
  exit 2
fi

say() { printf 'gates: %s\n' "$*" >&2; }
die() { printf 'gates: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for port in "${ports[@]}"; do
  if port_open "$port"; then
    die "something already listens on 127.0.0.1:$port; set GATES_BASE_PORT or GATES_NEW_PORT"
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/casegraph-gates.XXXXXX")
pids=()
bins=()
stop() {
  local pid id
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -s "$work/keys" ]; then
    while read -r id; do
      "${bins[1]}" key revoke "$id" >/dev/null 2>&1 || say "could not revoke key $id"
    done <"$work/keys"
  fi
  rm -rf "$work/src-base" "$work/src-new"
}
trap stop EXIT

# build NAME REV: a binary of casegraph at REV, from git archive (no work
# tree is touched).
build() {
  local name=$1 rev=$2 src="$work/src-$1"
  mkdir -p "$src"
  git -C "$root" archive "$rev" | tar -x -C "$src"
  (cd "$src" && go build -buildvcs=false -o "$work/cg-$name" ./cmd/casegraph)
  echo "$work/cg-$name"
}
say "base ${base_rev:0:12}, new ${new_rev:0:12}; work folder $work"
bins[0]=${GATES_BASE_BIN:-$(build base "$base_rev")}
bins[1]=${GATES_NEW_BIN:-$(build new "$new_rev")}
(cd "$root" && go build -o "$work/gates" ./bench/gates)

# The schema (migrations are additive: the newer binary's), and the data.
"${bins[1]}" migrate --log-level warn >&2
loaded() { "${bins[1]}" dataset list | awk -v ds="$1" '$1 == ds && $2 > 0 { found = 1 } END { exit !found }'; }
# load NAME FILE ENTITIES RELATIONS: generate and import, unless loaded.
load() {
  if ! loaded "$1"; then
    if [ ! -s "$2" ]; then
      say "generating $2"
      "${bins[1]}" gen --entities "$3" --relations "$4" --seed 7 --dataset "$1" --out "$2"
    fi
    say "importing $2 into $1 (a few minutes)"
    "${bins[1]}" import --log-level warn "$2"
  fi
}
load "$dataset" "$data" 100000 500000
[ -s "$data" ] || die "$dataset is loaded but $data, the file of its inputs, is missing: casegraph gen --entities 100000 --relations 500000 --seed 7 --dataset $dataset --out $data"
exports=$dataset
if [ -n "$small" ]; then
  load "$small" "/tmp/$small.ndjson" 20000 100000
  exports=$dataset,$small
fi

# key NAME BIN FLAGS...: create a key, note its id (in $work/keys, for
# the revocation at the end), print its token.
key() {
  local name=$1 bin=$2 token
  shift 2
  token=$("$bin" key create --name "$name" "$@" 2>"$work/key.err") || { cat "$work/key.err" >&2; exit 1; }
  sed -n 's/^created key \([^ ]*\) .*/\1/p' "$work/key.err" >>"$work/keys"
  printf '%s' "$token"
}
GATES_BASE_ADMIN_KEY=$(key gates-base-admin "${bins[0]}" --role admin --cleared)
GATES_BASE_READER_KEY=$(key gates-base-reader "${bins[0]}" --role reader --datasets "$dataset")
GATES_NEW_ADMIN_KEY=$(key gates-new-admin "${bins[1]}" --role admin --cleared)
GATES_NEW_READER_KEY=$(key gates-new-reader "${bins[1]}" --role reader --datasets "$dataset")
GATES_BASE_EXPORT_READER_KEYS=
GATES_NEW_EXPORT_READER_KEYS=
if [ -n "$small" ]; then
  GATES_BASE_EXPORT_READER_KEYS="$small=$(key gates-base-reader-small "${bins[0]}" --role reader --datasets "$small")"
  GATES_NEW_EXPORT_READER_KEYS="$small=$(key gates-new-reader-small "${bins[1]}" --role reader --datasets "$small")"
fi
export GATES_BASE_ADMIN_KEY GATES_BASE_READER_KEY GATES_NEW_ADMIN_KEY GATES_NEW_READER_KEY \
  GATES_BASE_EXPORT_READER_KEYS GATES_NEW_EXPORT_READER_KEYS

# Both servers with the same settings: no rate limit (one caller sends
# everything), warnings only, nothing for anonymous callers.
names=(base new)
for i in 0 1; do
  CASEGRAPH_ADDR=127.0.0.1:${ports[$i]} CASEGRAPH_RATE_LIMIT=0 CASEGRAPH_LOG_LEVEL=warn CASEGRAPH_LOG_FORMAT=json \
    CASEGRAPH_ANONYMOUS=none CASEGRAPH_WEB=false \
    "${bins[$i]}" serve >"$work/${names[$i]}.log" 2>&1 &
  pids+=($!)
done
say "base on :${ports[0]}, new on :${ports[1]}, Neo4j at $NEO4J_URI; logs in $work"
for port in "${ports[@]}"; do
  for _ in $(seq 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null && break
    sleep 0.5
  done
done

"$work/gates" -base "http://127.0.0.1:${ports[0]}" -new "http://127.0.0.1:${ports[1]}" \
  -dataset "$dataset" -data "$data" -export-datasets "$exports" -base-commit "${base_rev:0:12}" -new-commit "${new_rev:0:12}" "$@"
for i in 0 1; do
  peak=$(sed -n 's/^VmHWM:[[:space:]]*//p' "/proc/${pids[$i]}/status" 2>/dev/null || true)
  say "${names[$i]}'s peak RSS over the run: ${peak:-unknown}"
done
