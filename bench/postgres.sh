#!/usr/bin/env bash
# The file store and the PostgreSQL store side by side in one run: characters/all cold and warm, chats/get, a
# whole-chat save of one new message, one message appended and resident memory (see bench/README.md).
# Usage: bench/postgres.sh [cards] [messages]   (default 5000 20000; needs PostgreSQL on 127.0.0.1:5432).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.PostgresBench "$@"
