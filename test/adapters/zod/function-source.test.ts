import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { transformName } from '../../../src/adapters/zod/function-source.js'

// The adapter names zod's normalisers by their source text (src/adapters/zod/function-source.ts).
// A zod outside the versions below may write them differently: verify these tests, then widen.
const verified = /^4\.(?:[6-9]|[1-9]\d)\.\d+$/

function installedVersion(): string {
  const entry = createRequire(import.meta.url).resolve('zod')
  // The folder right under node_modules: `zod`, or `zod-lowest` under SHAPEGUARD_PEERS=lowest.
  let dir = dirname(entry)
  while (basename(dirname(dir)) !== 'node_modules') {
    if (dirname(dir) === dir) throw new Error(`${entry} is not in node_modules`)
    dir = dirname(dir)
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
}

const tx = (schema: z.ZodString) =>
  (schema._zod.def.checks![0]!._zod.def as unknown as { tx: unknown }).tx

describe('zod function sources', () => {
  it('runs against a zod version the source reading was verified with', () => {
    expect(installedVersion()).toMatch(verified)
  })

  it("names zod's own normalisers, in classic and mini alike", async () => {
    const mini = await import('zod/mini')
    expect(transformName(tx(z.string().trim()))).toBe('trim')
    expect(transformName(tx(z.string().toLowerCase()))).toBe('toLowerCase')
    expect(transformName(tx(z.string().toUpperCase()))).toBe('toUpperCase')
    const m = mini.string().check(mini.trim())
    expect(transformName((m._zod.def.checks![0]!._zod.def as unknown as { tx: unknown }).tx)).toBe(
      'trim',
    )
  })

  it('calls any other function an overwrite, even one that does the same', () => {
    expect(transformName(tx(z.string().overwrite((s) => s.trim())))).toBe('overwrite')
    expect(transformName('(input) => input.trim()')).toBe('overwrite')
  })
})
