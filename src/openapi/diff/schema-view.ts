import { isObject } from '../../shared/is-object.js'
import { child, type Doc, type Slot } from './document.js'
import { maxInline } from './limits.js'

/**
 * A schema as the diff reads it: `$ref`s followed, `allOf` merged, a union's `null` branch (and
 * 3.0's `nullable`, 3.1's `type: [..., 'null']`) folded into `nullable`, a union of one other
 * branch unwrapped. Subschemas stay slots, read when the comparison reaches them.
 */
export interface SchemaView {
  readonly ptr: string
  /** The schema itself, `$ref`s followed, to compare it whole against a branch of a union. */
  readonly slot: Slot
  /** The component's name when the schema is `#/components/schemas/<name>`. */
  name?: string
  /** The pointer of the schema a `$ref` named, directly or as the one branch of a union. */
  via?: string
  /** A `$ref` that cannot be followed: such schemas are compared by reference only. */
  opaque?: string
  /** `allOf` or one-branch unions nest past `maxInline` in place: the view is not compared. */
  tooDeep?: true
  /** The types allowed, without `null`; undefined allows any. */
  types?: Set<string>
  nullable: boolean
  /** The allowed values (as JSON), without `null`; undefined allows any. */
  enum?: Set<string>
  readonly props: Map<string, Slot>
  readonly required: Set<string>
  /** `additionalProperties`: a schema, or false when closed; undefined or true is open. */
  additional?: Slot | false
  items?: Slot
  /** The `oneOf`/`anyOf` branches other than `null`, when there are two or more. */
  branches?: Slot[]
  readonly keywords: Record<string, unknown>
}

/** The keywords compared as they are: bounds, format, pattern, annotations. */
const plainKeywords = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'uniqueItems',
  'format',
  'pattern',
  'readOnly',
  'writeOnly',
] as const

const isNullOnly = (s: unknown): boolean =>
  isObject(s) &&
  (s.type === 'null' ||
    (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') ||
    (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null))

function empty(slot: Slot): SchemaView {
  return {
    ptr: slot.ptr,
    slot,
    nullable: false,
    props: new Map(),
    required: new Set(),
    keywords: {},
  }
}

/** Reads the schema's own keywords into `view` (fields already set win: allOf's first part). */
function own(view: SchemaView, s: Record<string, unknown>, ptr: string): void {
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : undefined
  if (types !== undefined) {
    if (types.includes('null')) view.nullable = true
    const set = new Set(types.filter((t): t is string => typeof t === 'string' && t !== 'null'))
    view.types = view.types === undefined ? set : new Set([...view.types].filter((t) => set.has(t)))
  }
  if (s.nullable === true) view.nullable = true
  const values = 'const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined
  if (values !== undefined && view.enum === undefined) {
    if (values.includes(null)) view.nullable = true
    view.enum = new Set(values.filter((v) => v !== null).map((v) => JSON.stringify(v)))
  }
  if (isObject(s.properties))
    for (const name of Object.keys(s.properties))
      if (!view.props.has(name))
        view.props.set(name, { node: s.properties[name], ptr: child(ptr, 'properties', name) })
  if (Array.isArray(s.required))
    for (const name of s.required) if (typeof name === 'string') view.required.add(name)
  if (s.additionalProperties === false) view.additional = false
  else if (isObject(s.additionalProperties) && view.additional === undefined)
    view.additional = { node: s.additionalProperties, ptr: child(ptr, 'additionalProperties') }
  if (isObject(s.items) && view.items === undefined)
    view.items = { node: s.items, ptr: child(ptr, 'items') }
  for (const k of plainKeywords) if (k in s && !(k in view.keywords)) view.keywords[k] = s[k]
}

// A schema without `type` that has properties or items is an object or an array all the same.
function inferTypes(view: SchemaView): void {
  if (view.types !== undefined) return
  if (view.props.size > 0 || view.additional !== undefined) view.types = new Set(['object'])
  else if (view.items !== undefined) view.types = new Set(['array'])
}

/** A schema to read into a view, with how deep in place it sits; or a union to read after. */
type Task = readonly [Slot, number] | (() => void)

/** Reads schemas of one document into views, each once (a shared component is read once). */
export function schemaViews(doc: Doc): (slot: Slot) => SchemaView {
  const cache = new Map<string, SchemaView>()
  const componentPrefix = '/components/schemas/'

  // Reads `slot` into `view`: its keywords, then each `allOf` part and a union's one other
  // branch, depth first and in order (a loop over a stack: `allOf` may nest thousands deep; past
  // `maxInline` levels in place the view is marked `tooDeep` and read no further).
  const into = (view: SchemaView, first: Slot): void => {
    const seen = new Set<string>()
    const todo: Task[] = [[first, 0]]
    for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
      if (typeof next === 'function') next()
      else if (next[1] > maxInline) view.tooDeep = true
      else read(view, next[0], next[1], seen, todo)
    }
  }

  const read = (view: SchemaView, slot: Slot, depth: number, seen: Set<string>, todo: Task[]) => {
    const located = doc.follow(slot)
    if (located.opaque !== undefined) {
      view.opaque ??= located.opaque
      return
    }
    const s = located.node
    if (s === false) view.types = new Set()
    if (!isObject(s) || seen.has(located.ptr)) return
    seen.add(located.ptr)
    own(view, s, located.ptr)
    // A `$ref` starts again from its target, as the comparison counts it.
    const inner = located.ref === undefined ? depth + 1 : 1
    const then: Task[] = []
    if (Array.isArray(s.allOf))
      for (const [i, part] of s.allOf.entries())
        then.push([{ node: part, ptr: child(located.ptr, 'allOf', i) }, inner])
    for (const key of ['oneOf', 'anyOf'] as const) {
      const list = s[key]
      if (Array.isArray(list))
        then.push(() => union(view, list, child(located.ptr, key), inner, todo))
    }
    todo.push(...then.reverse())
  }

  const union = (view: SchemaView, list: unknown[], ptr: string, depth: number, todo: Task[]) => {
    const branches: Slot[] = []
    list.forEach((branch, i) => {
      const slot = { node: branch, ptr: child(ptr, i) }
      if (isNullOnly(doc.follow(slot).node)) view.nullable = true
      else branches.push(slot)
    })
    if (branches.length === 1) {
      const only = doc.follow(branches[0]!)
      if (only.ref !== undefined) view.via ??= only.ptr
      todo.push([branches[0]!, depth])
    } else if (branches.length > 1) view.branches ??= branches
  }

  return (slot) => {
    const located = doc.follow(slot)
    const cached = cache.get(located.ptr)
    if (cached !== undefined) return cached
    const view = empty(located)
    if (located.ref !== undefined) view.via = located.ptr
    into(view, slot)
    // A component's name, also through `anyOf: [{ $ref }]` (how Stripe writes an expandable field).
    const component = view.via ?? located.ptr
    const name = component.startsWith(componentPrefix)
      ? component.slice(componentPrefix.length)
      : ''
    if (name !== '' && !name.includes('/'))
      view.name = name.replaceAll('~1', '/').replaceAll('~0', '~')
    inferTypes(view)
    cache.set(located.ptr, view)
    return view
  }
}
