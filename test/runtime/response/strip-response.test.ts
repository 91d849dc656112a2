import { describe, expect, it } from 'vitest'
import { standardAdapter } from '../../../src/adapters/standard/index.js'
import { defineAdapter } from '../../../src/engine/adapter.js'
import { isAppError } from '../../../src/runtime/core/app-error.js'
import { isPending, responseStripper } from '../../../src/runtime/response/strip-response.js'

const SECRET = 'S3CRET-4111111111111111'

function failure(code: unknown, library?: string): unknown {
  const standard = standardAdapter({
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value: unknown) => ({
        issues: [{ message: `bad value ${JSON.stringify(value)}`, path: ['card', 0], code }],
      }),
    },
  })
  // The same parser, seen as a library adapter whose codes are its own constants.
  const schema = library === undefined ? standard : defineAdapter({ ...standard, library })
  try {
    responseStripper(schema)({ card: [SECRET] })
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}

describe('responseStripper', () => {
  it('names the path and the library’s issue code, never its message or the value', () => {
    const err = failure('too_small', 'zod')
    expect(isAppError(err)).toBe(true)
    expect((err as Error).message).toBe(
      "Response does not match the route's response schema (data.card.0 failed the schema's `too_small` check)",
    )
    // A Standard Schema may put anything in its codes: they are not repeated.
    for (const code of [SECRET, 'too_small', 42, undefined]) {
      expect((failure(code) as Error).message).toBe(
        "Response does not match the route's response schema (data.card.0 failed the schema)",
      )
    }
  })

  it('answers with a pending promise of the stripped data when the schema is asynchronous', async () => {
    const strip = responseStripper(
      standardAdapter({
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: async (value: unknown) =>
            (value as { ok?: boolean }).ok
              ? { value: { ok: true } }
              : { issues: [{ message: `bad ${JSON.stringify(value)}`, path: ['ok'] }] },
        },
      }),
    )
    const good = strip({ ok: true, card: SECRET })
    expect(isPending(good)).toBe(true)
    await expect(good).resolves.toEqual({ ok: true })
    const bad = strip({ card: SECRET })
    expect(isPending(bad)).toBe(true)
    const err = await (bad as Promise<unknown>).catch((e: unknown) => e)
    expect(isAppError(err)).toBe(true)
    expect((err as Error).message).toBe(
      "Response does not match the route's response schema (data.ok failed the schema)",
    )
  })

  it('never takes data that is itself a promise for a pending answer', () => {
    const strip = responseStripper(
      standardAdapter({
        '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) },
      }),
    )
    const data = Promise.resolve(1)
    expect(strip(data)).toBe(data)
    expect(isPending(strip(data))).toBe(false)
  })
})
