#!/usr/bin/env bash
# curl.sh on the same library and chat in two spellings: as ST writes JSON, and as Python's json.dumps does
# (a space after "," and ":", non-ASCII as \u escapes; tankard.bench.Respell), with SillyTavern in the same run
# when TANKARD_ST_DIR is set. The chats/save body of each run is its chat's lines, so it is spelled the same way.
# Usage: bench/spellings.sh [cards] [messages]   (default 5000 20000; as curl.sh, run characters.sh and chats.sh
# with them first and build the jar). The respelled copies are kept in target/bench/spelled/.
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-5000}
messages=${2:-20000}
spelled=target/bench/spelled
if [ ! -d "$spelled/n$cards" ] || [ ! -d "$spelled/chats" ]; then
  mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
  classpath="$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)"
  rm -rf "$spelled"
  java -cp "$classpath" tankard.bench.Respell "target/bench/n$cards/data" "$spelled/n$cards/data"
  chat=data/default-user/chats/Bench/n$messages.jsonl # the one chat curl.sh reads
  java -cp "$classpath" tankard.bench.Respell "target/bench/chats/$chat" "$spelled/chats/$chat"
fi
echo "== as ST writes JSON"
bench/curl.sh "$cards" "$messages"
echo "== as Python's json.dumps writes JSON"
BENCH_LIBRARY=$PWD/$spelled/n$cards BENCH_CHATS=$PWD/$spelled/chats bench/curl.sh "$cards" "$messages"
