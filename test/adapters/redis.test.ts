import { describe, expect, expectTypeOf, it } from 'vitest'
import { redisStore } from '../../src/adapters/redis/index.js'

describe('redisStore (not built yet)', () => {
  it('throws "not implemented yet" and is typed as never returning', () => {
    expect(() => redisStore({})).toThrow(
      'shapeguard/adapters/redis: redisStore() is not implemented yet',
    )
    expectTypeOf(redisStore).returns.toBeNever()
  })
})
