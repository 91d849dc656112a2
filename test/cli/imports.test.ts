import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from '../support/cli.js'

// The command reaches the package only through its public entries, which the built bin imports
// from the package's own dist (tsup.config.ts keeps them external and refuses any other import
// outside src/cli): one copy of the runtime, the one the user's app loads. src/shared is the one
// exception: it holds no state, so the copy bundled into the bin splits nothing.

const dir = join(root, 'src/cli')
const shared = join(root, 'src/shared')
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.ts'),
)
const allowed =
  /^(?:node:[\w/]+|shapeguard(?:\/openapi|\/testing|\/package\.json)?|@seriousme\/openapi-schema-validator|\.{1,2}\/.*)$/

describe('src/cli', () => {
  it.each(files)(
    '%s imports node:, the public entries, its optional peer, src/cli and src/shared only',
    (file) => {
      const code = readFileSync(join(dir, file), 'utf8')
      const specifiers = [...code.matchAll(/(?:from |import\(|require\w*\()'([^']+)'/g)].map(
        (m) => m[1] ?? '',
      )
      expect(specifiers.filter((s) => !allowed.test(s))).toEqual([])
      const outside = specifiers.filter(
        (s) =>
          s.startsWith('.') &&
          !join(dir, file, '..', s).startsWith(dir) &&
          !join(dir, file, '..', s).startsWith(shared),
      )
      expect(outside).toEqual([])
    },
  )
})
