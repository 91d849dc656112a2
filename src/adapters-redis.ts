export {
  type IORedisLike,
  type NodeRedisLike,
  type RedisStoreOptions,
  redisStore,
} from './runtime/rate-limit/redis-store.js'
