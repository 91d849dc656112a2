import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { defineRoute, handle, shapeguard, validate } from '../../../src/index.js'

// A rate limit or a Cache-Control header that is silently not there is worse than an error.
describe('options that are not implemented yet', () => {
  const rateLimit = { windowMs: 60_000, max: 10 }
  const cache = { maxAge: 60 }

  it.each([
    ['defineRoute', (r: object) => defineRoute(r as never)],
    ['validate', (r: object) => validate(r as never)],
    ['handle', (r: object) => handle(r as never, () => {})],
  ])('%s() throws a TypeError naming rateLimit or cache', (_n, define) => {
    expect(() => define({ body: z.object({}), rateLimit })).toThrow(
      new TypeError(
        'shapeguard: rateLimit is not implemented yet; remove it until a release supports it',
      ),
    )
    expect(() => define({ cache })).toThrow(/^shapeguard: cache is not implemented yet/)
    expect(() => define({ body: z.object({}) })).not.toThrow()
  })

  it('shapeguard() throws a TypeError naming rateLimit or cache', () => {
    expect(() => shapeguard({ rateLimit } as never)).toThrow(
      /^shapeguard: shapeguard\(\) option rateLimit is not implemented yet/,
    )
    expect(() => shapeguard({ cache } as never)).toThrow(TypeError)
  })
})
