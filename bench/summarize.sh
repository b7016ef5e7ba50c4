#!/usr/bin/env bash
# Summary of summaries: tokens in per second and peak memory over long texts, against one direct call in the same
# run, with the tiny test model and (TANKARD_SUMMARY_MODEL=<ONNX export folder>) a real one (see bench/README.md).
# Usage: bench/summarize.sh [TOKENS...]      # default: 1000 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
# as bin/tankard runs the model (bin/jvm.options, then TANKARD_JAVA_OPTS); summary of summaries logs every chunk at info
# shellcheck disable=SC2086
exec java @bin/jvm.options ${TANKARD_JAVA_OPTS:-} -Dorg.slf4j.simpleLogger.log.tankard.summarize=warn \
    -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.SummarizeBench "$@"
