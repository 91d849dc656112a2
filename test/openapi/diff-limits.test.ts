import { describe, expect, it } from 'vitest'
import { FindingsBelow } from '../../src/openapi/diff/reach.js'
import { diffOpenAPI } from '../../src/openapi/index.js'
import { api, object } from './diff-support.js'

// diffOpenAPI on documents a pull request could hand it: nesting thousands of levels deep, `$ref`
// paths and loops through thousands of components, keys holding control characters, and schemas
// that are not schemas. None may throw, run out of stack, or put a document's text on a line of
// its own.

type Json = Record<string, unknown>
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

// JSON.stringify itself runs out of stack on such documents: they are written as text.
function nested(depth: number, leaf: Json, open: string, close: string): Json {
  return JSON.parse(open.repeat(depth) + JSON.stringify(leaf) + close.repeat(depth))
}
const properties = (depth: number, leaf: Json) =>
  nested(depth, leaf, '{"type":"object","properties":{"a":', '}}')
const allOf = (depth: number, leaf: Json) => nested(depth, leaf, '{"allOf":[', ']}')

/** `count` components, each with a property `next` naming the following one (the last, `end`). */
function path(count: number, end: Json): Json {
  const schemas: Json = { end }
  for (let i = 0; i < count; i++)
    schemas[`S${i}`] = object({ next: ref(i === count - 1 ? 'end' : `S${i + 1}`) })
  return schemas
}

