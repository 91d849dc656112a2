export {
  type IORedisLike,
  type NodeRedisLike,
  type RedisRateLimitStore,
  type RedisStoreOptions,
  redisStore,
} from './runtime/rate-limit/redis-store.js'
