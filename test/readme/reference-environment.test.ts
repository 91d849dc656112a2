import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { environmentReference, outputPath, variables } from '../../scripts/reference/environment.js'

// docs/reference/environment.md is generated from the list in scripts/reference/environment.ts:
// it must be what the generator writes now, and name every variable src/ reads.

const src = resolve(import.meta.dirname, '../../src')
const committed = () => readFileSync(outputPath, 'utf8')

/**
 * The variables src/ reads: `process.env.NAME` and `process.env[NAME]` (a constant of the same
 * file), outside comments (a JSDoc example's `process.env.API_KEY` is the reader's own).
 */
function variablesRead(): Map<string, string[]> {
  const read = new Map<string, string[]>()
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  )
  for (const file of files) {
    const text = readFileSync(resolve(src, file), 'utf8')
    const constants = new Map(
      [...text.matchAll(/const (\w+) = '([A-Z][A-Z0-9_]*)'/g)].map((m) => [m[1], m[2]]),
    )
    text.split('\n').forEach((line, i) => {
      if (/^\s*(?:\*|\/\/|\/\*)/.test(line)) return
      for (const m of line.matchAll(/process\.env(?:\.(\w+)|\[(\w+)\])/g)) {
        const name = m[1] ?? constants.get(m[2] ?? '') ?? `[${m[2]}]`
        read.set(name, [...(read.get(name) ?? []), `src/${file}:${i + 1}`])
      }
    })
  }
  return read
}

describe('docs/reference/environment.md', () => {
  it('is what `npm run docs:reference` generates from the list', () => {
    expect(committed(), 'docs/reference/environment.md is stale: run npm run docs:reference').toBe(
      environmentReference(),
    )
  })

  it('names every environment variable src/ reads, and none it does not', () => {
    const read = variablesRead()
    expect(read.size).toBeGreaterThanOrEqual(6)
    const listed = new Set(variables.map((v) => v.name))
    const missing = [...read].filter(([name]) => !listed.has(name)).map(([n, at]) => `${n} (${at})`)
    expect(
      missing,
      'read in src/ but not on the page: add them to scripts/reference/environment.ts',
    ).toEqual([])
    expect(variables.map((v) => v.name).filter((name) => !read.has(name))).toEqual([])
  })

  it('gives every variable what it changes and its default', () => {
    for (const v of variables) {
      expect(v.effect.length, v.name).toBeGreaterThan(20)
      expect(v.default, v.name).not.toBe('')
      expect(committed()).toContain(`## ${v.name}\n`)
    }
  })
})
