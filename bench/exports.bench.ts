import fc from 'fast-check'
import { toBruno, toInsomnia, toPostman } from '../src/openapi/index.js'
import { documentArb } from '../test/support/document-arbitrary.js'
import { hostileDocument } from '../test/support/hostile-document.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what does a client export (Postman, Insomnia, Bruno) cost on a hostile document and
// on random ones, next to an ordinary document of 100 operations? The hostile document
// (test/openapi/exports/hostile-document.ts) holds a chain of schemas that fans out 12 ways at
// each of 30 levels; made 60 levels deep, it must cost the same (the exporters stop at a budget
// of work). The random documents are 150 of the fuzz test's (test/openapi/exports/fuzz.test.ts),
// seeded; their case is all 150, per document. The tests prove the budget by counting reads of
// the document.

const user = {
  type: 'object',
  required: ['id', 'name', 'email'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', format: 'email' },
    role: { type: 'string', enum: ['admin', 'member'], default: 'member' },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } },
    },
  },
}
const ordinary = {
  openapi: '3.1.0',
  info: { title: 'Ordinary API', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  paths: Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [
      `/r${i}/{id}`,
      {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          summary: `Read ${i}`,
          parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
          responses: { 200: { description: 'ok' } },
        },
        put: {
          summary: `Replace ${i}`,
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
          },
          responses: { 200: { description: 'ok' } },
        },
      },
    ]),
  ),
  components: { schemas: { User: user } },
}
const hostile = hostileDocument()
const deeper = hostileDocument(60)
const RANDOM = 150
const random = fc
  .sample(documentArb, { numRuns: RANDOM, seed: 1 })
  .map((d) => JSON.parse(JSON.stringify(d)))

const cases: Record<string, () => unknown> = {}
for (const [name, exporter] of [
  ['toPostman', toPostman],
  ['toInsomnia', toInsomnia],
  ['toBruno', toBruno],
] as const) {
  cases[`${name}, ordinary (100 operations)`] = () => exporter(ordinary)
  cases[`${name}, hostile`] = () => exporter(hostile)
  cases[`${name}, hostile, fan-out 60 deep`] = () => exporter(deeper)
  cases[`${name}, ${RANDOM} random (per document)`] = () => {
    for (const doc of random) exporter(doc)
  }
}

const c = await compare(
  'client exports: hostile and random documents',
  'toPostman, ordinary (100 operations)',
  cases,
)
// The random case ran all its documents at once: its figures are per document.
for (const r of c.cases) {
  if (!r.name.includes('random')) continue
  r.meanNs = Math.round(r.meanNs / RANDOM)
  r.opsPerSec *= RANDOM
  r.vsBaseline = Number((r.vsBaseline * RANDOM).toFixed(3))
}
printComparison(c)
process.stdout.write('  milliseconds per export:\n')
for (const r of c.cases) {
  process.stdout.write(`    ${r.name.padEnd(42)} ${(r.meanNs / 1e6).toFixed(2).padStart(9)} ms\n`)
}
writeResults('exports', [c])
