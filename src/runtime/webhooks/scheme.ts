import { createHmac, type KeyObject } from 'node:crypto'
import type { Request } from 'express'
import type { WebhookFailureReason } from './types.js'

/** A failed check: why, and which header it concerns (its name only). */
export interface WebhookFailure {
  readonly reason: WebhookFailureReason
  readonly header: string
}

/** One provider's check of a request against its raw bytes; `undefined` means it passed. */
export type Verifier = (req: Request, body: Buffer, nowSecs: number) => WebhookFailure | undefined

/** A failure made once, when the scheme is built, and returned as is per request. */
export function failure(reason: WebhookFailureReason, header: string): WebhookFailure {
  return Object.freeze({ reason, header })
}

/** The HMAC of `head` then `body` under each key, as bytes. */
export function signatures(
  keys: readonly KeyObject[],
  algorithm: string,
  head: string,
  body: Buffer,
): Buffer[] {
  const out: Buffer[] = []
  for (const key of keys) {
    const hmac = createHmac(algorithm, key)
    if (head !== '') hmac.update(head, 'latin1')
    out.push(hmac.update(body).digest())
  }
  return out
}
