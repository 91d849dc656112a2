import type { ErrorFields } from './error-fields.js'
import { ANSI } from './pretty.js'
import { printable, safeJson } from './printable.js'

/** How pretty request lines look; fixed at mount. */
export interface LineStyle {
  readonly lineColor: 'method' | 'level'
  readonly shortRequestId: boolean
}

const METHOD_COLOR: Readonly<Record<string, string>> = {
  GET: ANSI.green,
  POST: ANSI.cyan,
  PUT: ANSI.yellow,
  PATCH: ANSI.magenta,
  DELETE: ANSI.red,
}

function statusColor(status: number): string {
  if (status >= 500) return ANSI.red
  if (status >= 400) return ANSI.yellow
  if (status >= 300) return ANSI.cyan
  return ANSI.green
}

/** The colour a line starts with ('' when colours are off) and the reset it ends with. */
export function lineColor(
  style: LineStyle,
  colors: boolean,
  method: string,
  status: number | undefined,
): [string, string] {
  if (!colors) return ['', '']
  const color =
    style.lineColor === 'method'
      ? (METHOD_COLOR[method] ?? '')
      : status === undefined
        ? ANSI.cyan
        : statusColor(status)
  return color === '' ? ['', ''] : [color, ANSI.reset]
}

/** ` [id]` (last 8 characters with `shortRequestId`), or '' without an ID. */
export function idPart(style: LineStyle, id: string): string {
  if (id === '') return ''
  // A custom generator's ID is not checked like an upstream one: escaped like the rest.
  return ` [${printable(style.shortRequestId ? id.slice(-8) : id)}]`
}

/** Indented continuation lines under a pretty response line: error, stack, cause, bodies. */
export function detailLines(
  error: ErrorFields | undefined,
  bodies: Record<string, unknown> | undefined,
): string {
  let out = ''
  if (error !== undefined) {
    if (error.code !== undefined || error.message !== undefined) {
      const text = [error.code, error.message].filter((s) => s !== undefined).join(': ')
      out += `\n  ${printable(text, false)}`
    }
    if (error.stack !== undefined) out += `\n  ${indent(error.stack)}`
    if (error.cause !== undefined) {
      out += `\n  cause: ${indent(error.cause.stack ?? error.cause.message)}`
    }
  }
  if (bodies !== undefined) {
    for (const key of Object.keys(bodies)) {
      out += `\n  ${key}: ${safeJson(JSON.stringify(bodies[key]) ?? 'undefined')}`
    }
  }
  return out
}

function indent(text: string): string {
  return printable(text, true).replaceAll('\n', '\n  ')
}
