import type { Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import { peekContext } from '../core/context.js'
import type {
  NdjsonHelper,
  NdjsonStream,
  SseOptions,
  SseStream,
  StreamItems,
} from './stream-types.js'
import { withoutShapeguard } from './without-shapeguard.js'

// `res.sse()` and `res.ndjson()`: they start the stream their route declares (its starters are on
// the request's context, put there by validate()), so the prototype's helpers know no route.

function streamOf(res: Response, helper: 'sse' | 'ndjson', slot: string) {
  const context = peekContext(res)
  if (context?.config === undefined)
    throw withoutShapeguard(`res.${helper}() was called without shapeguard()`)
  const start = context.streams?.[helper]
  if (start === undefined) {
    throw optionError(
      'SG_ERR_MISSING_OPTION',
      `shapeguard: res.${helper}(): needs a route with \`${slot}\`, e.g. handle({ ${slot}: … }, handler)`,
    )
  }
  return start
}

export function sse(this: Response, options?: SseOptions): SseStream {
  return streamOf(this, 'sse', 'events')(this, options) as SseStream
}

export const ndjson = function ndjson(
  this: Response,
  items?: StreamItems<unknown>,
): NdjsonStream | Promise<void> {
  return streamOf(this, 'ndjson', 'stream')(this, items) as NdjsonStream | Promise<void>
} as NdjsonHelper
