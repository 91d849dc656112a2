// The npm registry reachable here does not hold every platform's prebuilt binary (biome,
// rollup), so `npm install` leaves those optional packages out of package-lock.json, and
// `npm ci` then refuses the lock as out of sync. This restores the missing entries as
// optional packages at the exact versions their parents pin; `npm ci` skips them when they
// cannot be fetched, as it does for any optional dependency. Run after `npm install`;
// `--check` (part of `npm run lint`) fails when entries are missing instead of writing them.
import { readFileSync, writeFileSync } from 'node:fs'

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
let added = 0

for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range)) continue
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`
    if (packages[nested] || packages[`node_modules/${name}`]) continue
    packages[`node_modules/${name}`] = {
      version: range,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    }
    added++
  }
}

if (process.argv.includes('--check')) {
  if (added > 0) {
    process.stderr.write(`package-lock.json lacks ${added} optional entries: run npm run lock\n`)
    process.exit(1)
  }
  process.exit(0)
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b)))
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
process.stdout.write(`complete-lockfile: ${added} optional entries restored\n`)
