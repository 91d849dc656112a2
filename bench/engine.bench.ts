import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import * as v from 'valibot'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../src/adapters/valibot/index.js'
import { yupAdapter } from '../src/adapters/yup/index.js'
import { zodAdapter } from '../src/adapters/zod/index.js'
import { compile } from '../src/engine/index.js'
import {
  invalidQuery,
  invalidUser,
  valibotSchemas,
  validQuery,
  validUser,
  yupSchemas,
  zodSchemas,
} from '../test/fixtures/schemas.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: is the compiled engine at least 4× zod's safeParse and within 1.25× of raw ajv on
// valid input, no slower than 1.1× safeParse on invalid input, and quick to compile? And for the
// same fixtures written in valibot and yup: at least 4× valibot's safeParse and 50× yup's
// validateSync on valid input, within 1.25× of raw ajv?

// The fixtures every library's tests use too (test/fixtures/schemas.ts).
const CreateUser = zodSchemas.body
const UserList = z.array(CreateUser)
const Query = zodSchemas.query
const user = validUser
const users = Array.from({ length: 200 }, (_, i) => ({ ...user, username: `user${i}` }))
const query = validQuery
const badUser = invalidUser
const badUsers = users.map((u, i) => (i === 150 ? badUser : u))
const badQuery = invalidQuery

