#!/usr/bin/env bash
# Chat get/save at size, a 200 MB save and a 1,000-chat listing (see bench/README.md); with TANKARD_ST_DIR set,
# real SillyTavern on the same files in the same run.
# Usage: bench/chats.sh [N...]   (default: 1000 20000 100000 messages). Chats are kept in target/bench/chats/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.ChatBench "$@"
