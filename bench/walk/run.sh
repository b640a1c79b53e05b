#!/usr/bin/env bash
# run.sh counts the hand-written files three requests pass through, at a
# commit (bench/README.md, "Request walks"): a copy of the commit from git
# archive (no work tree is touched) instrumented by bench/walk, built with
# coverage (atomic, every package of the module), served over NEO4J_URI,
# the requests sent once each to warm up and once each measured, and a
# table printed: request, files, functions, entries, returns, statements,
# then each walk's files by package. The copy and the binary are removed
# at the end, the key revoked, the write's dataset deleted.
#
# Usage: bench/walk/run.sh [COMMIT] [measure flags]   COMMIT: any git revision (main)
#
# Environment:
#   NEO4J_URI (bolt://127.0.0.1:7687), NEO4J_USER, NEO4J_PASSWORD
#   WALK_KEEP   a folder: keep the copy, the binary and the raw data there
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export NEO4J_URI=${NEO4J_URI:-bolt://127.0.0.1:7687}
rev=$(git -C "$root" rev-parse "${1:-main}^{commit}")
[ $# -gt 0 ] && shift

say() { printf 'walk: %s\n' "$*" >&2; }

if [ -n "${WALK_KEEP:-}" ]; then
  work=$WALK_KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/casegraph-walk.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
say "commit ${rev:0:12}; work folder $work"

rm -rf "$work/src"
mkdir -p "$work/src"
git -C "$root" archive "$rev" | tar -x -C "$work/src"
(cd "$root" && go build -o "$work/walk" ./bench/walk)
"$work/walk" instrument "$work/src"
module=$(sed -n 's/^module[[:space:]]*//p' "$work/src/go.mod")
say "building the instrumented copy with coverage (a minute or two)"
(cd "$work/src" && go build -buildvcs=false -trimpath -cover -covermode=atomic -coverpkg="$module/..." \
  -o "$work/casegraph" ./cmd/casegraph)

out=()
if [ -n "${WALK_KEEP:-}" ]; then
  rm -rf "$work/data"
  out=(-out "$work/data")
fi
"$work/walk" measure -bin "$work/casegraph" -files "$work/src/bench/walk/files.txt" -commit "${rev:0:12}" "${out[@]}" "$@"
