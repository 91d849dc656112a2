// A scalar written bare: it starts with a letter, `_`, `$` or `/`, holds no character YAML gives a
// meaning to (`:`, `#`, quotes, `&`, `*`, `!`, `|`, `>`, `%`, `@`, a backtick, `,`, `[`, `]`) and
// no space but single ones between words. Anything else is double-quoted.
const plain = /^[A-Za-z_$/][\w$./{}()+-]*(?: [\w$./{}()+-]+)*$/
// Words some YAML parsers read as a boolean or null (YAML 1.1 included).
const reserved = /^(?:true|false|null|yes|no|on|off|y|n)$/i
// Characters YAML requires escaped in a double-quoted scalar, or reads as a line break, beyond
// those JSON already escapes.
const unprintable = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g

function scalar(text: string): string {
  if (plain.test(text) && !reserved.test(text)) return text
  // A JSON string is a YAML double-quoted scalar: its escapes are a subset of YAML's.
  return JSON.stringify(text).replace(
    unprintable,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

function isCollection(value: unknown): value is object {
  if (Array.isArray(value)) return value.length > 0
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

function leaf(value: unknown): string {
  if (typeof value === 'string') return scalar(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return '[]'
  if (typeof value === 'object' && value !== null) return '{}'
  return 'null'
}

/** The lines of a non-empty array or object, in block style, each without indentation. */
function lines(value: object): string[] {
  const out: string[] = []
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isCollection(item)) {
        out.push(`- ${leaf(item)}`)
        continue
      }
      const [first = '', ...rest] = lines(item)
      out.push(`- ${first}`, ...rest.map((line) => `  ${line}`))
    }
    return out
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue
    if (!isCollection(item)) out.push(`${scalar(key)}: ${leaf(item)}`)
    else out.push(`${scalar(key)}:`, ...lines(item).map((line) => `  ${line}`))
  }
  return out
}

/**
 * JSON data as YAML 1.2 in block style: what `JSON.parse(JSON.stringify(value))` holds, read back
 * unchanged by any YAML parser. Strings are bare where that is unambiguous, else double-quoted.
 */
export function toYaml(value: unknown): string {
  const json: unknown = JSON.parse(JSON.stringify(value) ?? 'null')
  return `${isCollection(json) ? lines(json).join('\n') : leaf(json)}\n`
}
