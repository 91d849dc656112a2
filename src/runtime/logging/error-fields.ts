import type { RequestLogSlot } from '../core/context.js'

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

// The head of a stack, as its error's own fields say it starts, kept beside the fields (not in
// them: they go into JSON records as they are) for the pretty line, keyed by the object that
// holds the stack (the fields, or their `cause`).
const heads = new WeakMap<object, string>()

/**
 * The text `holder.stack` starts with, as its error's own name and message (and Node's code)
 * say: what the pretty line escapes onto one line before the frames; undefined when the stack
 * does not start with it (then nothing in it is known to be a frame).
 */
export function stackHead(holder: object): string | undefined {
  return heads.get(holder)
}

// How V8 starts a stack (Error.prototype.toString: `name: message`, or either alone when the
// other is empty), or Node's `name [code]: message`; undefined when it starts otherwise.
function headOf(origin: unknown, stack: string): string | undefined {
  const rawName = field(origin, 'name')
  const rawMessage = field(origin, 'message')
  const name = rawName === undefined ? 'Error' : text(rawName)
  const message = rawMessage === undefined ? '' : text(rawMessage)
  if (name === undefined || message === undefined) return undefined
  const code = text(field(origin, 'code'))
  const candidates = [name === '' ? message : message === '' ? name : `${name}: ${message}`]
  if (code !== undefined) candidates.push(`${name} [${code}]: ${message}`)
  return candidates.find(
    (head) =>
      stack.startsWith(head) && (stack.length === head.length || stack[head.length] === '\n'),
  )
}

function keepHead(holder: object, origin: unknown, stack: string): void {
  const head = headOf(origin, stack)
  if (head !== undefined) heads.set(holder, head)
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
  if (stack !== undefined) {
    out.stack = stack
    keepHead(out, origin, stack)
  }
  const cause = field(origin, 'cause')
  if (cause !== undefined && cause !== null) {
    const causeStack = text(field(cause, 'stack'))
    out.cause = { message: text(field(cause, 'message')) ?? describe(cause) }
    if (causeStack !== undefined) {
      out.cause.stack = causeStack
      keepHead(out.cause, cause, causeStack)
    }
  }
  return out
}
