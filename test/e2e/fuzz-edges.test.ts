import { beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { configureLogger, errorHandler, handle, shapeguard } from '../../src/index.js'
import type { Schema } from '../../src/runtime/pipeline/route-types.js'
import { type FuzzError, type FuzzRoutesOptions, fuzzRoutes } from '../../src/testing/index.js'
import { type Express, hosts } from '../support/e2e.js'

beforeAll(() => configureLogger({ silent: true }))

type Request = { body: Record<string, unknown>; params: Record<string, string> }
type Crash = (req: Request) => boolean

/** One route whose handler throws when `crash` says so (a 500), and answers 200 otherwise. */
function plantedApp(express: Express, path: string, slots: Record<string, Schema>, crash: Crash) {
  const app = express()
  app.use(shapeguard())
  app.use(express.json())
  app.post(
    path,
    ...handle(slots, (req, res) => {
      if (crash(req as never)) throw new Error('planted')
      res.ok({ data: null })
    }),
  )
  app.use(errorHandler())
  return app
}

async function firstFailure(app: unknown, options: FuzzRoutesOptions) {
  const error = (await fuzzRoutes(app, options).then(
    () => undefined,
    (e: unknown) => e,
  )) as FuzzError | undefined
  return error?.report.failures[0]
}

// Each handler crashes on one edge of one kind of bound only: a value the fixed base request and
// the other edges do not have, so the phase finds it through that edge or not at all.
const boundaries: readonly [string, string, Record<string, Schema>, Crash][] = [
  [
    // A plain string's base is at its min length already: an email's is longer.
    'an email at exactly its min length',
    '/things',
    { body: z.object({ email: z.email().min(12).max(60) }) },
    (r) => String(r.body.email).length === 12,
  ],
  [
    'a number at exactly its inclusive max',
    '/things',
    { body: z.object({ qty: z.int().min(1).max(500) }) },
    (r) => r.body.qty === 500,
  ],
  [
    'the largest multiple of its step under its max',
    '/things',
    { body: z.object({ pack: z.int().min(3).max(100).multipleOf(3) }) },
    (r) => r.body.pack === 99,
  ],
  [
    'the nil UUID, an edge of its format',
    '/things/:id',
    { params: z.object({ id: z.uuid() }) },
    (r) => r.params.id === '00000000-0000-0000-0000-000000000000',
  ],
  [
    'the last millisecond of a day, an edge of the date-time format',
    '/things',
    { body: z.object({ due: z.iso.datetime() }) },
    (r) => String(r.body.due).endsWith('T23:59:59.999Z'),
  ],
  [
    'an array at exactly its max items',
    '/things',
    { body: z.object({ tags: z.array(z.string().min(1).max(8)).min(1).max(5) }) },
    (r) => (r.body.tags as unknown[]).length === 5,
  ],
]

describe.each(hosts)('planted crashes on edges, on %s', (_, express) => {
  describe.each([
    ['the boundaries phase alone', { phases: ['boundaries'] }],
    ['the default run', {}],
  ] as const)('%s', (_run, options) => {
    it.each(boundaries)(
      'finds a crash on %s in the boundaries phase',
      async (_name, path, slots, crash) => {
        const failure = await firstFailure(plantedApp(express, path, slots, crash), {
          seed: 5,
          ...options,
        })
        expect(failure?.phase).toBe('boundaries')
        expect(failure?.invariant).toBe('answered 500: a request must never get a 5xx')
      },
      20_000,
    )
  })

  it.each([
    [
      "a string's own example",
      z.object({
        name: z
          .string()
          .min(1)
          .max(30)
          .meta({ examples: ['Zoë Ω'] }),
      }),
      (r: Request) => r.body.name === 'Zoë Ω',
    ],
    [
      "a number's default",
      z.object({ title: z.string(), limit: z.int().min(1).max(100).default(25) }),
      (r: Request) => r.body.limit === 25,
    ],
  ] as const)(
    'finds a crash on %s in the examples phase of the default run',
    async (_name, schema, crash) => {
      const failure = await firstFailure(plantedApp(express, '/things', { body: schema }, crash), {
        seed: 5,
      })
      expect(failure?.phase).toBe('examples')
      expect(failure?.invariant).toBe('answered 500: a request must never get a 5xx')
    },
    20_000,
  )
})