describe('diffOpenAPI on hostile documents', () => {
  it('stops at 64 schemas nested in place, with one warning per place, at depth 5,000', () => {
    const base = api({ request: properties(5000, { type: 'string' }) })
    const head = api({ request: properties(5000, { type: 'integer' }) })
    const findings = diffOpenAPI(base, head)
    expect(findings.map((f) => `${f.level} ${f.rule}`)).toEqual(['warning schema-too-deep'])
    const [deep] = findings
    expect(deep!.message).toMatch(
      /^request `body(\.a){64}`: nested over 64 schemas deep, not compared below \(POST \/items\/\{id\}\)$/,
    )
    expect(deep!.pointer.split('/properties/a').length - 1).toBe(64)
    // Below the limit, a change is found as ever.
    const shallow = diffOpenAPI(
      api({ request: properties(60, { type: 'string' }) }),
      api({ request: properties(60, { type: 'integer' }) }),
    )
    expect(shallow.map((f) => f.rule)).toEqual(['request-type-changed'])
  })

  it('stops at 64 allOf levels too, and reads one allOf in another below that', () => {
    const findings = diffOpenAPI(
      api({ response: allOf(5000, { type: 'string' }) }),
      api({ response: allOf(5000, { type: 'integer' }) }),
    )
    expect(findings.map((f) => f.rule)).toEqual(['schema-too-deep'])
    expect(findings[0]!.pointer).toBe(
      '/paths/~1items~1{id}/post/responses/200/content/application~1json/schema',
    )
    const shallow = diffOpenAPI(
      api({ response: allOf(30, { type: 'string' }) }),
      api({ response: allOf(30, { type: 'integer' }) }),
    )
    expect(shallow.map((f) => f.rule)).toEqual(['response-type-changed'])
  })

  it('follows a $ref path through 3,000 components whole, without running out of stack', () => {
    const findings = diffOpenAPI(
      api({ response: ref('S0'), schemas: path(3000, object({ v: { type: 'string' } })) }),
      api({ response: ref('S0'), schemas: path(3000, object({ v: { type: 'integer' } })) }),
    )
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'response-type-changed',
        pointer: '/components/schemas/end/properties/v',
        operations: ['POST /items/{id}'],
      }),
    ])
  })

  it('ends $ref chains and loops thousands long, each $ref resolved once', () => {
    const chain: Json = { S3000: { type: 'string' } }
    const loop: Json = {}
    for (let i = 0; i < 3000; i++) {
      chain[`S${i}`] = ref(`S${i + 1}`)
      loop[`L${i}`] = ref(`L${(i + 1) % 3000}`)
    }
    const props = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`p${i}`, ref(i % 2 ? `S${i}` : `L${i}`)]),
    )
    const base = api({ request: object(props), schemas: { ...chain, ...loop } })
    const head = structuredClone(base)
    ;(head.components as { schemas: Json }).schemas.S3000 = { type: 'integer' }
    const findings = diffOpenAPI(base, head)
    // Every odd property reaches S3000 through the one chain: one finding, at the chain's end.
    expect(findings.map((f) => [f.rule, f.pointer])).toEqual([
      ['request-type-changed', '/components/schemas/S3000'],
    ])
  })

  it('keeps wide objects and shared components linear: 4,000 properties through 4,000 components', () => {
    // C has 4,000 changed properties; 4,000 components each name C; the body names each of them.
    const side = (type: string) => {
      const schemas: Json = {
        C: object(Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`c${i}`, { type }]))),
      }
      for (let i = 0; i < 4000; i++) schemas[`M${i}`] = object({ c: ref('C') })
      const body = object(
        Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`m${i}`, ref(`M${i}`)])),
      )
      return api({ request: body, schemas })
    }
    const started = performance.now()
    const findings = diffOpenAPI(side('string'), side('integer'))
    expect(findings).toHaveLength(4000)
    // Crediting each finding to each of the 4,000 pairs that reach C took 16 million steps.
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  it('credits a change 4,000 $refs down to each of 4,000 operations, once each', () => {
    // Each operation names S0; S0 to S3999 is a chain of `next` properties, each also naming T,
    // whose 40 properties change, and the chain's end changes too.
    const side = (type: string) => {
      const schemas = path(4000, object({ v: { type } }))
      for (let i = 0; i < 4000; i++) ((schemas[`S${i}`] as Json).properties as Json).t = ref('T')
      schemas.T = object(
        Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`t${i}`, { type }])),
      )
      const response = { description: 'ok', content: { 'application/json': { schema: ref('S0') } } }
      const paths = Object.fromEntries(
        Array.from({ length: 4000 }, (_, i) => [
          `/p${i}`,
          { get: { responses: { '200': response } } },
        ]),
      )
      return api({ paths, schemas })
    }
    const findings = diffOpenAPI(side('string'), side('integer'))
    expect(findings.map((f) => f.pointer)).toEqual([
      ...Array.from({ length: 40 }, (_, i) => `/components/schemas/T/properties/t${i}`),
      '/components/schemas/end/properties/v',
    ])
    const operations = Array.from({ length: 4000 }, (_, i) => `GET /p${i}`)
    for (const finding of findings) expect(finding.operations).toEqual(operations)
    expect(findings.at(-1)!.message).toBe(
      'response `end.v`: type changed from string to integer (GET /p0 and 3999 more operations)',
    )
  })

  it('reads the pair graph once: crediting walks shared nodes, not the chain under each start', () => {
    // 8,000 nodes in a chain, each also leading to T, whose 40 children each hold a finding; the
    // chain's end holds one. The old crediting walked 8,000 nodes for each of 8,000 starts.
    type Node = { inner: Node[]; found: string[] }
    const t: Node = {
      inner: Array.from({ length: 40 }, (_, i) => ({ inner: [], found: [`t${i}`] })),
      found: [],
    }
    const chain: Node[] = [{ inner: [t], found: ['end'] }]
    for (let i = 0; i < 8000; i++) chain.push({ inner: [chain.at(-1)!, t], found: [] })
    const top = chain.at(-1)!
    let read = 0
    const below = new FindingsBelow(
      [top],
      (node: Node) => {
        read++
        return node.inner
      },
      (node) => node.found,
    )
    const starts = Array.from({ length: 8000 }, () => below.from([top]))
    for (const reached of starts) expect(reached.size).toBe(41)
    // Each node's successors read twice (components, then nodes); each start walks the node
    // under the chain, T's and its 40 children's.
    expect(read).toBe(2 * (chain.length + 41))
    expect(below.walked).toBe(8000 * 42)
    // A loop: every node of it reaches every finding in it.
    const a: Node = { inner: [], found: ['a'] }
    const b: Node = { inner: [a], found: ['b'] }
    a.inner.push(b, t)
    const loop = new FindingsBelow(
      [a],
      (node: Node) => node.inner,
      (node) => node.found,
    )
    expect(loop.from([b]).size).toBe(42)
    expect(
      new FindingsBelow(
        [a],
        (node: Node) => node.inner,
        (node) => node.found,
      ).from([t]).size,
    ).toBe(40)
  })

  it('credits a change inside a $ref cycle to every operation that reaches it', () => {
    // X names T before its own changed `late`; T names X back. GET /t reaches `late` through T.
    const side = (type: string) =>
      api({
        paths: {
          '/x': {
            get: {
              responses: {
                '200': { description: 'x', content: { 'application/json': { schema: ref('X') } } },
              },
            },
          },
          '/t': {
            get: {
              responses: {
                '200': { description: 't', content: { 'application/json': { schema: ref('T') } } },
              },
            },
          },
        },
        schemas: {
          X: object({ t: ref('T'), late: { type } }),
          T: object({ x: ref('X') }),
        },
      })
    const [finding] = diffOpenAPI(side('string'), side('integer'))
    expect(finding!.pointer).toBe('/components/schemas/X/properties/late')
    expect(finding!.operations).toEqual(['GET /x', 'GET /t'])
    expect(finding!.message).toBe(
      'response `X.late`: type changed from string to integer (GET /x and 1 more operations)',
    )
  })

  it('reads malformed documents without throwing', () => {
    const good = api({
      request: object({ a: { type: 'string' } }),
      response: object({ a: { type: 'string' } }),
    })
    const malformed: Json[] = [
      api({ request: 5 as never, response: 'x' as never }),
      api({
        request: {
          type: 'object',
          properties: null,
          required: null,
          items: 7,
          allOf: 3,
          oneOf: { a: 1 },
          enum: 'x',
        },
      }),
      api({ request: ref('Nowhere'), response: { $ref: '#no-slash' } }),
      api({
        request: ref('A'),
        response: { $ref: '#/components/schemas/%E0%A4%A' },
        schemas: { A: ref('B'), B: ref('A') },
      }),
      api({ request: { $ref: 'https://example.com/schema.json' }, schemas: null as never }),
      {
        openapi: '3.1.0',
        paths: {
          '/x': null,
          '/y': {
            get: 5,
            post: {
              parameters: [null, 5, { name: 'q', in: 'query', schema: 3 }],
              responses: [1, 2],
              requestBody: 'x',
              security: [null, 3],
            },
          },
        },
        components: { schemas: null, securitySchemes: { a: null } },
        security: 'x',
      },
      { openapi: '3.0.3', paths: [1, 2], components: 5 },
      { openapi: '3.1.0' },
    ]
    for (const doc of malformed) {
      expect(() => diffOpenAPI(good, doc)).not.toThrow()
      expect(() => diffOpenAPI(doc, good)).not.toThrow()
      expect(diffOpenAPI(doc, structuredClone(doc))).toEqual([])
    }
  })

  it('writes a control character or line separator from a key as \\uXXXX: a message is one line', () => {
    const key = 'a\n::error::x\r\u0085\u2028'
    const findings = diffOpenAPI(
      api({ request: object({ [key]: { type: 'string' } }) }),
      api({ request: object({ [key]: { type: 'integer' } }, [`new\n::warning::y`]) }),
    )
    expect(findings.map((f) => f.message)).toEqual([
      'request `body.a\\u000a::error::x\\u000d\\u0085\\u2028`: type changed from string to integer (POST /items/{id})',
      'request `body.new\\u000a::warning::y`: became required (POST /items/{id})',
    ])
    // The pointer is the document's own (RFC 6901): a report escapes it when it prints it.
    expect(findings[0]!.pointer).toContain(key)
  })
})
