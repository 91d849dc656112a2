import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { errorHandler, notFoundHandler } from '../../../src/index.js'
import { configureLogger, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { warnHandlerOrder } from '../../../src/runtime/router/warn-handler-order.js'
import { hosts } from '../../support/e2e.js'

let warn: ReturnType<typeof vi.fn>

beforeEach(() => {
  configureLogger({ silent: false })
  warn = vi.fn()
  vi.spyOn(logger, 'warn').mockImplementation(warn as never)
})

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

describe.each(hosts)('warnHandlerOrder on %s', (_, express) => {
  it('walks an app once: a second call says nothing more', () => {
    const app = express()
    app.use(errorHandler())
    app.put('/items/:id', (_req, res) => res.end())
    warnHandlerOrder(app)
    warnHandlerOrder(app)
    expect(warn.mock.calls).toEqual([
      [
        'shapeguard: errorHandler() is mounted before the route PUT /items/:id: errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
      ],
    ])
  })

  it('knows the factories mounted without their call', () => {
    const app = express()
    app.use(notFoundHandler as never)
    app.get('/items', (_req, res) => res.end())
    app.use(errorHandler as never)
    warnHandlerOrder(app)
    expect(warn.mock.calls).toEqual([
      [
        'shapeguard: notFoundHandler() is mounted before the route GET /items: it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
      ],
    ])
  })

  it('says nothing of an app in the right order, nor of what is not an app', () => {
    const app = express()
    app.all('/any', (_req, res) => res.end())
    app.use(notFoundHandler(), errorHandler())
    for (const value of [app, undefined, null, 'app', {}, () => undefined]) warnHandlerOrder(value)
    expect(warn).not.toHaveBeenCalled()
  })
})

// The order check walks an app's stacks once; this oracle is the walk it replaced (for each
// handler at a stack's root, a second walk of what follows it), run on random apps: routers
// mounted twice, inside themselves, handlers at the root or under a path.
describe('warnHandlerOrder, against the two-walk check it replaced', () => {
  type Item =
    | { t: 'route'; m: 'get' | 'post'; p: string }
    | { t: 'notFound' | 'error'; root: boolean }
    | { t: 'router'; i: number; p: string }
    | { t: 'use' }
  const maxDepth = 32
  const consequences = {
    'notFoundHandler()':
      'it answers 404 before that route is reached; mount notFoundHandler() after your routes, before errorHandler()',
    'errorHandler()':
      'errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
  }
  const terminalOf = (item: Item) =>
    item.t === 'notFound' ? 'notFoundHandler()' : item.t === 'error' ? 'errorHandler()' : undefined

  function oracle(pool: Item[][]): string | undefined {
    const firstAfter = (
      items: Item[],
      prefix: string,
      depth: number,
      seen: Set<unknown>,
    ): string | undefined => {
      if (depth > maxDepth || seen.has(items)) return undefined
      seen.add(items)
      for (const item of items) {
        if (item.t === 'route') {
          return `the route ${item.m.toUpperCase()} ${`${prefix}${item.p}`.replace(/\/{2,}/g, '/')}`
        }
        if (item.t === 'notFound') return 'notFoundHandler()'
        if (item.t !== 'router') continue
        const found = firstAfter(pool[item.i]!, prefix + item.p, depth + 1, seen)
        if (found !== undefined) return found
      }
      return undefined
    }
    const misplaced = (
      items: Item[],
      prefix: string,
      depth: number,
      seen: Set<unknown>,
    ): string | undefined => {
      if (depth > maxDepth || seen.has(items)) return undefined
      seen.add(items)
      for (const [k, item] of items.entries()) {
        const terminal = terminalOf(item)
        if (terminal !== undefined) {
          if (!(item as { root: boolean }).root) continue
          const after = firstAfter(items.slice(k + 1), prefix, depth, new Set())
          if (after !== undefined && !(terminal === 'notFoundHandler()' && after === terminal)) {
            return `shapeguard: ${terminal} is mounted before ${after}: ${consequences[terminal]}`
          }
          continue
        }
        if (item.t !== 'router') continue
        const found = misplaced(pool[item.i]!, prefix + item.p, depth + 1, seen)
        if (found !== undefined) return found
      }
      return undefined
    }
    return misplaced(pool[0]!, '', 0, new Set())
  }

  // The same app as Express 5's layers: a route's `route`, a use() layer's `rawPath` and `slash`.
  function appOf(pool: Item[][]): object {
    const notFound = notFoundHandler()
    const error = errorHandler()
    const stacks: object[][] = pool.map(() => [])
    pool.forEach((items, n) => {
      for (const item of items) {
        if (item.t === 'route')
          stacks[n]!.push({ route: { path: item.p, methods: { [item.m]: true } } })
        else if (item.t === 'router')
          stacks[n]!.push({ handle: { stack: stacks[item.i] }, rawPath: item.p })
        else if (item.t === 'use')
          stacks[n]!.push({ handle: () => undefined, slash: true, rawPath: '/' })
        else {
          const handle = item.t === 'notFound' ? notFound : error
          stacks[n]!.push({ handle, slash: item.root, rawPath: item.root ? '/' : '/docs' })
        }
      }
    })
    return { stack: stacks[0] }
  }

  // Stack n mounts only stacks after it: a router mounted twice, never inside itself.
  const item = (n: number, size: number) =>
    fc.oneof(
      fc.record({
        t: fc.constant('route' as const),
        m: fc.constantFrom('get' as const, 'post' as const),
        p: fc.constantFrom('/a', '/b/:id', '/'),
      }),
      fc.record({ t: fc.constantFrom('notFound' as const, 'error' as const), root: fc.boolean() }),
      fc.record({ t: fc.constant('use' as const) }),
      ...(n + 1 < size
        ? [
            fc.record({
              t: fc.constant('router' as const),
              i: fc.integer({ min: n + 1, max: size - 1 }),
              p: fc.constantFrom('/v1', '/x/'),
            }),
          ]
        : []),
    ) as fc.Arbitrary<Item>
  const app = fc
    .integer({ min: 1, max: 5 })
    .chain((size) =>
      fc.tuple(
        ...Array.from({ length: size }, (_, n) => fc.array(item(n, size), { maxLength: 6 })),
      ),
    )

  it('warns as it did, of the same handler and route', () => {
    fc.assert(
      fc.property(app, (pool) => {
        warn.mockClear()
        warnHandlerOrder(appOf(pool))
        const expected = oracle(pool)
        expect(warn.mock.calls).toEqual(expected === undefined ? [] : [[expected]])
      }),
      { numRuns: 2000 },
    )
  })

  it('ends on a router mounted inside itself', () => {
    const router: Item[] = [
      { t: 'notFound', root: true },
      { t: 'router', i: 0, p: '/v1' },
    ]
    warnHandlerOrder(
      appOf([[{ t: 'router', i: 1, p: '/' }], router, [{ t: 'route', m: 'get', p: '/a' }]]),
    )
    const looped: Item[][] = [
      [
        { t: 'error', root: true },
        { t: 'router', i: 0, p: '/v1' },
        { t: 'route', m: 'get', p: '/a' },
      ],
    ]
    warnHandlerOrder(appOf(looped))
    expect(warn.mock.calls).toEqual([
      [
        'shapeguard: errorHandler() is mounted before the route GET /a: errors from there never reach it and Express answers them with its own HTML page; mount errorHandler() last',
      ],
    ])
  })
})
