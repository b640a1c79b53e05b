#!/usr/bin/env bash
# neo4j.sh controls the local embedded Neo4j (see Launcher.java):
#   neo4j.sh deps     fetch the Neo4j jars from Maven Central into lib/
#   neo4j.sh up       start in the background; return once it answers queries
#                     (a no-op when it is already up)
#   neo4j.sh down     stop it and wait until it has stopped
#   neo4j.sh status   say whether it is up
#   neo4j.sh log [N]  the last N lines of its logs (default 100)
# Environment: NEO4J_BOLT_PORT (7687), NEO4J_HEAP (2g), NEO4J_PAGECACHE (2g),
# NEO4J_HOME (neo4j-local/data), NEO4J_START_TIMEOUT seconds (180).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
home=${NEO4J_HOME:-$here/data}
port=${NEO4J_BOLT_PORT:-7687}
heap=${NEO4J_HEAP:-2g}
pagecache=${NEO4J_PAGECACHE:-2g}
timeout=${NEO4J_START_TIMEOUT:-180}
out=$home/launcher.log
pidfile=$home/launcher.pid
portfile=$home/launcher.port

say() { printf 'neo4j-local: %s\n' "$*"; }
die() { printf 'neo4j-local: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

our_pid() {
  [ -f "$pidfile" ] || return 1
  local pid
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

deps() {
  command -v java >/dev/null || die "java not found: install Java 17 or newer"
  command -v mvn >/dev/null || die "mvn not found: install Maven"
  # Captured, not piped: under pipefail a reader that stops early can kill
  # the writer with SIGPIPE and fail the script by chance.
  local txt v
  txt=$(java -version 2>&1) || true
  v=$(sed -n 's/.*version "\([0-9]*\).*/\1/p' <<<"$txt")
  v=${v%%$'\n'*}
  [ "${v:-0}" -ge 17 ] || die "Java 17 or newer is needed (found ${v:-none})"
  if [ -f "$here/lib/.stamp" ] && [ "$here/lib/.stamp" -nt "$here/pom.xml" ]; then
    return 0
  fi
  say "fetching Neo4j jars from Maven Central (once)"
  rm -rf "${here:?}/lib"
  (cd "$here" && mvn -q -B dependency:copy-dependencies) || die "mvn could not fetch the Neo4j jars"
  touch "$here/lib/.stamp"
}

# listener prints the pid of the process listening on the Bolt port, if any.
listener() {
  local txt pid
  command -v ss >/dev/null || return 1
  txt=$(ss -ltnpH "sport = :$port" 2>/dev/null) || return 1
  pid=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' <<<"$txt")
  pid=${pid%%$'\n'*}
  [ -n "$pid" ] || return 1
  echo "$pid"
}

# home_of prints the data folder of a launcher started by any checkout's
# neo4j.sh (its -Dneo4j.home), or fails for another kind of process.
home_of() {
  local arg
  [ -r "/proc/$1/cmdline" ] || return 1
  while IFS= read -r -d '' arg; do
    case "$arg" in -Dneo4j.home=*) echo "${arg#-Dneo4j.home=}"; return 0 ;; esac
  done <"/proc/$1/cmdline"
  return 1
}

# whose describes what listens on the port when it is not this checkout's
# Neo4j: another checkout's launcher (with its folder), or something else.
whose() {
  local pid other
  if ! pid=$(listener); then
    echo "something listens on 127.0.0.1:$port (its process is not visible to this user)"
  elif other=$(home_of "$pid"); then
    echo "another checkout's Neo4j listens on 127.0.0.1:$port (pid $pid, data and logs in $other)"
  else
    echo "a process that is not a Casegraph Neo4j listens on 127.0.0.1:$port (pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-120))"
  fi
}

# running_port prints the Bolt port this checkout's running Neo4j (pid $1)
# was started with: as up recorded it beside the pid, or from its command
# line (a launcher started before up recorded it).
running_port() {
  if [ -f "$portfile" ]; then
    cat "$portfile"
    return 0
  fi
  tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | sed -n 's/^-Dneo4j.bolt=127.0.0.1://p'
}

up() {
  if pid=$(our_pid) && [ -f "$home/ready" ]; then
    local running
    running=$(running_port "$pid")
    if [ -n "$running" ] && [ "$running" != "$port" ]; then
      die "this checkout's Neo4j is up on bolt://127.0.0.1:$running (pid $pid), not on $port: one data folder serves one port; stop it (NEO4J_BOLT_PORT=$running make neo4j-down) or use that port"
    fi
    say "already up on bolt://127.0.0.1:$port (pid $pid)"
    return 0
  fi
  if ! our_pid >/dev/null && port_open; then
    say "$(whose); using it as the database (set NEO4J_BOLT_PORT to start this checkout's own)"
    return 0
  fi
  if ! our_pid >/dev/null; then
    deps
    mkdir -p "$home"
    rm -f "$home/ready"
    say "starting on bolt://127.0.0.1:$port (heap $heap, page cache $pagecache); log: $out"
    (
      cd "$here"
      exec setsid nohup java -Xms"$heap" -Xmx"$heap" -XX:+ExitOnOutOfMemoryError \
        -Dneo4j.home="$home" -Dneo4j.conf="$here/neo4j.conf" \
        -Dneo4j.bolt="127.0.0.1:$port" -Dneo4j.pagecache="$pagecache" \
        -cp "$here/lib/*" "$here/Launcher.java" >>"$out" 2>&1 </dev/null
    ) &
    echo $! >"$pidfile"
    echo "$port" >"$portfile"
  fi
  local waited=0
  until [ -f "$home/ready" ] && port_open; do
    our_pid >/dev/null || { tail -n 40 "$out" >&2; die "Neo4j exited while starting (log above)"; }
    [ "$waited" -lt "$timeout" ] || { tail -n 40 "$out" >&2; die "Neo4j not ready after ${timeout}s"; }
    sleep 1
    waited=$((waited + 1))
  done
  say "up on bolt://127.0.0.1:$port (pid $(cat "$pidfile"), ${waited}s)"
}

down() {
  local pid
  if ! pid=$(our_pid); then
    say "not running"
    rm -f "$pidfile" "$portfile" "$home/ready"
    return 0
  fi
  kill -TERM "$pid"
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    [ "$waited" -lt 60 ] || { kill -KILL "$pid"; break; }
    sleep 1
    waited=$((waited + 1))
  done
  rm -f "$pidfile" "$portfile" "$home/ready"
  say "stopped"
}

# status names the port this checkout's Neo4j runs on (as up recorded it),
# whatever NEO4J_BOLT_PORT says now.
status() {
  local running
  if pid=$(our_pid); then
    running=$(running_port "$pid")
    running=${running:-$port}
  fi
  if pid=$(our_pid) && [ -f "$home/ready" ]; then
    say "up on bolt://127.0.0.1:$running (pid $pid, this checkout's; log: $out)"
  elif pid=$(our_pid); then
    say "starting on bolt://127.0.0.1:$running (pid $pid, this checkout's; log: $out)"
  elif port_open; then
    say "not this checkout's: $(whose)"
  else
    say "down"
    return 1
  fi
}

# log shows this checkout's logs, or those of the other checkout's Neo4j
# that answers on the port, saying so.
log() {
  local n=${1:-100} dir=$home pid other
  if ! our_pid >/dev/null && port_open; then
    say "this checkout's Neo4j is not running; $(whose)"
    if pid=$(listener) && other=$(home_of "$pid"); then
      dir=$other
    fi
  fi
  local shown=0 f
  for f in "$dir/launcher.log" "$dir/logs/debug.log"; do
    [ -f "$f" ] || continue
    echo "== $f"
    tail -n "$n" "$f"
    shown=1
  done
  [ "$shown" -eq 1 ] || say "no log in $dir"
  return 0
}

case "${1:-}" in
  deps) deps ;;
  up) up ;;
  down) down ;;
  status) status ;;
  log) log "${2:-100}" ;;
  *) echo "usage: $0 deps|up|down|status|log [N]" >&2; exit 2 ;;
esac
