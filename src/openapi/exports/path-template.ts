import type { ExportPathParam, PathPart } from './model.js'
import { encodePathText } from './text.js'

/**
 * Splits an OpenAPI path template into segments of literal text and `{name}` parameters;
 * `variableOf` names each parameter's variable.
 */
export function parsePath(path: string, variableOf: (name: string) => string): PathPart[][] {
  const segments: PathPart[][] = []
  for (const segment of path.split('/').slice(1, 257)) {
    const parts: PathPart[] = []
    let at = 0
    while (at < segment.length) {
      const open = segment.indexOf('{', at)
      const close = open < 0 ? -1 : segment.indexOf('}', open + 1)
      if (open < 0 || close < 0) {
        parts.push({ kind: 'text', text: encodePathText(segment.slice(at)) })
        break
      }
      if (open > at) parts.push({ kind: 'text', text: encodePathText(segment.slice(at, open)) })
      const name = segment.slice(open + 1, close)
      if (name === '') parts.push({ kind: 'text', text: encodePathText('{}') })
      else parts.push({ kind: 'param', name, variable: variableOf(name) })
      at = close + 1
    }
    segments.push(parts)
  }
  return segments
}

/** A segment that is one parameter and nothing else (`:id` in Postman and Bruno). */
export function wholeParam(
  segment: readonly PathPart[],
): Extract<PathPart, { kind: 'param' }> | undefined {
  const [only] = segment
  return segment.length === 1 && only?.kind === 'param' ? only : undefined
}

/**
 * The path after the base URL as Postman and Bruno write it: a whole-segment parameter as
 * `:variable`, a parameter inside a segment (`{id}.json`) as its example value, since neither tool
 * has syntax for it and a `{{variable}}` would reach into the user's own variables.
 */
export function colonPath(path: readonly PathPart[][], params: readonly ExportPathParam[]): string {
  return path
    .map((segment) => {
      const param = wholeParam(segment)
      if (param) return `:${param.variable}`
      return segment
        .map((p) => {
          if (p.kind === 'text') return p.text
          const value = params.find((q) => q.variable === p.variable)?.value ?? ''
          return encodePathText(value === '' ? p.variable : value)
        })
        .join('')
    })
    .join('/')
}
