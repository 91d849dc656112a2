export { redisStore } from './redis-store.js'
