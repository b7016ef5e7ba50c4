#!/usr/bin/env bash
# What the completion proxy adds: time to first byte, events/s per stream and RSS, streaming from a mock
# OpenAI-compatible server directly, through Tankard and (with TANKARD_ST_DIR set) through real SillyTavern, with 1
# and 100 concurrent streams (see bench/README.md).
# Usage: bench/proxy.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.ProxyBench "$@"
