import { randomFillSync } from 'node:crypto'
import type { Request, Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'
import { setRequestField } from '../core/request-fields.js'

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
// Random bytes drawn in blocks: one system call per 1,024 IDs instead of one per request.
const POOL_IDS = 1024
const pool = Buffer.alloc(6 * POOL_IDS)
let offset = pool.length
let prefixTime = -1
let prefix = ''

/**
 * A fresh request ID: `req_` + 12 hex digits of the millisecond timestamp + 12 random hex digits
 * (28 characters), so IDs sort by creation time.
 * @example generateRequestId() // → 'req_0193a4f1c2d8e4b1a09f37c2'
 */
export function generateRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const o = offset
  offset += 6
  // The time part is written once per millisecond, however many requests share it.
  const now = Date.now()
  if (now !== prefixTime) {
    prefixTime = now
    prefix = `req_${now.toString(16).padStart(12, '0')}`
  }
  return `${prefix}${HEX[pool[o]!]}${HEX[pool[o + 1]!]}${HEX[pool[o + 2]!]}${HEX[pool[o + 3]!]}${HEX[pool[o + 4]!]}${HEX[pool[o + 5]!]}`
}

// A lookup table, not a regular expression: a hostile header costs at most 128 array reads.
const SAFE = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-') {
  SAFE[c.charCodeAt(0)] = 1
}

/** Whether an upstream request ID may be reused as is: 1–128 of `[A-Za-z0-9._:-]`. */
export function isSafeRequestId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 128) return false
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code >= 128 || SAFE[code] === 0) return false
  }
  return true
}

/** Sets `req.id` (and `X-Request-Id` when configured); throws when a custom generator misbehaves. */
export type AssignRequestId = (req: Request, res: Response) => void

function disabled(req: Request): void {
  setRequestField(req, 'id', '')
}

/**
 * The request ID step of `shapeguard()`, chosen once per instance: a no-op setting `''` when
 * request IDs are disabled, otherwise the upstream header when safe, else the generator.
 */
export function requestIdStep(config: ResolvedConfig): AssignRequestId {
  const { enabled, header, generator } = config.requestId
  if (!enabled) return disabled
  const include = config.response.includeRequestId
  const fresh = generator === undefined ? generateRequestId : checked(generator)
  return function assignRequestId(req, res) {
    const upstream = req.headers[header]
    const id = isSafeRequestId(upstream) ? upstream : fresh()
    setRequestField(req, 'id', id)
    if (include) res.setHeader('X-Request-Id', id)
  }
}

function checked(generator: () => string): () => string {
  return function customRequestId() {
    const id = generator()
    if (typeof id !== 'string' || id.length === 0) {
      throw optionError(
        'SG_ERR_BAD_RETURN',
        `shapeguard: requestId.generator: must return a non-empty string, it returned ${id === '' ? 'an empty string' : typeof id}`,
      )
    }
    return id
  }
}
