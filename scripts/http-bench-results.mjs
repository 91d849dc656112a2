// The per-line results of `npm run bench:http` (bench/results/http-node<MAJOR>.json), as the
// chart and README scripts read them: the files named, else every one in bench/results/.
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

const lineOf = (file) => Number(/^http-node(\d+)\.json$/.exec(basename(file))?.[1])

/**
 * Each line's run, oldest line first: `{ file, line, date, node, version, ...results }`
 * (`results` holds `settings`, `rows`, `ratios` and `targets`).
 */
export function readRuns(named) {
  const files = (
    named.length > 0
      ? named
      : readdirSync(join(root, 'bench/results'))
          .filter((f) => Number.isInteger(lineOf(f)))
          .map((f) => join(root, 'bench/results', f))
  ).sort((a, b) => lineOf(a) - lineOf(b))
  if (files.length === 0)
    throw new Error('no bench/results/http-node<MAJOR>.json: run `npm run bench:http`')
  return files.map((file) => {
    if (!Number.isInteger(lineOf(file)))
      throw new Error(`${file} is not named http-node<MAJOR>.json`)
    const { date, node, results } = JSON.parse(readFileSync(file, 'utf8'))
    if (!Array.isArray(results?.rows) || results.rows.length === 0)
      throw new Error(`${file} has no rows`)
    return { file, line: lineOf(file), date, node, version: node.replace(/^v/, ''), ...results }
  })
}
