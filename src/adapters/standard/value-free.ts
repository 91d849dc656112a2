// A bare Standard Schema's messages are the library's own, and some quote the value they refused:
// Joi's `"team" with value "hunter2" fails to match the required pattern: /^[a-z]+$/`, ArkType's
// `team must be matched by ^[a-z]+$ (was "hunter2")`. shapeguard writes no value from a request
// into an error message, so each message is cleaned of the value found at its issue's path.
import { types } from 'node:util'

/** What an issue says when its message cannot be cleaned of the value (it overlaps itself). */
export const NEUTRAL_MESSAGE = 'Invalid value'
const HIDDEN = '…'
// Strings this long are removed wherever they occur in a message: Joi and ArkType write no word
// of their own shorter than 3 characters that a value could collide with and still be worth
// keeping; shorter strings, numbers, bigints and booleans (`1`, `no`, `true`: words and bounds the
// messages use, `must be less than 5 (was 5)`) only where a message quotes them.
const BARE_MIN = 3
// An object or array at the path (ArkType prints one whole: `must be nice (was {"n":"x"})`):
// its leaves are removed one by one, up to this many nodes; past it the message is not kept.
const MAX_NODES = 100

type Key = string | number | symbol
type Leaf = string | number | bigint | boolean

// Reads one own data property: no getter runs, no Proxy trap (a Proxy is never looked into).
function own(value: unknown, key: Key): { value: unknown } | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return
  if (types.isProxy(value)) return
  try {
    const d = Object.getOwnPropertyDescriptor(value, key)
    return d !== undefined && 'value' in d ? { value: d.value } : undefined
  } catch {
    return
  }
}

/** The value at a path in the input, or `undefined` when the path leaves the input's own data. */
export function valueAt(input: unknown, path: readonly unknown[]): { value: unknown } | undefined {
  let at: { value: unknown } | undefined = { value: input }
  for (const key of path) {
    if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'symbol') return
    at = own(at.value, key)
    if (at === undefined) return
  }
  return at
}

const isLeaf = (v: unknown): v is Leaf =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean'

// The leaves of an object, own data properties only; `undefined` past MAX_NODES.
function leaves(root: object): Leaf[] | undefined {
  const out: Leaf[] = []
  const stack: object[] = [root]
  let nodes = 0
  while (stack.length > 0) {
    const o = stack.pop()!
    if (types.isProxy(o) || ++nodes > MAX_NODES) return nodes > MAX_NODES ? undefined : out
    let keys: string[]
    try {
      keys = Object.keys(o)
    } catch {
      continue
    }
    for (const key of keys) {
      if (++nodes > MAX_NODES) return undefined
      const v = own(o, key)?.value
      if (isLeaf(v)) out.push(v)
      else if (typeof v === 'object' && v !== null) stack.push(v)
    }
  }
  return out
}

// V8's JSON.parse messages quote up to 10 characters of the text (`Unexpected token 'h',
// "hunter2-se"... is not valid JSON`), which ArkType's `string.json.parse` passes on: a slice of
// the value, not the value, so the excerpt goes whole.
function withoutJsonExcerpt(message: string): string {
  const end = message.lastIndexOf(' is not valid JSON')
  const start = message.indexOf('Unexpected token ')
  if (end < 0 || start < 0 || start > end) return message
  return `${message.slice(0, start)}Unexpected token in "${HIDDEN}"${message.slice(end)}`
}

// The value as a library converted it before the check that failed (Joi trims, changes case,
// replaces; ArkType pipes) is not the value in the input: the places Joi's and ArkType's messages
// quote a string are emptied whatever they hold. From the first opening marker to the last
// closing one, so a marker inside the value can only make the cut wider.
function withoutQuotedPlaces(message: string, valueUnknown: boolean): string {
  let out = message
  const joi = out.indexOf('with value "')
  if (joi >= 0) {
    const end = Math.max(
      out.lastIndexOf('" fails to match the '),
      out.lastIndexOf('" matches the inverted '),
    )
    if (end > joi) out = `${out.slice(0, joi)}with value "${HIDDEN}${out.slice(end)}`
  }
  // ArkType ends a message with what it refused: `(was "x")`, and `(was 5)`, `(was {"n":"x"})`,
  // which are the value only when it is not found in the input (`(was 1)` of a string is its
  // length). A type name (`(was string)`, `(was an object)`) is the library's word and stays.
  const ark = out.indexOf(' (was ')
  if (ark >= 0 && out.endsWith(')')) {
    const inner = out.slice(ark + ' (was '.length, -1)
    if (inner.startsWith('"')) out = `${out.slice(0, ark)} (was "${HIDDEN}")`
    else if (valueUnknown && printedValue(inner)) out = `${out.slice(0, ark)} (was ${HIDDEN})`
  }
  return out
}

