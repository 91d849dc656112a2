import { isObject } from '../../shared/is-object.js'
import { entries, type Json, own, ownArray, ownNumber } from './document.js'
import { flatten, type SampleContext } from './schema-merge.js'

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function typeAllows(schema: Json, value: unknown): boolean {
  const type = own(schema, 'type')
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined
  if (types === undefined) return true
  const actual = jsonType(value)
  if (actual === 'null' && own(schema, 'nullable') === true) return true
  return types.includes(actual) || (actual === 'integer' && types.includes('number'))
}

/**
 * Whether `value` may match `schema`: `false` only when a checked keyword (type, const, enum,
 * required, properties, bounds, lengths) rules it out; patterns and formats are never run, so
 * they count as a match. Used to pick a oneOf branch no other branch accepts.
 */
export function mayMatch(schema: unknown, value: unknown, ctx: SampleContext, depth = 0): boolean {
  if (depth > 6) return true
  const flat = flatten(schema, ctx, [])
  if (flat === 'never') return false
  if (flat === 'cycle') return true
  if (!typeAllows(flat, value)) return false
  if (Object.hasOwn(flat, 'const') && JSON.stringify(flat.const) !== JSON.stringify(value)) {
    return false
  }
  const enumValues = own(flat, 'enum')
  if (Array.isArray(enumValues)) {
    const text = JSON.stringify(value)
    if (!enumValues.some((v) => JSON.stringify(v) === text)) return false
  }
  if (typeof value === 'number') {
    const min = ownNumber(flat, 'minimum')
    const max = ownNumber(flat, 'maximum')
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) return false
  }
  if (typeof value === 'string') {
    const min = ownNumber(flat, 'minLength')
    const max = ownNumber(flat, 'maxLength')
    if ((min !== undefined && value.length < min) || (max !== undefined && value.length > max)) {
      return false
    }
  }
  if (isObject(value)) {
    for (const name of ownArray(flat, 'required')) {
      if (typeof name === 'string' && !Object.hasOwn(value, name)) return false
    }
    const props = own(flat, 'properties')
    for (const [name, sub] of entries(props)) {
      if (Object.hasOwn(value, name) && !mayMatch(sub, value[name], ctx, depth + 1)) return false
    }
    if (
      own(flat, 'additionalProperties') === false &&
      own(flat, 'patternProperties') === undefined
    ) {
      for (const name of Object.keys(value))
        if (!Object.hasOwn(isObject(props) ? props : {}, name)) return false
    }
  }
  for (const key of ['anyOf', 'oneOf']) {
    const branches = ownArray(flat, key)
    if (branches.length > 0 && !branches.some((b) => mayMatch(b, value, ctx, depth + 1)))
      return false
  }
  return true
}
