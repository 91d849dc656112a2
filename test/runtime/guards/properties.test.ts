import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/runtime/core/app-error.js'
import { guardBody } from '../../../src/runtime/guards/body-guard.js'
import { type GuardLimits, resolveLimits } from '../../../src/runtime/guards/limits.js'
import { guardQuery } from '../../../src/runtime/guards/query-guard.js'
import { type Expected, expectedBody, expectedQuery } from './oracle.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000)
// `npm run fuzz` runs far more cases than `npm test`: the time allowed grows with them.
const TIMEOUT = Math.max(5_000, RUNS * 3)

const guardCodes = new Set([
  'PROTO_POLLUTION',
  'BODY_TOO_DEEP',
  'BODY_ARRAY_TOO_LARGE',
  'STRING_TOO_LONG',
  'PARAM_POLLUTION',
])

const hostile = ['\u0000', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u202a', '\u202e']
const unit = fc.oneof(
  fc.constantFrom('a', 'b', 'x', '😀', '\ud800', ...hostile, '\u2066', '\u2069'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
)
const text = fc.string({ unit, maxLength: 12 })
const key = fc.oneof(
  { weight: 3, arbitrary: text },
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'polluted',
    '__pro\u200bto__',
    'con\u202estructor',
    'proto\u0000type',
    'a\u200b',
    'a',
    '0',
    '1',
  ),
)

/** JSON text, so that `__proto__` keys become own keys as body parsers make them. */
const { value: json } = fc.letrec<{ value: string; array: string; object: string; deep: string }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text.map((s) => JSON.stringify(s)),
      fc.oneof(fc.integer(), fc.constantFrom(true, false, null)).map(String),
      tie('array'),
      tie('object'),
      tie('deep'),
    ),
    array: fc.array(tie('value'), { maxLength: 7 }).map((items) => `[${items.join(',')}]`),
    object: fc
      .array(fc.tuple(key, tie('value')), { maxLength: 5 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    deep: fc
      .tuple(fc.integer({ min: 1, max: 12 }), fc.boolean(), tie('value'))
      .map(([n, arrays, v]) =>
        arrays ? '['.repeat(n) + v + ']'.repeat(n) : '{"d":'.repeat(n) + v + '}'.repeat(n),
      ),
  }),
)

const smallLimits = fc.record({
  maxDepth: fc.integer({ min: 1, max: 8 }),
  maxArrayLength: fc.integer({ min: 1, max: 6 }),
  maxStringLength: fc.integer({ min: 1, max: 10 }),
})

/** Every own property of the built-in prototypes, as comparable strings (values by identity). */
function snapshot(): string[] {
  const ids = new Map<unknown, number>()
  const id = (v: unknown) => {
    if (!ids.has(v)) ids.set(v, ids.size)
    return ids.get(v)
  }
  const lines: string[] = []
  for (const [name, proto] of [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
  ] as const) {
    lines.push(`${name} proto ${id(Object.getPrototypeOf(proto))}`)
    for (const k of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, k)!
      lines.push(
        `${name} ${String(k)} ${id(d.value)} ${id(d.get)} ${id(d.set)} ${d.enumerable} ${d.writable} ${d.configurable}`,
      )
    }
  }
  return lines
}

/** Runs a guard and states its answer in the oracle's terms; anything else thrown fails. */
function answer(run: () => unknown): { code: string; param?: unknown } | { value: unknown } {
  try {
    return { value: run() }
  } catch (error) {
    expect(isAppError(error), String(error)).toBe(true)
    if (!isAppError(error)) throw error
    expect(guardCodes.has(error.code)).toBe(true)
    expect(error.statusCode).toBe(400)
    if (error.code === 'PARAM_POLLUTION') {
      return { code: error.code, param: (error.details as { param: string }).param }
    }
    return { code: error.code }
  }
}

