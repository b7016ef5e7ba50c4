#!/usr/bin/env bash
# Many clients at once on bin/tankard's JVM settings and on the JVM's defaults: throughput, p50/p99 and resident
# memory at start, middle and end (see bench/README.md).
# Usage: bench/load.sh [clients] [seconds] [cards]   (default: 100 60 500). Data is kept in target/bench/load/.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.LoadBench "$@"