// Raw ajv on a hand-written JSON Schema: the ceiling for a compiled check (it builds no output).
const ajv = new Ajv2020({ allErrors: false })
addFormats(ajv, ['email'])
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max })
const userJson = {
  type: 'object',
  required: [
    'firstName',
    'lastName',
    'email',
    'username',
    'role',
    'tags',
    'bio',
    'website',
    'address',
  ],
  properties: {
    firstName: str(1, 50),
    lastName: str(1, 50),
    email: { type: 'string', format: 'email' },
    username: str(3, 20),
    age: { type: 'integer', minimum: 0, maximum: 150 },
    role: { enum: ['admin', 'editor', 'viewer'] },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } },
    bio: { type: 'string', maxLength: 500 },
    website: { type: 'string', maxLength: 200 },
    address: {
      type: 'object',
      required: ['street', 'zip', 'city'],
      properties: {
        street: str(1, 100),
        zip: { type: 'string', pattern: '^\\d{5}$' },
        city: { type: 'string', minLength: 1 },
      },
    },
  },
}
const rawUser = ajv.compile(userJson)
const rawList = ajv.compile({ type: 'array', items: userJson })
// ajv cannot coerce like zod; its raw check of an already-typed query is the fairest ceiling.
const rawQuery = ajv.compile({
  type: 'object',
  properties: {
    page: { type: 'string', pattern: '^\\d+$' },
    limit: { type: 'string', pattern: '^\\d+$' },
    sort: { enum: ['name', 'createdAt', '-name', '-createdAt'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
})

const compileStart = performance.now()
const engines = {
  user: compile(zodAdapter(CreateUser)),
  list: compile(zodAdapter(UserList)),
  query: compile(zodAdapter(Query)),
}
const firstCompileMs = performance.now() - compileStart
// A fresh schema of the same shape: the cost of compiling one more route schema.
const later: number[] = []
for (let i = 0; i < 11; i++) {
  const again = z.object({ ...CreateUser.shape, extra: z.string().optional() })
  const t = performance.now()
  compile(zodAdapter(again))
  later.push(performance.now() - t)
}
later.sort((a, b) => a - b)
const laterCompileMs = later[5]!

const compiledZod = (s: z.ZodType) => {
  const c = (z as unknown as { compile?: (s: z.ZodType) => z.ZodType }).compile
  return c ? c(s) : s
}
const zc = { user: compiledZod(CreateUser), list: compiledZod(UserList), query: compiledZod(Query) }

const fixtures = [
  {
    name: 'create user body',
    schema: CreateUser,
    engine: engines.user,
    raw: rawUser,
    zc: zc.user,
    good: user,
    bad: badUser,
  },
  {
    name: '200 users array',
    schema: UserList,
    engine: engines.list,
    raw: rawList,
    zc: zc.list,
    good: users,
    bad: badUsers,
  },
  {
    name: 'query with coercion',
    schema: Query,
    engine: engines.query,
    raw: rawQuery,
    zc: zc.query,
    good: query,
    bad: badQuery,
  },
]

const results: Comparison[] = []
const ratios: Record<string, Record<string, number>> = {}
for (const f of fixtures) {
  if (!(f.engine.validate(f.good, false) as { success: boolean }).success)
    throw new Error(`${f.name}: engine rejected`)
  const valid = await compare(`${f.name}, valid input`, 'zod safeParse', {
    'zod safeParse': () => f.schema.safeParse(f.good),
    'zod z.compile (reference)': () => f.zc.safeParse(f.good),
    'raw ajv (hand-written JSON Schema)': () => f.raw(f.good),
    'shapeguard engine': () => f.engine.validate(f.good, false),
  })
  // A rejection must produce issues, so the baseline reads them too (zod builds them lazily).
  const invalid = await compare(`${f.name}, invalid input`, 'zod safeParse', {
    'zod safeParse': () => f.schema.safeParse(f.bad).error?.issues,
    'shapeguard engine': () => f.engine.validate(f.bad, false),
  })
  printComparison(valid)
  printComparison(invalid)
  results.push(valid, invalid)
  const hz = (c: Comparison, n: string) => c.cases.find((x) => x.name === n)!.opsPerSec
  ratios[f.name] = {
    engineVsZod: Number((hz(valid, 'shapeguard engine') / hz(valid, 'zod safeParse')).toFixed(2)),
    engineVsRawAjvSlowdown: Number(
      (hz(valid, 'raw ajv (hand-written JSON Schema)') / hz(valid, 'shapeguard engine')).toFixed(2),
    ),
    engineVsZodCompile: Number(
      (hz(valid, 'shapeguard engine') / hz(valid, 'zod z.compile (reference)')).toFixed(2),
    ),
    invalidSlowdownVsZod: Number(
      (hz(invalid, 'zod safeParse') / hz(invalid, 'shapeguard engine')).toFixed(2),
    ),
  }
}

// The same three fixtures in valibot and yup (test/fixtures/schemas.ts), against each library's
// own parser and raw ajv.
const others = [
  {
    library: 'valibot',
    baseline: 'valibot safeParse',
    parse: (schema: unknown) => (x: unknown) => v.safeParse(schema as v.GenericSchema, x),
    parseBad: (schema: unknown) => (x: unknown) => v.safeParse(schema as v.GenericSchema, x).issues,
    schemas: {
      user: valibotSchemas.body,
      list: v.array(valibotSchemas.body),
      query: valibotSchemas.query,
    },
    adapter: (s: unknown) => valibotAdapter(s as v.GenericSchema),
  },
  {
    library: 'yup',
    baseline: 'yup validateSync',
    parse: (schema: unknown) => (x: unknown) => (schema as y.AnySchema).validateSync(x),
    parseBad: (schema: unknown) => (x: unknown) => {
      try {
        return (schema as y.AnySchema).validateSync(x)
      } catch (e) {
        return e
      }
    },
    schemas: {
      user: yupSchemas.body,
      list: y.array(yupSchemas.body).required(),
      query: yupSchemas.query,
    },
    adapter: (s: unknown) => yupAdapter(s as y.AnySchema),
  },
]
const inputs = {
  user: { good: user, bad: badUser, raw: rawUser, name: 'create user body' },
  list: { good: users, bad: badUsers, raw: rawList, name: '200 users array' },
  query: { good: query, bad: badQuery, raw: rawQuery, name: 'query with coercion' },
}
const libraryRatios: Record<string, Record<string, Record<string, number>>> = {}
for (const lib of others) {
  libraryRatios[lib.library] = {}
  for (const key of ['user', 'list', 'query'] as const) {
    const schema = lib.schemas[key]
    const f = inputs[key]
    const engine = compile(lib.adapter(schema))
    if (!engine.compiled) throw new Error(`${lib.library} ${f.name}: not compiled`)
    if (!(engine.validate(f.good, false) as { success: boolean }).success)
      throw new Error(`${lib.library} ${f.name}: engine rejected`)
    const own = lib.parse(schema)
    const ownBad = lib.parseBad(schema)
    const valid = await compare(`${lib.library}: ${f.name}, valid input`, lib.baseline, {
      [lib.baseline]: () => own(f.good),
      'raw ajv (hand-written JSON Schema)': () => f.raw(f.good),
      'shapeguard engine': () => engine.validate(f.good, false),
    })
    const invalid = await compare(`${lib.library}: ${f.name}, invalid input`, lib.baseline, {
      [lib.baseline]: () => ownBad(f.bad),
      'shapeguard engine': () => engine.validate(f.bad, false),
    })
    printComparison(valid)
    printComparison(invalid)
    results.push(valid, invalid)
    const hz = (c: Comparison, n: string) => c.cases.find((x) => x.name === n)!.opsPerSec
    libraryRatios[lib.library]![f.name] = {
      engineVsLibrary: Number(
        (hz(valid, 'shapeguard engine') / hz(valid, lib.baseline)).toFixed(2),
      ),
      engineVsRawAjvSlowdown: Number(
        (hz(valid, 'raw ajv (hand-written JSON Schema)') / hz(valid, 'shapeguard engine')).toFixed(
          2,
        ),
      ),
      invalidSlowdownVsLibrary: Number(
        (hz(invalid, lib.baseline) / hz(invalid, 'shapeguard engine')).toFixed(2),
      ),
    }
  }
}

const compileCost = {
  firstCompileMs: Number(firstCompileMs.toFixed(1)),
  laterCompileMs: Number(laterCompileMs.toFixed(2)),
}
process.stdout.write(
  `\nratios ${JSON.stringify(ratios, null, 2)}\nlibraries ${JSON.stringify(libraryRatios, null, 2)}\ncompile ${JSON.stringify(compileCost)}\n`,
)
writeResults(`engine-node${process.versions.node.split('.')[0]}`, {
  question:
    'engine vs zod safeParse, z.compile and raw ajv; vs valibot safeParse and yup validateSync',
  ratios,
  libraryRatios,
  compileCost,
  results,
})
