import { createHash } from 'node:crypto'
import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import type { RateLimitEntry, RateLimitIncrementStore } from './types.js'

/**
 * The fixed window (a key's first request opens it, `windowMs` long; its count starts again once
 * it has ended) in one round trip: with a `max` (ARGV[2]), a full window is left unchanged (and
 * answered one past its count); otherwise INCR, and a key without an expiry (a new window, or one
 * that lost its TTL) gets the window's length. Returns the count and the window's remaining
 * milliseconds, read on the server, so the processes' clocks never have to agree.
 */
const SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1])) or 0
local count = current + 1
if ARGV[2] == nil or current < tonumber(ARGV[2]) then count = redis.call('INCR', KEYS[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {count, ttl}`

const SHA = createHash('sha1').update(SCRIPT).digest('hex')

/** An ioredis client (or Cluster): its generic `call`. */
export interface IORedisLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>
}

/** A node-redis client (`redis` 4 or 5, from `createClient()`): its generic `sendCommand`. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>
}

/** Options of `redisStore()`. */
export interface RedisStoreOptions {
  /** A connected ioredis or node-redis client. */
  client: IORedisLike | NodeRedisLike
  /**
   * Put before every key: each app (not each process of one app) sharing the Redis needs its own,
   * or routes of the same method and path in two apps share one count. @default 'shapeguard:rl:'
   */
  prefix?: string
}

/** What `redisStore()` returns: an atomic rate-limit store that also answers a health check. */
export interface RedisRateLimitStore extends RateLimitIncrementStore {
  /**
   * Sends PING through the client: true once Redis answers PONG, false for any other answer; rejects
   * with the client's error when Redis cannot be reached. A `health()` check as it is:
   * `health({ checks: { redis: store } })`.
   */
  ping(): Promise<boolean>
}

type Send = (args: string[]) => Promise<unknown>

function sender(client: unknown): Send {
  const c = client as Partial<IORedisLike & NodeRedisLike> | null
  if (typeof c?.call === 'function') {
    const call = c.call.bind(c)
    return ([command, ...args]) => call(command as string, ...args)
  }
  if (typeof c?.sendCommand === 'function') return c.sendCommand.bind(c)
  throw optionError(
    'SG_ERR_INSTANCE_INCOMPATIBLE',
    'shapeguard: redisStore(): client must be an ioredis or a node-redis (redis) client',
  )
}

function isNoScript(err: unknown): boolean {
  return err instanceof Error && /^NOSCRIPT\b/.test(err.message)
}

function toEntry(reply: unknown, now: number): RateLimitEntry {
  if (!Array.isArray(reply) || reply.length !== 2) {
    throw optionError(
      'SG_ERR_STORE_REPLY',
      'shapeguard: redisStore(): unexpected reply from the rate-limit script',
    )
  }
  const [count, ttl] = reply.map(Number) as [number, number]
  return { count, reset: now + ttl }
}

/**
 * A rate-limit store in Redis, shared by every process that uses the same server: one round trip
 * per request (a Lua script, run by its SHA and sent whole only when the server does not know it,
 * after a restart for one), atomic across processes. One store can serve every route: the keys
 * it is given already name their route. `increment(key, windowMs, max?)` leaves a full window
 * unchanged when given a `max` (answering one past its count), and always counts without one.
 * @example validate({ rateLimit: { windowMs: 60_000, max: 100, store: redisStore({ client }) } })
 */
export function redisStore(options: RedisStoreOptions): RedisRateLimitStore {
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: redisStore(): options must be an object: { client, prefix? }',
    )
  }
  checkKnownKeys(options, ['client', 'prefix'], 'redisStore()')
  const send = sender(options.client)
  const prefix = options.prefix ?? 'shapeguard:rl:'
  if (typeof prefix !== 'string')
    throw optionError('SG_ERR_INVALID_OPTION', 'shapeguard: redisStore(): prefix must be a string')
  return {
    async increment(key, windowMs, max) {
      if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
        throw optionError(
          'SG_ERR_INVALID_OPTION',
          'shapeguard: redisStore(): increment() takes windowMs, an integer of at least 1',
        )
      }
      if (max !== undefined && (!Number.isSafeInteger(max) || max < 0)) {
        throw optionError(
          'SG_ERR_INVALID_OPTION',
          'shapeguard: redisStore(): increment() takes max, an integer of at least 0, or none',
        )
      }
      const args = ['1', prefix + key, String(windowMs)]
      if (max !== undefined) args.push(String(max))
      const now = Date.now()
      try {
        return toEntry(await send(['EVALSHA', SHA, ...args]), now)
      } catch (err) {
        if (!isNoScript(err)) throw err
        return toEntry(await send(['EVAL', SCRIPT, ...args]), now)
      }
    },
    async ping() {
      return String(await send(['PING'])) === 'PONG'
    },
  }
}
