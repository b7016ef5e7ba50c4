#!/usr/bin/env bash
# One node, then two on one PostgreSQL database behind nginx, under the clients of bench/load.sh, then the two with a
# rolling restart during the load: errors, throughput, p50/p99 (see bench/README.md).
# Usage: bench/nodes.sh [clients] [seconds] [cards]   (default 100 60 500; needs PostgreSQL on 127.0.0.1:5432 and
# Debian's nginx: apt-get install nginx, or NGINX=/path/to/nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -cp "$PWD/target/classes:$PWD/target/test-classes:$(cat target/bench.classpath)" tankard.bench.NodesBench "$@"
