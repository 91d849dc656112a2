import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as y from 'yup'
import {
  hasNoTypeCheck,
  isNumberCast,
  stringTransformName,
} from '../../../src/adapters/yup/function-source.js'

// The adapter tells yup's own casts and transforms from a user's by their source text
// (src/adapters/yup/function-source.ts). A yup outside the versions below may write them
// differently: verify these tests, then widen. Verified with yup 1.0.0 (npm run test:peers) and 1.7.
const verified = /^1\.\d+\.\d+$/

function installedVersion(): string {
  const entry = createRequire(import.meta.url).resolve('yup')
  // The folder right under node_modules: `yup`, or `yup-lowest` under SHAPEGUARD_PEERS=lowest.
  let dir = dirname(entry)
  while (basename(dirname(dir)) !== 'node_modules') {
    if (dirname(dir) === dir) throw new Error(`${entry} is not in node_modules`)
    dir = dirname(dir)
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
}

describe('yup function sources', () => {
  it('runs against a yup version the source reading was verified with', () => {
    expect(installedVersion()).toMatch(verified)
  })

  it("recognises yup's own number cast, on every number schema", () => {
    expect(isNumberCast(y.number().transforms[0])).toBe(true)
    expect(isNumberCast(y.number().integer().min(1).transforms[0])).toBe(true)
    expect(isNumberCast(y.string().transforms[0])).toBe(false)
    expect(isNumberCast((x: unknown) => Number(x))).toBe(false)
  })

  it("names yup's own string transforms, and no user transform", () => {
    const [, trim, lower, upper] = y.string().trim().lowercase().uppercase().transforms
    expect([trim, lower, upper].map(stringTransformName)).toEqual([
      'trim',
      'toLowerCase',
      'toUpperCase',
    ])
    const own = y.string().transform((s: string) => s.trim()).transforms[1]
    expect(stringTransformName(own)).toBeUndefined()
  })

  it("tells mixed()'s accept-all check from a check of the user's", () => {
    const plain = y.mixed().nullable() as unknown as { _typeCheck: unknown }
    expect(hasNoTypeCheck(plain)).toBe(true)
    const typed = y.mixed((x): x is string => typeof x === 'string') as unknown as {
      _typeCheck: unknown
    }
    expect(hasNoTypeCheck(typed)).toBe(false)
  })
})