// Whether ArkType's `(was …)` holds a printed object, array, number or bigint.
function printedValue(inner: string): boolean {
  if (inner.startsWith('{') || inner.startsWith('[')) return true
  const digits = inner.endsWith('n') ? inner.slice(0, -1) : inner
  return digits !== '' && digits.trim() === digits && Number.isFinite(Number(digits))
}

// The forms a leaf takes in a message, each with what replaces it; `bare` is the text alone.
function forms(leaf: Leaf): { quoted: [string, string][]; bare: string | undefined } {
  if (typeof leaf === 'string') {
    const quoted: [string, string][] = [
      [`"${leaf}"`, `"${HIDDEN}"`], // Joi: as it is, in double quotes
      [JSON.stringify(leaf), `"${HIDDEN}"`], // ArkType: as JSON
      [`'${leaf}'`, `'${HIDDEN}'`],
    ]
    return { quoted, bare: leaf.length >= BARE_MIN ? leaf : undefined }
  }
  const texts = typeof leaf === 'bigint' ? [`${leaf}n`, String(leaf)] : [String(leaf)]
  const quoted: [string, string][] = []
  for (const t of texts) {
    quoted.push(
      [`(was ${t})`, `(was ${HIDDEN})`],
      [`"${t}"`, `"${HIDDEN}"`],
      [`'${t}'`, `'${HIDDEN}'`],
    )
  }
  return { quoted, bare: undefined }
}

// A message without one leaf (an empty string holds nothing to remove).
function withoutLeaf(message: string, leaf: Leaf): string {
  if (leaf === '') return message
  const { quoted, bare } = forms(leaf)
  let out = message
  for (const [form, by] of quoted) out = out.replaceAll(form, by)
  return bare === undefined ? out : out.replaceAll(bare, HIDDEN)
}

// Whether a message still holds a leaf in a form it is removed in (a replacement can make one
// anew where the value overlaps itself or the placeholder).
function holds(message: string, leaf: Leaf): boolean {
  if (leaf === '') return false
  const { quoted, bare } = forms(leaf)
  return bare !== undefined
    ? message.includes(bare)
    : quoted.some(([form]) => message.includes(form))
}

// Where a message names the path at its start, the label is kept: Joi's `"a[0]" …`
// (`"value"` for the input itself), ArkType's `a[0] must …`. A value equal to a key must not
// take the field's name out of the sentence.
function labelOf(message: string, path: readonly (string | number)[]): string {
  let label = ''
  for (const key of path) {
    // A key a library left as an object is not printed: its toString is user code.
    if (typeof key !== 'string' && typeof key !== 'number') return ''
    label += typeof key === 'number' ? `[${key}]` : label ? `.${key}` : key
  }
  for (const prefix of [`"${label || 'value'}" `, label ? `${label} ` : undefined]) {
    if (prefix !== undefined && message.startsWith(prefix)) return prefix
  }
  return ''
}

/**
 * An issue's message without the value found at its path in the input: strings of 3 or more
 * characters wherever they occur, shorter strings, numbers, bigints and booleans where the
 * message quotes them (`"…"`, `'…'`, `(was …)`); an object's leaves each so. A message that still
 * holds the value after that (or holds an object too large to search) says `Invalid value`.
 * @param path the path as the adapter gives it; `rawPath` its keys as the library gave them
 * @example valueFree('"team" with value "hunter2" fails …', { team: 'hunter2' }, ['team'], ['team'])
 * // → '"team" with value "…" fails …'
 */
export function valueFree(
  message: string,
  input: unknown,
  rawPath: readonly unknown[],
  path: readonly (string | number)[],
): string {
  const label = labelOf(message, path)
  // The places Joi and ArkType quote a value are emptied whatever the path leads to: a renamed key
  // (Joi's `rename`) or a value parsed from a string (ArkType's `string.json.parse`) is not in the
  // input where the path points.
  const at = valueAt(input, rawPath)
  let rest = withoutQuotedPlaces(withoutJsonExcerpt(message.slice(label.length)), at === undefined)
  if (at === undefined) return label + rest
  const { value } = at
  let found: Leaf[] | undefined
  if (isLeaf(value)) found = [value]
  else if (typeof value === 'object' && value !== null) found = leaves(value)
  else return label + rest
  if (found === undefined) return NEUTRAL_MESSAGE
  for (const leaf of found) rest = withoutLeaf(rest, leaf)
  return found.some((leaf) => holds(rest, leaf)) ? NEUTRAL_MESSAGE : label + rest
}
