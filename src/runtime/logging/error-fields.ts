import type { RequestLogSlot } from './types.js'

/** The error fields of a response record, read duck-typed from the slot. */
export interface ErrorFields {
  code?: string
  message?: string
  stack?: string
  cause?: { message: string; stack?: string }
}

function field(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined
  try {
    return (value as Record<string, unknown>)[key]
  } catch {
    return undefined
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function describe(value: unknown): string {
  try {
    return String(value)
  } catch {
    return '[unprintable cause]'
  }
}

/**
 * `code` and `message` on error responses; on 5xx also the `stack` of what was thrown (not of
 * the AppError wrapping it) and its ES2022 `cause` as `{message, stack}`.
 */
export function errorFields(slot: RequestLogSlot, status: number): ErrorFields | undefined {
  const { error } = slot
  if (status < 400 || error === undefined || error === null) return undefined
  const out: ErrorFields = {}
  const code = text(field(error, 'code'))
  const message = text(field(error, 'message'))
  if (code !== undefined) out.code = code
  if (message !== undefined) out.message = message
  if (status < 500) return out
  const origin = text(field(slot.cause, 'stack')) !== undefined ? slot.cause : error
  const stack = text(field(origin, 'stack'))
  if (stack !== undefined) out.stack = stack
  const cause = field(origin, 'cause')
  if (cause !== undefined && cause !== null) {
    const causeStack = text(field(cause, 'stack'))
    out.cause = { message: text(field(cause, 'message')) ?? describe(cause) }
    if (causeStack !== undefined) out.cause.stack = causeStack
  }
  return out
}
