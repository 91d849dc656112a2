import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_LOG_DEPTH } from '../../../src/runtime/logging/redact.js'
import { createRedactor } from '../../../src/runtime/logging/redactor.js'

const redact = createRedactor()

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

describe('createRedactor', () => {
  it('redacts every always-redacted key at any depth, arrays included', () => {
    const input = {
      password: 'a',
      passwordHash: 'b',
      profile: { token: 'c', secret: 'd', nested: [{ accessToken: 'e', refreshToken: 'f' }] },
      billing: { apiKey: 'g', cardNumber: 'h', cvv: 'i', ssn: 'j', pin: 'k', amount: 10 },
    }
    expect(redact(input)).toEqual({
      password: '[REDACTED]',
      passwordHash: '[REDACTED]',
      profile: {
        token: '[REDACTED]',
        secret: '[REDACTED]',
        nested: [{ accessToken: '[REDACTED]', refreshToken: '[REDACTED]' }],
      },
      billing: {
        apiKey: '[REDACTED]',
        cardNumber: '[REDACTED]',
        cvv: '[REDACTED]',
        ssn: '[REDACTED]',
        pin: '[REDACTED]',
        amount: 10,
      },
    })
  })

  it('matches key names whatever their case and separators', () => {
    expect(redact({ Password: 1, APIKEY: 2, Authorization: 3, 'Set-Cookie': 4, ok: 5 })).toEqual({
      Password: '[REDACTED]',
      APIKEY: '[REDACTED]',
      Authorization: '[REDACTED]',
      'Set-Cookie': '[REDACTED]',
      ok: 5,
    })
  })

  it('redacts the header and query paths, wherever the req object sits', () => {
    const req = {
      headers: { authorization: 'Bearer x', cookie: 'sid=1', accept: 'json' },
      query: { token: 't', apiKey: 'k', page: '2' },
    }
    const expected = {
      headers: { authorization: '[REDACTED]', cookie: '[REDACTED]', accept: 'json' },
      query: { token: '[REDACTED]', apiKey: '[REDACTED]', page: '2' },
    }
    expect(redact({ req })).toEqual({ req: expected })
    expect(redact({ context: { req } })).toEqual({ context: { req: expected } })
    expect(redact(req)).toEqual(expected)
  })

  it('redacts a value whose own position (`at`) a path names', () => {
    const custom = createRedactor(['req.body', 'res.body.data.dob'])
    expect(custom({ a: 1 }, ['req', 'body'])).toBe('[REDACTED]')
    expect(custom({ data: { dob: 1, n: 2 } }, ['res', 'body'])).toEqual({
      data: { dob: '[REDACTED]', n: 2 },
    })
    expect(custom({ data: { dob: 1 } })).toEqual({ data: { dob: 1 } })
  })

  it('appends user paths: key names, dotted paths and wildcards', () => {
    const custom = createRedactor(['email', 'card.number', 'items.*.serial'])
    expect(
      custom({
        email: 'a@b.c',
        user: { email: 'd@e.f' },
        card: { number: '4242', brand: 'visa' },
        number: 5,
        items: [{ serial: 'x', name: 'y' }],
        password: 'still',
      }),
    ).toEqual({
      email: '[REDACTED]',
      user: { email: '[REDACTED]' },
      card: { number: '[REDACTED]', brand: 'visa' },
      number: 5,
      items: [{ serial: '[REDACTED]', name: 'y' }],
      password: '[REDACTED]',
    })
  })

  it('never mutates its input (frozen input, fresh output)', () => {
    const input = deepFreeze({ a: { password: 'x', list: [{ token: 'y' }] } })
    const output = redact(input) as typeof input
    expect(output).not.toBe(input)
    expect(output.a).not.toBe(input.a)
    expect(input.a.password).toBe('x')
  })

  it('marks cycles instead of looping', () => {
    const input: Record<string, unknown> = { name: 'loop' }
    input.self = input
    input.list = [input]
    expect(redact(input)).toEqual({ name: 'loop', self: '[Circular]', list: ['[Circular]'] })
  })

  it('copies a shared object twice when it is not a cycle', () => {
    const shared = { v: 1 }
    expect(redact({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } })
  })

  it('keeps an own __proto__ key as data and never touches Object.prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true,"password":"x"},"ok":1}')
    const output = redact(hostile) as Record<string, unknown>
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype)
    expect(Object.hasOwn(output, '__proto__')).toBe(true)
    expect(JSON.stringify(output)).toBe(
      '{"__proto__":{"polluted":true,"password":"[REDACTED]"},"ok":1}',
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('cuts huge depth off instead of overflowing the stack', () => {
    let deep: Record<string, unknown> = { leaf: true }
    for (let i = 0; i < 100_000; i++) deep = { d: deep }
    const output = redact(deep)
    let level = 0
    let node = output as Record<string, unknown>
    while (typeof node.d === 'object') {
      node = node.d as Record<string, unknown>
      level++
    }
    expect(level).toBe(MAX_LOG_DEPTH - 1)
    expect(node.d).toBe('[Truncated]')
    expect(() => JSON.stringify(output)).not.toThrow()
  })

  it('survives hostile values: throwing getters, proxies, bigint, functions, toJSON', () => {
    const getter = Object.defineProperty({ ok: 1 }, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no')
      },
    })
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys')
        },
      },
    )
    const output = redact({
      getter,
      proxy,
      big: 10n,
      fn: () => 1,
      date: new Date(0),
      custom: { toJSON: () => ({ password: 'p', v: 1 }) },
      badJson: {
        toJSON() {
          throw new Error('no')
        },
      },
    })
    expect(output).toEqual({
      getter: { ok: 1, bad: '[Unreadable]' },
      proxy: '[Unreadable]',
      big: '10',
      fn: undefined,
      date: '1970-01-01T00:00:00.000Z',
      custom: { password: '[REDACTED]', v: 1 },
      badJson: '[Unreadable]',
    })
  })

  it('never throws, never mutates, and always returns JSON-serialisable data', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
          withObjectString: true,
        }),
        (value) => {
          const before = fc.stringify(value)
          const output = redact(value)
          expect(fc.stringify(value)).toBe(before)
          expect(() => JSON.stringify(output)).not.toThrow()
        },
      ),
      { numRuns: 300 },
    )
  })

  it('redacts a listed key wherever fast-check hides it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'list'), { maxLength: 8 }), (path) => {
        let value: unknown = { password: 'secret' }
        for (const key of path.reverse()) value = key === 'list' ? [value] : { [key]: value }
        expect(JSON.stringify(redact(value))).not.toContain('"secret"')
      }),
    )
  })
})
