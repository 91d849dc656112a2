import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Request } from 'express'
import { hasBodyOnWire } from '../core/has-body.js'
import { bodyRead } from '../host/body-read.js'

// Symbol.for: a body kept by one copy of shapeguard (ESM or CJS) is found by the other.
const kRawBody: unique symbol = Symbol.for('shapeguard.rawBody') as never

const EMPTY = Buffer.alloc(0)

/** The `verify` function of a body parser, as `express.json({ verify })` calls it. */
export type BodyParserVerify = (req: IncomingMessage, res: ServerResponse, buf: Buffer) => void

/**
 * A `verify` function for `express.json`, `express.urlencoded` or `express.text` that keeps the
 * request's raw bytes beside the parsed body, so `verifyWebhook` checks the bytes the sender
 * signed and the handler still gets `req.body` parsed.
 * @example app.post('/hooks/stripe', express.json({ verify: rawBody() }), verifyWebhook({ provider: 'stripe', secret }), handler)
 */
export function rawBody(): BodyParserVerify {
  return function keepRawBody(req, _res, buf) {
    ;(req as IncomingMessage & { [kRawBody]?: Buffer })[kRawBody] = buf
  }
}

/** Where a request's raw bytes are, or why they cannot be had. */
export type RawBodyLookup = Buffer | 'unread' | 'parsed'

/**
 * The request's raw bytes: `req.body` itself after `express.raw()`, or the bytes `rawBody()` kept;
 * an empty buffer when the request has no body. `'parsed'` when a parser read the body without
 * keeping them, `'unread'` when no parser read it. Never re-serialised from a parsed body.
 */
export function findRawBody(req: Request): RawBodyLookup {
  const body: unknown = req.body
  if (Buffer.isBuffer(body)) return body
  const kept = (req as Request & { [kRawBody]?: unknown })[kRawBody]
  if (Buffer.isBuffer(kept)) return kept
  if (!hasBodyOnWire(req)) return EMPTY
  // A request that is not a stream (a test double) is taken as unread.
  return bodyRead(req) === true ? 'parsed' : 'unread'
}
