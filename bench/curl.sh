#!/usr/bin/env bash
# The heavy reads timed with curl, a client that costs next to nothing: the first answer after start,
# characters/all cold, warm and after a restart on the library bench/characters.sh built, chats/get and
# chats/save of the chat bench/chats.sh built and one message appended through Tankard's tail route; on
# bin/tankard (the jar, as users run it) and, with TANKARD_ST_DIR, on SillyTavern in the same run.
# Usage: bench/curl.sh [cards] [messages]   (default: 5000 20000; run characters.sh and chats.sh with them first,
# and build the jar: ./mvnw -q -DskipTests package). BENCH_LIBRARY and BENCH_CHATS name other data roots with the
# same files (spellings.sh). See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cards=${1:-5000}
messages=${2:-20000}
library=${BENCH_LIBRARY:-$root/target/bench/n$cards}
chats=${BENCH_CHATS:-$root/target/bench/chats}
port=${BENCH_PORT:-8765}
base=http://127.0.0.1:$port
st=${TANKARD_ST_DIR:-}
for needed in "$library/data" "$chats/data/default-user/chats/Bench/n$messages.jsonl" "$root/target/tankard.jar"; do
  [ -e "$needed" ] || { echo "missing $needed: run bench/characters.sh $cards, bench/chats.sh $messages and the package build" >&2; exit 1; }
done
work=$(mktemp -d)
pid=
stop() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; fi
}
trap 'stop; if [ -f "$work/chat.jsonl" ]; then cp "$work/chat.jsonl" "$jsonl"; fi; rm -rf "$work"' EXIT

