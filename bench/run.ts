import { readdirSync } from 'node:fs'
import { join } from 'node:path'

// `npm run bench` runs every bench/*.bench.ts; `npm run bench -- engine router` runs those only.
const only = process.argv.slice(2)
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace('.bench.ts', '')))

if (files.length === 0) {
  process.stdout.write(`no benchmark matches ${only.join(', ') || '(none written yet)'}\n`)
}
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`)
  await import(join(import.meta.dirname, file))
}
