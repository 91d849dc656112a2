import type { FieldIssue, RequestPart } from '../../engine/result.js'
import { dataField } from './safe-read.js'

/**
 * One validation failure as clients receive it in `error.details`: the
 * engine's `FieldIssue` with `code` present only when `validation.exposeSchemaCodes` is on.
 * `field` is the dotted path inside the request part, or the part name for a root-level issue.
 */
export interface ValidationIssue extends Omit<FieldIssue, 'code'> {
  /** The schema library's own issue code, only when `validation.exposeSchemaCodes` is on. */
  readonly code?: string
}

// Symbol.for: an error raised by one copy of the package is answered by another's errorHandler.
const kPart: unique symbol = Symbol.for('shapeguard.validationPart') as never

/** Marks a validation error with the request part its issues are in (problem details' `in`). */
export function inPart<E extends object>(error: E, part: RequestPart): E {
  Object.defineProperty(error, kPart, { value: part })
  return error
}

/** The request part a validation error's issues are in, when shapeguard's validation raised it. */
export function partOf(error: unknown): RequestPart | undefined {
  const part = dataField(error, kPart)
  return part === 'body' || part === 'query' || part === 'params' || part === 'headers'
    ? part
    : undefined
}
