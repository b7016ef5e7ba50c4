#!/usr/bin/env bash
# The chat engine building a prompt on a long chat with a lorebook, a summary and vector recall (see bench/README.md).
# Usage: [BENCH_OPTS="-Dbench.only=2,3 -Dbench.warm=300"] bench/engine.sh [messages] [entries]   (default 20000 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java ${BENCH_OPTS:-} -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.EngineBench "$@"
