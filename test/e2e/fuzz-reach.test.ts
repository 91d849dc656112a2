import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import { type FuzzError, type FuzzPhase, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => configureLogger({ silent: true }))

type Tree = { name: string; children?: Tree[] | undefined }
const Tree: z.ZodType<Tree> = z.lazy(() =>
  z.object({ name: z.string().max(20), children: z.array(Tree).max(5).optional() }),
)
const depth = (t: Tree): number => 1 + Math.max(0, ...(t.children ?? []).map(depth))

// One route per kind of bound, each crashing only far from fast-check's small default sizes.
const planted: readonly [string, z.ZodType, (body: never) => boolean][] = [
  ['/name', z.object({ name: z.string().max(60) }), (b: { name: string }) => b.name.length > 30],
  [
    '/tags',
    z.object({ tags: z.array(z.string().max(5)).max(50) }),
    (b: { tags: string[] }) => b.tags.length >= 40,
  ],
  [
    '/price',
    z.object({ price: z.number().min(0).max(1000) }),
    (b: { price: number }) => b.price > 900,
  ],
  [
    '/count',
    z.object({ count: z.number().int().min(1).max(500) }),
    (b: { count: number }) => b.count === 500,
  ],
  ['/tree', Tree, (b: Tree) => depth(b) >= 5],
  [
    '/labels',
    z.object({ labels: z.record(z.string().max(10), z.number()) }),
    (b: { labels: object }) => Object.keys(b.labels).length > 20,
  ],
]

function reachApp(express: Express, path: string, body: z.ZodType, crash: (b: never) => boolean) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json({ limit: '1mb' }))
  app.post(
    path,
    ...handle({ body }, (req, res) => {
      if (crash(req.body as never)) throw new Error('planted')
      res.ok({ data: null })
    }),
  )
  app.use(errorHandler())
  return app
}

const found = async (app: unknown, phases?: FuzzPhase[]) => {
  const error = (await fuzzRoutes(app, { seed: 1, ...(phases && { phases }) }).then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError | undefined
  return error?.report.failures[0]?.invariant
}

// Before: strings of at most ~13 characters, arrays of at most 4 items, doubles crowded near 0,
// records of at most 3 keys and recursions 2 rounds deep: none of these crashes was found.
describe.each(hosts)(
  'the default fuzz run reaches the whole range a schema allows, on %s',
  (_, express) => {
    it.each(planted)(
      'finds the crash far along %s, in the default run and in the random phase alone',
      async (path, body, crash) => {
        const app = reachApp(express, path, body, crash)
        expect(await found(app)).toBe('answered 500: a request must never get a 5xx')
        expect(await found(app, ['random'])).toBe('answered 500: a request must never get a 5xx')
      },
      30_000,
    )
  },
)
