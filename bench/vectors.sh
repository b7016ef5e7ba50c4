#!/usr/bin/env bash
# Vector Storage at size: /api/vector/insert one item per request up to N items (time per insert by window),
# /api/vector/query at N and, for Tankard, at 100,000 items, Tankard's RSS there; with TANKARD_ST_DIR set, real
# SillyTavern on the same requests in the same run; with --transformers, a "Vectorize All" of 1,000 messages through
# Tankard's embedded model (see bench/README.md).
# Usage: bench/vectors.sh [N] [--transformers]   (default N 10000; env BENCH_BIG, BENCH_BATCH, BENCH_QUERIES,
#        BENCH_WINDOW, BENCH_TRANSFORMERS_N). The data roots are target/bench/vectors/{data,st-data}, emptied each run.
set -euo pipefail
cd "$(dirname "$0")/.."
command="bench/vectors.sh $*"
for v in TANKARD_ST_DIR TANKARD_JAVA_OPTS BENCH_N BENCH_BIG BENCH_BATCH BENCH_ST_N BENCH_QUERIES BENCH_WINDOW BENCH_TRANSFORMERS BENCH_TRANSFORMERS_N; do
    if [ -n "${!v:-}" ]; then command="$v=${!v} $command"; fi
done
./mvnw -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -Dbench.command="$command" -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.VectorBench "$@"
