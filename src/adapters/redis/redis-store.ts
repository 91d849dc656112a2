/**
 * Not implemented yet: always throws. It will make a rate-limit store for ioredis and node-redis
 * clients once per-route rate limits are built.
 */
export function redisStore(..._args: unknown[]): never {
  throw new Error('shapeguard/adapters/redis: redisStore() is not implemented yet')
}
