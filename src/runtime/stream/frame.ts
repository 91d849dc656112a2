import { optionError } from '../../shared/error-codes.js'

// The bytes of the wire: one SSE event, one NDJSON line. JSON text never holds a raw CR or LF
// (they are escaped inside strings), but U+2028 and U+2029 pass JSON.stringify raw: escaped here,
// as a reader splitting on every Unicode line end would otherwise cut the value. The quick test
// leaves the common event untouched.
const lineEnds = /[\n\r\u2028\u2029]/

/** `data:` lines of a JSON text, each ended by LF. */
export function dataLines(json: string): string {
  if (!lineEnds.test(json)) return `data: ${json}\n`
  const text = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
  return `data: ${text.split(/\r\n|\r|\n/).join('\ndata: ')}\n`
}

/** An NDJSON line of a JSON text. */
export function ndjsonLine(json: string): string {
  if (!lineEnds.test(json)) return `${json}\n`
  return `${json
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')}\n`
}

const badId = /[\r\n\0]/

/** `id: <id>\n`, or '' without one; an ID that could forge a field is a programmer error. */
export function idLine(id: unknown): string {
  if (id === undefined) return ''
  if (typeof id !== 'string' || badId.test(id)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: send(): id must be a string without CR, LF or NUL',
    )
  }
  return `id: ${id}\n`
}

/** The longest `Last-Event-ID` a handler is given; a longer one is dropped, never refused. */
export const maxLastEventId = 1024

/** The `Last-Event-ID` header when it is a valid ID, else undefined (never an error). */
export function lastEventIdOf(header: unknown): string | undefined {
  if (typeof header !== 'string' || header.length > maxLastEventId || badId.test(header))
    return undefined
  return header
}
