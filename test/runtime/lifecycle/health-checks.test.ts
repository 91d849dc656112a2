import { describe, expect, it } from 'vitest'
import { resolveChecks, runCheck } from '../../../src/runtime/lifecycle/health-checks.js'

const one = (check: unknown, timeoutMs = 50) => resolveChecks({ c: check }, timeoutMs)[0]!

describe('runCheck', () => {
  it('passes what returns or resolves anything but false', async () => {
    for (const value of [true, undefined, null, 0, 'PONG', Promise.resolve(1)]) {
      expect((await runCheck(one(() => value))).state).toBe('ok')
    }
    expect((await runCheck(one({ ping: async () => 'PONG' }))).state).toBe('ok')
  })

  it('fails false, a throw, a rejection and a hostile then, and times out a hang', async () => {
    // A thenable whose `then` throws when read.
    const hostile = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('no')
      },
    })
    const cases: [unknown, string][] = [
      [() => false, 'failed'],
      [async () => false, 'failed'],
      [{ ping: async () => false }, 'failed'],
      [
        () => {
          throw new Error('x')
        },
        'failed',
      ],
      [() => Promise.reject(new Error('x')), 'failed'],
      [() => hostile, 'failed'],
      [() => new Promise(() => {}), 'timeout'],
    ]
    for (const [check, state] of cases) expect((await runCheck(one(check))).state).toBe(state)
  })

  it('gives each check its own timeout', async () => {
    const [fast, slow] = resolveChecks(
      {
        fast: { check: () => new Promise(() => {}), timeoutMs: 10 },
        slow: () => new Promise((resolve) => setTimeout(resolve, 40)),
      },
      200,
    )
    expect((await runCheck(fast!)).state).toBe('timeout')
    expect((await runCheck(slow!)).state).toBe('ok')
  })
})

describe('resolveChecks', () => {
  it.each([
    [JSON.parse('{"__proto__": 1}'), /is not a check name/],
    [{ '': () => true }, /is not a check name/],
    [{ db: 5 }, /checks\.db: must be a function/],
    [{ db: { check: 'x' } }, /checks\.db\.check: must be a function/],
    [[() => true], /checks must be an object/],
  ])('refuses %o', (checks, message) => {
    expect(() => resolveChecks(checks, 100)).toThrow(message)
  })
})
