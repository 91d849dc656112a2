import { type Json, own, ownNumber, ownString } from './document.js'
import { patternSample } from './pattern-sample.js'

const MAX_LENGTH = 10_000

// One sample per JSON Schema / OpenAPI format, each valid for ajv-formats' full mode.
const formats: Record<string, (n: number) => string> = {
  email: (n) => `user${n || ''}@example.com`,
  'idn-email': (n) => `user${n || ''}@example.com`,
  uuid: (n) => `3fa85f64-5717-4562-b3fc-2c963f66afa${n % 10}`,
  'date-time': (n) => `2024-01-0${(n % 9) + 1}T12:00:00Z`,
  date: (n) => `2024-01-0${(n % 9) + 1}`,
  time: (n) => `12:00:0${n % 10}Z`,
  duration: (n) => `P${n + 1}D`,
  uri: (n) => `https://example.com/${n || ''}`,
  url: (n) => `https://example.com/${n || ''}`,
  iri: (n) => `https://example.com/${n || ''}`,
  'uri-reference': (n) => `/example/${n || ''}`,
  'iri-reference': (n) => `/example/${n || ''}`,
  'uri-template': (n) => `/example/${n || ''}`,
  hostname: (n) => `example${n || ''}.com`,
  'idn-hostname': (n) => `example${n || ''}.com`,
  ipv4: (n) => `192.0.2.${(n % 254) + 1}`,
  ipv6: (n) => `2001:db8::${(n % 9) + 1}`,
  byte: (n) => (n === 0 ? 'ZXhhbXBsZQ==' : `ZXhhbXBsZ${'QRSTUVWXYZ'[n % 10]}==`),
  binary: (n) => `file${n || ''}`,
  password: (n) => `password${n || ''}`,
  'json-pointer': (n) => `/example/${n}`,
  'relative-json-pointer': (n) => `${n}/example`,
  regex: (n) => `^example${n || ''}$`,
  int64: (n) => String(n + 1),
  int32: (n) => String(n + 1),
}

// A formatted sample made longer where its format has room: an email's local part, a URL's path.
function lengthen(text: string, format: string, minLength: number): string {
  const missing = minLength - text.length
  if (missing <= 0) return text
  const pad = 'x'.repeat(missing)
  if (format === 'email' || format === 'idn-email') return text.replace('@', `${pad}@`)
  if (/^(uri|url|iri|uri-reference|iri-reference)$/.test(format)) return text + pad
  return text
}

/** A string for a string schema: its format, its pattern, else `string`, fitted to its lengths. */
export function stringSample(schema: Json, variant: number): string {
  const minLength = Math.min(ownNumber(schema, 'minLength') ?? 0, MAX_LENGTH)
  const maxLength = ownNumber(schema, 'maxLength')
  const pattern = ownString(schema, 'pattern')
  const format = ownString(schema, 'format')
  let text: string | undefined
  if (pattern !== undefined) text = patternSample(pattern)
  if (text === undefined && format !== undefined && Object.hasOwn(formats, format)) {
    text = lengthen(formats[format]!(variant), format, minLength)
    if (text.length >= minLength && (maxLength === undefined || text.length <= maxLength)) {
      return text
    }
    text = undefined
  }
  if (text === undefined && own(schema, 'contentEncoding') === 'base64') text = 'ZXhhbXBsZQ=='
  if (text === undefined) {
    const base = variant === 0 ? 'string' : `string${variant}`
    text = base
  }
  if (pattern !== undefined && text !== undefined) return fitPattern(text, pattern, minLength)
  if (text.length < minLength) text = text + 'x'.repeat(minLength - text.length)
  if (maxLength !== undefined && text.length > maxLength)
    text = text.slice(0, Math.max(0, maxLength))
  return text
}

// A pattern is not anchored unless it says so: a match can be padded on a free side.
function fitPattern(text: string, pattern: string, minLength: number): string {
  if (text.length >= minLength) return text
  const pad = 'x'.repeat(minLength - text.length)
  if (!pattern.endsWith('$') || pattern.endsWith('\\$')) return text + pad
  if (!pattern.startsWith('^')) return pad + text
  return text
}

function decimals(step: number): number {
  const text = String(step)
  const exp = /e-(\d+)$/.exec(text)
  if (exp) return Number(exp[1])
  const dot = text.indexOf('.')
  return dot < 0 ? 0 : text.length - dot - 1
}

function lowerBound(schema: Json): { value: number; exclusive: boolean } | undefined {
  const minimum = ownNumber(schema, 'minimum')
  const exclusive = own(schema, 'exclusiveMinimum')
  if (typeof exclusive === 'number' && Number.isFinite(exclusive)) {
    if (minimum === undefined || exclusive >= minimum) return { value: exclusive, exclusive: true }
  }
  if (minimum === undefined) return undefined
  return { value: minimum, exclusive: exclusive === true }
}

function upperBound(schema: Json): { value: number; exclusive: boolean } | undefined {
  const maximum = ownNumber(schema, 'maximum')
  const exclusive = own(schema, 'exclusiveMaximum')
  if (typeof exclusive === 'number' && Number.isFinite(exclusive)) {
    if (maximum === undefined || exclusive <= maximum) return { value: exclusive, exclusive: true }
  }
  if (maximum === undefined) return undefined
  return { value: maximum, exclusive: exclusive === true }
}

/** A number for a number or integer schema, inside its bounds and a multiple of `multipleOf`. */
export function numberSample(schema: Json, integer: boolean, variant: number): number {
  const lo = lowerBound(schema)
  const hi = upperBound(schema)
  const rawStep = ownNumber(schema, 'multipleOf')
  const step = rawStep !== undefined && rawStep > 0 ? rawStep : integer ? 1 : undefined
  let value: number
  if (lo !== undefined) {
    value = lo.exclusive ? lo.value + (step ?? (hi ? (hi.value - lo.value) / 2 : 1)) : lo.value
  } else if (hi !== undefined) {
    value = Math.min(1, hi.exclusive ? hi.value - (step ?? 1) : hi.value)
  } else {
    value = 1
  }
  if (step !== undefined)
    value = firstMultiple(value, step, lo?.exclusive === true ? lo.value : undefined)
  if (integer) value = Math.ceil(value)
  for (let i = 0; i < variant; i++) {
    const next = value + (step ?? 1)
    if (hi !== undefined && (next > hi.value || (hi.exclusive && next === hi.value))) break
    value = step !== undefined && step < 1 ? Number(next.toFixed(decimals(step))) : next
  }
  return value
}

// The first multiple of `step` at or above `from` (above `exclusive`) whose float division by
// `step` is whole, as a validator checks it.
function firstMultiple(from: number, step: number, exclusive: number | undefined): number {
  let k = Math.ceil(from / step)
  if (!Number.isFinite(k) || Math.abs(k) > 1e15) return from
  for (let tries = 0; tries < 20; tries++, k++) {
    const value = step < 1 ? Number((k * step).toFixed(decimals(step))) : k * step
    if (exclusive !== undefined && value <= exclusive) continue
    if (Number.isInteger(value / step)) return value
  }
  return k * step
}
