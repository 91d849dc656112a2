import { createHmac, type KeyObject } from 'node:crypto'
import type { Request } from 'express'
import type { WebhookFailureReason } from './types.js'

/** A failed check: why, and which header it concerns (its name only). */
export interface WebhookFailure {
  readonly reason: WebhookFailureReason
  readonly header: string
}

/**
 * One provider's check of a request against its raw bytes; `undefined` means it passed. A scheme
 * with a timestamp reads the clock itself, so one without pays nothing for it.
 */
export type Verifier = (req: Request, body: Buffer) => WebhookFailure | undefined

/** A failure made once, when the scheme is built, and returned as is per request. */
export function failure(reason: WebhookFailureReason, header: string): WebhookFailure {
  return Object.freeze({ reason, header })
}

/** The HMAC of `head` then `body` under each key, encoded as the sender writes it. */
export function signatures(
  keys: readonly KeyObject[],
  algorithm: string,
  encoding: 'hex' | 'base64',
  head: string,
  body: Buffer,
): string[] {
  const out: string[] = []
  for (const key of keys) {
    const hmac = createHmac(algorithm, key)
    if (head !== '') hmac.update(head, 'latin1')
    out.push(hmac.update(body).digest(encoding))
  }
  return out
}
