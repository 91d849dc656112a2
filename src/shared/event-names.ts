import { isObject } from './is-object.js'

// The names a route's `events` may hold, one rule for the runtime (planRoute) and the document
// (generateOpenAPI's routes): each is written on an `event:` line, so it may hold nothing that
// could end the line or forge another field, and `error` names the stream's final error event.
const eventName = /^[A-Za-z_][\w.-]*$/

/**
 * What is wrong with a route's `events`, or undefined when it is an object of one entry at least,
 * each named as an SSE event may be (letters, digits, `_`, `.`, `-`; not `error`).
 * @example eventsProblem({ 'a\nb': schema }) // → 'an event name must be letters, digits, …'
 */
export function eventsProblem(events: unknown): string | undefined {
  if (!isObject(events) || Object.keys(events).length === 0)
    return 'events must be an object of one schema per event name, e.g. { token: schema }'
  for (const name of Object.keys(events)) {
    if (name === 'error') return 'events: "error" is the name of the stream\'s final error event'
    if (!eventName.test(name))
      return 'events: an event name must be letters, digits, _ . or -, starting with a letter or _'
  }
  return undefined
}
