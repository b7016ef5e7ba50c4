#!/usr/bin/env bash
# Cold start to first 200 and resident memory after boot, for any server command (Tankard or ST).
# Usage: bench/coldstart.sh PORT RUNS -- COMMAND...   (the command must listen on 127.0.0.1:PORT)
# Prints one line per run and the medians. Compare two servers by running both in the same session.
set -euo pipefail
port=$1; runs=$2; shift 3
url="http://127.0.0.1:$port/csrf-token"
times=(); rss=()
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s%N)
  "$@" >/tmp/coldstart.$$.log 2>&1 &
  pid=$!
  until curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null | grep -q 200; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "server exited; log:"; cat /tmp/coldstart.$$.log; exit 1; fi
    sleep 0.02
  done
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  # Let start-up work settle, then load the main page once, as a browser would, before measuring memory.
  curl -s -o /dev/null "http://127.0.0.1:$port/" || true
  sleep 3
  kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "run $i: first 200 after ${ms} ms, RSS $((kb / 1024)) MB"
  times+=("$ms"); rss+=("$((kb / 1024))")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median: first 200 after $(median "${times[@]}") ms, RSS $(median "${rss[@]}") MB"
rm -f /tmp/coldstart.$$.log
