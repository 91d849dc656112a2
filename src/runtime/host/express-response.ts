import { ServerResponse } from 'node:http'

// Express 4 and 5 make their response prototype (`express.response`, express/lib/response.js)
// straight from Node's ServerResponse.prototype; every app's `app.response`, a mounted sub-app's
// too, inherits from it, and Express sets each response's prototype to its app's.
const maxDepth = 16

/** Express's own response prototype in a response's prototype chain, if it has one. */
export function expressResponseOf(res: object): object | undefined {
  let o: object | null = Object.getPrototypeOf(res)
  for (let depth = 0; o !== null && depth < maxDepth; depth++) {
    const up: object | null = Object.getPrototypeOf(o)
    if (up === ServerResponse.prototype) return o
    o = up
  }
  return undefined
}

// The source of Express's own `json` and `send`, 4.x and 5.x alike, holds these marks, which
// survive a bundler (no quotes, no names); a wrapper holds neither. Read for the functions of
// Express's own prototype only: that is where an agent or a logger patches `express.response`,
// before shapeguard can have seen the original, and identity cannot tell a patch from it.
const jsonMarks = ['json escape', 'json replacer', '.send(']
const sendMarks = ['etag fn', '.end(']

function hasMarks(fn: unknown, marks: readonly string[]): boolean {
  if (typeof fn !== 'function') return false
  const source = Function.prototype.toString.call(fn)
  return marks.every((mark) => source.includes(mark))
}

// Decided once per pair of functions: a request compares two references.
let lastJson: unknown
let lastSend: unknown
let lastOwn = false

/**
 * Whether a response's `json` and `send` are Express's own: the very functions of Express's
 * response prototype in its chain (nothing on the response, its app's `app.response` or a
 * sub-app's overrides them), and that prototype's own, not a patch of `express.response`.
 */
export function expressSends(res: object): boolean {
  const { json, send } = res as { json?: unknown; send?: unknown }
  if (json !== lastJson || send !== lastSend) {
    lastJson = json
    lastSend = send
    const base = expressResponseOf(res) as { json?: unknown; send?: unknown } | undefined
    lastOwn =
      base !== undefined &&
      base.json === json &&
      base.send === send &&
      hasMarks(json, jsonMarks) &&
      hasMarks(send, sendMarks)
  }
  return lastOwn
}
