#!/usr/bin/env bash
# Runs the suites that prove a Node.js line (e2e, package, engine parity, the multipart and
# cookie readers, the streams and their client, the lifecycle's timers, signals and sockets,
# which lean on Node's streams, sockets and fetch) on each line named, 22 and 24 by default; `npm test` runs everything on the newest LTS line
# (see .ci/run).
#   scripts/test-node-lines.sh          # Node 22 and 24
#   scripts/test-node-lines.sh 26 22
# Each line's binary comes from the npm registry (scripts/node-line.sh). dist/ must be built
# (`npm run build`): the package suite packs it.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22 24)
for line in "${lines[@]}"; do
  bin="$(scripts/node-line.sh "$line")"
  echo "== Node $("$bin/node" --version): e2e, package, parity, multipart, cookie and stream suites"
  PATH="$bin:$PATH" npx vitest run --project e2e --project package --project unit \
    test/e2e/ test/package/ test/engine/parity test/runtime/multipart test/runtime/cookies \
    test/runtime/stream test/runtime/lifecycle test/client
done