function agree(actual: ReturnType<typeof answer>, expected: Expected & { param?: string }): void {
  if ('value' in expected) {
    expect(actual).toHaveProperty('value')
    if ('value' in actual) expect(JSON.stringify(actual.value)).toBe(JSON.stringify(expected.value))
  } else {
    expect(actual).toEqual(expected)
  }
}

describe('guardBody (properties)', () => {
  it(
    'gives exactly the answer the limits imply, and never touches Object.prototype',
    () => {
      const before = snapshot()
      fc.assert(
        fc.property(json, smallLimits, (text, limits: GuardLimits) => {
          const expected = expectedBody(JSON.parse(text), limits)
          agree(
            answer(() => guardBody(JSON.parse(text), limits)),
            expected,
          )
          expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        }),
        { numRuns: RUNS },
      )
      expect(snapshot()).toEqual(before)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    },
    TIMEOUT,
  )

  it(
    'holds at the default limits, around each boundary',
    () => {
      const defaults = resolveLimits()
      const big = fc.oneof(
        fc.integer({ min: 9998, max: 10002 }).map((n) => JSON.stringify('x'.repeat(n))),
        fc
          .tuple(fc.integer({ min: 9998, max: 10002 }), fc.constantFrom('😀', '\u200b'))
          .map(([n, c]) => JSON.stringify(`${c.repeat(n - 1)}y`)),
        fc.integer({ min: 998, max: 1002 }).map((n) => `[${new Array(n).fill('1').join(',')}]`),
        fc
          .integer({ min: 18, max: 22 })
          .map((n) => '{"d":'.repeat(n - 1) + '[]' + '}'.repeat(n - 1)),
      )
      const body = fc
        .tuple(json, big, key, fc.boolean())
        .map(([a, b, k, first]) =>
          first
            ? `{${JSON.stringify(k)}:${b},"rest":${a}}`
            : `{"rest":${a},${JSON.stringify(k)}:${b}}`,
        )
      const before = snapshot()
      fc.assert(
        fc.property(body, (text) => {
          agree(
            answer(() => guardBody(JSON.parse(text), defaults)),
            expectedBody(JSON.parse(text), defaults),
          )
        }),
        { numRuns: Math.ceil(RUNS / 5) },
      )
      expect(snapshot()).toEqual(before)
    },
    TIMEOUT,
  )
})

describe('guardQuery (properties)', () => {
  const defaults = resolveLimits()
  // What qs (Express 4) and querystring (Express 5) make: strings, arrays of strings, and with
  // qs nested objects; built with defineProperty so a `__proto__` key is an own key.
  const leaf = fc.oneof(
    { weight: 4, arbitrary: text },
    fc.integer({ min: 9999, max: 10001 }).map((n) => 'q'.repeat(n)),
  )
  const { value } = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(leaf, { maxLength: 4 }),
      tie('object'),
    ),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map(define),
  }))

  function define(entries: Array<[string, unknown]>, nullProto = false): Record<string, unknown> {
    const o: Record<string, unknown> = nullProto ? Object.create(null) : {}
    for (const [k, v] of entries) {
      Object.defineProperty(o, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return o
  }

  it(
    'gives exactly the answer the rules imply',
    () => {
      const before = snapshot()
      const query = fc.tuple(
        fc.array(fc.tuple(key, value), { maxLength: 6 }),
        fc.boolean(),
        fc.array(key, { maxLength: 3 }),
        fc.option(smallLimits, { nil: defaults }),
      )
      fc.assert(
        fc.property(query, ([entries, nullProto, declared, limits]) => {
          const arrayKeys = new Set(declared)
          const expected = expectedQuery(define(entries, nullProto), arrayKeys, limits)
          agree(
            answer(() =>
              guardQuery(structuredClone(define(entries, nullProto)), arrayKeys, limits),
            ),
            expected,
          )
        }),
        { numRuns: RUNS },
      )
      expect(snapshot()).toEqual(before)
    },
    TIMEOUT,
  )
})
