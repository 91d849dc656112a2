import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyTable, lookup, refresh } from '../../../src/runtime/router/route-table.js'
import { hosts } from '../../support/e2e.js'

// The table may hand the host layers that do not match (the host checks), never leave out one
// that does: every layer whose own compiled pattern matches a path is among the positions.

interface Layer {
  route?: { path?: unknown }
  match(path: string): unknown
  regexp?: unknown
}

const segment = fc.oneof(
  fc.constantFrom('a', 'B', 'users', 'x.y', 'v1', '%41', 'caf%C3%A9', '~u', "it's", ''),
  fc.constantFrom(':id', ':name', ':_x1'),
)
const pattern = fc
  .tuple(fc.array(segment, { maxLength: 4 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.join('/')}${slash && segments.length > 0 ? '/' : ''}`)
  // Parameter names must differ within one pattern.
  .filter((p) => new Set(p.match(/:\w+/g) ?? []).size === (p.match(/:\w+/g) ?? []).length)

const pathSegment = fc.oneof(
  fc.constantFrom('a', 'A', 'b', 'USERS', 'users', 'x.y', 'X.Y', 'v1', '%41', '%61', 'caf%c3%a9'),
  fc.constantFrom('\u212Aey', 'ſers', "it's", '~U', '', '..', '.', '%2F', 'a%2Fb', 'é'),
  fc.string({ maxLength: 3 }).map((s) => s.replace(/[/?#\s]/g, '')),
)
const path = fc
  .tuple(fc.array(pathSegment, { maxLength: 6 }), fc.constantFrom('', '/', '//'))
  .map(([segments, end]) => `/${segments.join('/')}${end}`)

// A match that throws (a parameter that is not valid percent-encoding) is a match: the host's
// pattern matched and its error goes on to the error middleware.
function matches(layer: Layer, path: string): boolean {
  try {
    return Boolean(layer.match(path))
  } catch {
    return true
  }
}

describe.each(hosts)('route table on %s', (_, express) => {
  it('holds every route layer whose pattern matches the path', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pattern, fc.array(pattern, { minLength: 1, maxLength: 2 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(path, { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        fc.boolean(),
        (patterns, paths, strict, caseSensitive) => {
          const router = express.Router({ strict, caseSensitive })
          for (const p of patterns) router.get(p as string, () => {})
          const stack = (router as unknown as { stack: Layer[] }).stack
          const table = refresh(emptyTable(stack), stack)
          for (const p of paths) {
            const positions = lookup(table, p)
            stack.forEach((layer, i) => {
              if (matches(layer, p))
                expect(positions, `${p} vs ${String(layer.route?.path)}`).toContain(i)
            })
            expect([...positions].sort((a, b) => a - b)).toEqual([...new Set(positions)])
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it('hands over layers it cannot read on every path, and use() layers', () => {
    const router = express.Router()
    router.use((_req, _res, next) => next())
    router.get('/a/:id', () => {})
    router.get(/^\/r/, () => {})
    router.get(express === hosts[0][1] ? '/w/*' : '/w/*rest', () => {})
    router.get(express === hosts[0][1] ? '/o/:id?' : '/o{/:id}', () => {})
    router.get('/p-:id', () => {})
    router.get('/a/b', () => {})
    const stack = (router as unknown as { stack: Layer[] }).stack
    const table = refresh(emptyTable(stack), stack)
    expect(lookup(table, '/zzz')).toEqual([0, 2, 3, 4, 5])
    expect(lookup(table, '/a/b')).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(lookup(table, '/A/x/')).toEqual([0, 1, 2, 3, 4, 5])
    expect(lookup(table, '/a/b/c/d/e/f')).toEqual([0, 2, 3, 4, 5])
  })

  it('indexes layers added later, and starts over when the stack is replaced', () => {
    const router = express.Router()
    router.get('/a', () => {})
    const host = router as unknown as { stack: Layer[] }
    let table = refresh(emptyTable(host.stack), host.stack)
    expect(lookup(table, '/b')).toEqual([])
    router.get('/b', () => {})
    table = refresh(table, host.stack)
    expect(lookup(table, '/b')).toEqual([1])
    host.stack = host.stack.slice(1)
    table = refresh(table, host.stack)
    expect(lookup(table, '/b')).toEqual([0])
    expect(lookup(table, '/a')).toEqual([])
  })
})