# start DIR COMMAND...: runs the server in DIR and sets started_ms to the time of its first 200 (the CSRF
# token, which a page load asks for first), with the session cookie kept for the requests after.
start() {
  local dir=$1 t0
  shift
  t0=$(date +%s%N)
  (cd "$dir" && exec "$@") >"$work/server.log" 2>&1 &
  pid=$!
  rm -f "$work/jar"
  until [ "$(curl -s -o "$work/token" -c "$work/jar" -w '%{http_code}' "$base/csrf-token" 2>/dev/null)" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "the server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
    sleep 0.01
  done
  started_ms=$((($(date +%s%N) - t0) / 1000000))
  token=$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$work/token")
}
# cached PATH...: reads the files into the page cache, so that a start or a cold list times the server, not the
# disk (this machine's kernel reclaims pages unused for minutes: a library read a quarter of an hour before was
# read from disk again, 1.8 s instead of 1.0 s; with the JDK's own files out of it, Tankard's first answer took
# 3.9 s instead of 0.6 s). The runtimes are cached too: the JDK's files and Node's binary.
cached() { find "$@" -type f -print0 2>/dev/null | xargs -0 cat >/dev/null || true; }
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")} # the one bin/tankard runs
start_tankard() {
  cached "$1" "$root/target/tankard.jar" "$root/target/tankard.jsa" "$root/bin" "$java_home"
  start "$1" "$root/bin/tankard" --port "$port" "${@:2}"
}
start_st() {
  cached "$1" "$st" "$(readlink -f "$(command -v node)")"
  start "$st" env SILLYTAVERN_BROWSERLAUNCH_ENABLED=false NODE_ENV=production node server.js --port "$port" \
    --listen false --dataRoot "$1/data"
}

# post PATH BODY_FILE [OUT]: prints the time in ms; fails unless 2xx.
post() {
  local out
  out=$(curl -s -o "${3:-/dev/null}" -w '%{http_code} %{time_total}' -b "$work/jar" -c "$work/jar" \
    -H "X-CSRF-Token: $token" -H 'Content-Type: application/json' --data-binary "@$2" "$base$1")
  case "${out%% *}" in 2??) ;; *) echo "$1 answered ${out%% *}" >&2; exit 1 ;; esac
  awk -v s="${out#* }" 'BEGIN { printf "%.1f\n", s * 1000 }'
}
# median_of N PATH BODY_FILE: the median ms of N posts.
median_of() {
  local i
  for ((i = 0; i < $1; i++)); do post "$2" "$3"; done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# library_lists START RUNS: starts the server on the library and sets first (ms to its first answer), cold (its
# first characters/all) and warm (the median of RUNS more); then restarts it and sets restart (its first list).
library_lists() {
  "$1" "$library"
  first=$started_ms
  cold=$(post /api/characters/all "$work/empty.json")
  warm=$(median_of "$2" /api/characters/all "$work/empty.json")
  stop
  "$1" "$library"
  restart=$(post /api/characters/all "$work/empty.json")
  stop
}

echo '{}' >"$work/empty.json"
chat='"ch_name":"Bench","avatar_url":"Bench.png","file_name":"n'"$messages"'"'
echo "{$chat}" >"$work/get.json"
jsonl=$chats/data/default-user/chats/Bench/n$messages.jsonl
{ printf '{%s,"chat":[' "$chat"; paste -sd, "$jsonl" | tr -d '\n'; printf '],"force":false}'; } >"$work/save.json"
# each server's gets read the chat as it is now, before that server's saves write it as it writes chats
cp "$jsonl" "$work/chat.jsonl"
restore_chat() { cp "$work/chat.jsonl" "$jsonl"; }
printf 'load average %s; %s cards, a chat of %s messages (%s MB)\n' "$(cut -d' ' -f1 /proc/loadavg)" "$cards" \
  "$messages" "$(($(stat -c %s "$jsonl") >> 20))"
report=()

# --- Tankard: characters/all with no index, then warm, then after a restart with the index it saved on the way down
rm -rf "$library/data/_cache/tankard-cards"
library_lists start_tankard 9
restart_first=$started_ms
rm -rf "$library/data/_cache/tankard-cards"
start_tankard "$library"
sleep 5
later=$(post /api/characters/all "$work/empty.json")
stop
report+=("Tankard  first answer after start ${first} ms (then ${restart_first} ms with the index saved)")
report+=("Tankard  characters/all: cold ${cold} ms, warm ${warm} ms (median of 9), after a restart ${restart} ms; first list 5 s after a start with no index ${later} ms")

# --- Tankard: a chat's get, save, and one message appended at the end through the tail route
restore_chat
start_tankard "$chats" --dataRoot "$chats/data"
post /api/chats/get "$work/get.json" >/dev/null
post /api/chats/save "$work/save.json" >/dev/null
get=$(median_of 7 /api/chats/get "$work/get.json")
save=$(median_of 7 /api/chats/save "$work/save.json")
echo "{$chat,\"count\":1}" >"$work/tail.json"
appends=()
for ((i = 0; i < 21; i++)); do
  post /api/tankard/chats/tail "$work/tail.json" "$work/window.json" >/dev/null
  size=$(grep -o '"cursor":{[^}]*}' "$work/window.json" | grep -o '"size":[0-9]*' | cut -d: -f2)
  mtime=$(grep -o '"cursor":{[^}]*}' "$work/window.json" | grep -o '"mtime":[0-9.]*' | cut -d: -f2)
  printf '{%s,"cursor":{"offset":%s,"size":%s,"mtime":%s},"messages":[{"name":"User","is_user":true,"send_date":"December 2, 2026 12:00pm","mes":"One more message, number %s"}]}' \
    "$chat" "$size" "$size" "$mtime" "$i" >"$work/append.json"
  appends+=("$(post /api/tankard/chats/tail/save "$work/append.json")")
done
append=$(printf '%s\n' "${appends[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
ping=$(median_of 7 /api/ping "$work/empty.json")
stop
report+=("Tankard  chats/get ${get} ms, chats/save ${save} ms (medians of 7), one message appended ${append} ms (median of 21); /api/ping ${ping} ms")

if [ -n "$st" ]; then
  tankard=("$first" "$cold" "$warm" "$restart")
  rm -rf "$library/data/_cache/characters" # ST's disk cache of parsed cards: cold as Tankard's
  library_lists start_st 5
  st_first=$first st_cold=$cold st_warm=$warm st_restart=$restart
  first=${tankard[0]} cold=${tankard[1]} warm=${tankard[2]} restart=${tankard[3]}
  restore_chat
  start_st "$chats"
  post /api/chats/get "$work/get.json" >/dev/null
  st_get=$(median_of 7 /api/chats/get "$work/get.json")
  st_save=$(median_of 7 /api/chats/save "$work/save.json")
  stop
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  report+=("ST       first answer after start ${st_first} ms; characters/all: cold ${st_cold} ms, warm ${st_warm} ms (median of 5), after a restart (its disk cache) ${st_restart} ms")
  report+=("ST       chats/get ${st_get} ms, chats/save ${st_save} ms (medians of 7)")
  report+=("Tankard/ST: first answer $(ratio "$first" "$st_first"), characters/all cold $(ratio "$cold" "$st_cold"), warm $(ratio "$warm" "$st_warm"), after a restart $(ratio "$restart" "$st_restart"), chats/get $(ratio "$get" "$st_get"), chats/save $(ratio "$save" "$st_save")")
fi
printf '%s\n' "${report[@]}"
