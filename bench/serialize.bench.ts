import * as z from 'zod'
import { zodAdapter } from '../src/adapters/zod/index.js'
import { compile } from '../src/engine/compile/compile.js'
import { compileJson } from '../src/engine/compile/compile-json.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: is a response schema's compiled JSON writer (check, then strip and serialise in one
// walk) faster than what a guarded route did before: validate and strip the data, wrap it in the
// envelope, JSON.stringify the envelope? And how far is it from JSON.stringify of the unstripped
// envelope, which sends whatever the handler returns? Each case ends with the body's byte length,
// as the send path does (which also makes a concatenated string flat, as writing it would).

const User = z.object({
  id: z.string(),
  email: z.email(),
  name: z.string().min(1).max(100),
  role: z.enum(['admin', 'editor', 'viewer']),
  age: z.int().min(0).optional(),
  verified: z.boolean(),
  address: z.object({ street: z.string(), zip: z.string(), city: z.string() }).nullable(),
  tags: z.array(z.string()),
})
const Page = z.object({
  items: z.array(User),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  pages: z.number(),
})

const user = (i: number) => ({
  id: `u_${i}`,
  email: `user${i}@example.com`,
  name: `User "${i}" Ünïcode`,
  role: 'editor',
  age: 30 + (i % 40),
  verified: i % 2 === 0,
  address: i % 3 === 0 ? null : { street: `${i} Main St`, zip: '12345', city: 'Springfield' },
  tags: ['a', 'b'],
  // What a handler's database row carries besides: the schema strips it.
  passwordHash: '$2b$10$abcdefghijklmnopqrstuv',
  internalNote: 'never sent',
})
const one = user(1)
const page = {
  items: Array.from({ length: 20 }, (_, i) => user(i)),
  total: 200,
  page: 1,
  limit: 20,
  pages: 10,
}

const results: Comparison[] = []
const ratios: Record<string, number> = {}
for (const [name, schema, data] of [
  ['one user', User, one],
  ['a page of 20 users', Page, page],
] as const) {
  const adapter = zodAdapter(schema)
  const validator = compile(adapter)
  const write = compileJson(adapter)
  if (write === undefined) throw new Error(`${name}: no JSON writer`)
  const strip = () => {
    const r = validator.validate(data, false)
    if (r instanceof Promise || !r.success) throw new Error('rejected')
    return r.data
  }
  const before = JSON.stringify({ success: true, message: '', data: strip() })
  const after = `{"success":true,"message":"","data":${write(data, 'data')}}`
  if (before !== after) throw new Error(`${name}: the writer's bytes differ`)
  const c = await compare(`${name}: the envelope's JSON`, 'strip + JSON.stringify', {
    'strip + JSON.stringify': () =>
      Buffer.byteLength(JSON.stringify({ success: true, message: '', data: strip() })),
    'compiled writer': () =>
      Buffer.byteLength(`{"success":true,"message":"","data":${write(data, 'data')}}`),
    'JSON.stringify, unstripped': () =>
      Buffer.byteLength(JSON.stringify({ success: true, message: '', data })),
  })
  printComparison(c)
  results.push(c)
  ratios[name] = c.cases.find((x) => x.name === 'compiled writer')!.vsBaseline
}
process.stdout.write(
  `\ncompiled writer vs strip + JSON.stringify (> 1 is faster): ${JSON.stringify(ratios)}\n`,
)
writeResults(`serialize-node${process.versions.node.split('.')[0]}`, {
  question: "a response schema's compiled JSON writer vs strip + JSON.stringify of the envelope",
  target: 'ratio > 1',
  ratios,
  results,
})
