#!/usr/bin/env bash
# characters/all at scale: builds N synthetic cards and times Tankard's list on them (see bench/README.md).
# Usage: bench/characters.sh [N...]   (default: 1000 5000). Libraries are kept in target/bench/ between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.CharacterListBench "$@"
