import { isIdentity } from '../ir/safety.js'
import type { IRNode, IRObject } from '../ir/types.js'
import { type BuilderCode, discriminatorValues, isLeaf, REJECT } from './builder.js'
import { jsonOrder, quote, value } from './json-text.js'
import { codePoints } from './leaf.js'
import { mergeValues } from './merge.js'

/**
 * Writes the JSON text `JSON.stringify` gives for the builder's output of an accepted input, in
 * one walk and without building the output; `undefined` where `JSON.stringify` leaves the value
 * out. `key` is the property the value sits under (what a `toJSON` method is called with).
 * Throws `REJECT` on a path the checks left open, as the builder does.
 */
export type Serializer = (x: unknown, key: string) => string | undefined

// A built object whose keys the serializer can write itself: a `__proto__` key sets the built
// object's prototype, a `toJSON` key makes JSON.stringify call it, catch-all keys mix with the
// declared ones, yup may hand back the input object itself.
function ownObject(node: IRObject): boolean {
  if (node.reuseInput || (node.unknownKeys === 'catchall' && node.catchall)) return false
  const keys = node.properties.map((p) => p.key)
  if (keys.includes('__proto__') || keys.includes('toJSON')) return false
  return new Set(keys).size === keys.length
}

function structural(node: IRNode): boolean {
  if (node.kind === 'object') return ownObject(node)
  if (node.kind === 'array') return !node.reuseInput
  return node.kind === 'tuple' || node.kind === 'union' || node.kind === 'recursive'
}

// The text of an accepted input that is its own output, written inline where its kind says what
// it is (a string, a finite number, a boolean, null), through its wrappers; else undefined.
function primitive(node: IRNode, x: string): string | undefined {
  switch (node.kind) {
    case 'string':
      // Checked again as it is read: a getter that answered a string to the check could answer
      // an object now, whose text must never be written raw.
      return `(typeof ${x} === 'string' ? Q(${x}) : REJ())`
    case 'number':
      return `(Number.isFinite(${x}) ? '' + ${x} : 'null')`
    case 'boolean':
      return `(${x} ? 'true' : 'false')`
    case 'null':
      return `'null'`
    case 'enum':
      return node.values.every((v) => typeof v === 'string')
        ? `(typeof ${x} === 'string' ? Q(${x}) : REJ())`
        : undefined
    case 'optional': {
      const inner = primitive(node.inner, x)
      return inner === undefined ? undefined : `(${x} === undefined ? undefined : ${inner})`
    }
    case 'nullable': {
      const inner = primitive(node.inner, x)
      return inner === undefined ? undefined : `(${x} === null ? 'null' : ${inner})`
    }
    default:
      return undefined
  }
}

// Whether a node's text is never left out (never undefined): its comma and key need no test.
function definite(node: IRNode): boolean {
  if (isIdentity(node)) {
    const kind = node.kind === 'nullable' ? node.inner.kind : node.kind
    return (
      kind === 'string' ||
      kind === 'number' ||
      kind === 'boolean' ||
      kind === 'null' ||
      (kind === 'enum' &&
        primitive(node.kind === 'nullable' ? node.inner : node, 'x') !== undefined)
    )
  }
  if (structural(node)) return node.kind !== 'union' && node.kind !== 'recursive'
  if (node.kind === 'nullable' || (node.kind === 'readonly' && structural(node.inner))) {
    return definite(node.inner)
  }
  return node.kind === 'pipe' && !isLeaf(node) && definite(node.out)
}

class SerializerCode {
  readonly fns: string[] = []
  private readonly names = new Map<IRNode, string>()
  private readonly recursive = new Map<string, string>()
  private temps = 0
  constructor(readonly build: BuilderCode) {}

  private temp(): string {
    return `t${this.temps++}`
  }

  /**
   * Statements setting variable `target` to the JSON text of the output of `node` for the input
   * in variable `input` (not `x`: the builder's leaves use it), under the key expression `key`.
   * Each branch mirrors the builder's, so both reject the same inputs.
   */
  write(node: IRNode, input: string, key: string, target: string): string {
    if (isIdentity(node)) return `${target} = ${primitive(node, input) ?? `V(${input}, ${key})`}`
    if (structural(node)) return `${target} = ${this.fn(node)}(${input}, ${key})`
    if (node.kind === 'ref' && this.recursive.has(node.id)) {
      return `${target} = ${this.recursive.get(node.id)}(${input}, ${key})`
    }
    const inner = (n: IRNode) => this.write(n, input, key, target)
    if (node.kind === 'optional') {
      const absent =
        node.inner.kind === 'default'
          ? `V(${this.build.expr(node.inner, 'undefined')}, ${key})`
          : 'undefined'
      return `if (${input} === undefined) ${target} = ${absent}\nelse {\n${inner(node.inner)}\n}`
    }
    if (node.kind === 'nullable') {
      return `if (${input} === null) ${target} = 'null'\nelse {\n${inner(node.inner)}\n}`
    }
    // Freezing a new structure changes nothing JSON shows; an input itself is frozen by the builder.
    if (node.kind === 'readonly' && structural(node.inner)) return inner(node.inner)
    if (node.kind === 'pipe' && !isLeaf(node)) return inner(node.out)
    // A structure's output is never undefined: the default replaces only an absent input.
    if (
      node.kind === 'default' &&
      (node.on === undefined || node.on === 'undefined') &&
      structural(node.inner)
    ) {
      const get = this.build.ref(node.get)
      return `if (${input} === undefined) ${target} = V(${get}(), ${key})\nelse {\n${inner(node.inner)}\n}`
    }
    // Leaves, and what the serializer does not write itself: the builder's output, serialised.
    const r = this.temp()
    return `{ let ${r}\n${this.build.assign(node, input, r)}\n${target} = V(${r}, ${key}) }`
  }

  fn(node: IRNode): string {
    const known = this.names.get(node)
    if (known) return known
    const name = `s${this.names.size}`
    this.names.set(node, name)
    if (node.kind === 'recursive') this.recursive.set(node.id, name)
    this.fns.push(`function ${name}(y, k) {\n${this.body(node)}\n}`)
    return name
  }

  private body(node: IRNode): string {
    if (!structural(node)) return this.returning(node)
    switch (node.kind) {
      case 'object':
        return this.object(node)
      case 'array': {
        const t = this.temp()
        const text = definite(node.item) ? t : `(${t} === undefined ? 'null' : ${t})`
        // No slice at the end: slicing a concatenated string copies it whole first.
        return `const n = y.length\nif (n === 0) return '[]'\nlet s = '[', ${t}\nfor (let i = 0; i < n; i++) {\nconst v = y[i]\n${this.write(node.item, 'v', 'i', t)}\nif (i !== 0) s += ','\ns += ${text}\n}\nreturn s + ']'`
      }
      case 'tuple':
        return this.tuple(node.items, node.rest)
      case 'union':
        return this.union(node)
      case 'recursive':
        return this.returning(node.node)
      default:
        return this.returning(node)
    }
  }

  private returning(node: IRNode): string {
    const t = this.temp()
    return `let ${t}\n${this.write(node, 'y', 'k', t)}\nreturn ${t}`
  }

  private object(node: IRObject): string {
    // Values in the builder's order (the same rejections), then written in the built object's.
    const temps = new Map<string, string>()
    const lines = ['let v']
    for (const p of node.properties) {
      const k = JSON.stringify(p.key)
      const t = this.temp()
      temps.set(p.key, t)
      lines.push(`let ${t}`, `v = y[${k}]`)
      const write = this.write(p.value, 'v', k, t)
      lines.push(
        p.presence === 'optional' ? `if (v !== undefined || ${k} in y) {\n${write}\n}` : write,
      )
    }
    // Whether something was written before is known where every earlier key is always written.
    lines.push("let s = '{'")
    let written: 'no' | 'yes' | 'maybe' = 'no'
    for (const key of jsonOrder(node.properties.map((p) => p.key))) {
      const t = temps.get(key)!
      const name = JSON.stringify(key)
      const first = JSON.stringify(`${name}:`)
      const later = JSON.stringify(`,${name}:`)
      const prefix =
        written === 'no'
          ? first
          : written === 'yes'
            ? later
            : `(s.length === 1 ? ${first} : ${later})`
      const p = node.properties.find((x) => x.key === key)!
      if (p.presence === 'required' && definite(p.value)) {
        lines.push(`s += ${prefix} + ${t}`)
        written = 'yes'
      } else {
        lines.push(`if (${t} !== undefined) s += ${prefix} + ${t}`)
        if (written === 'no') written = 'maybe'
      }
    }
    lines.push("return s + '}'")
    return lines.join('\n')
  }

  private tuple(items: readonly IRNode[], rest: IRNode | undefined): string {
    const lines = ["let s = '[', t"]
    const text = "(t === undefined ? 'null' : t)"
    for (const [i, item] of items.entries()) {
      const comma = i === 0 ? '' : "','+"
      lines.push(
        `{ const v = y[${i}]\n${this.write(item, 'v', String(i), 't')}\ns += ${comma}${text} }`,
      )
    }
    if (rest) {
      lines.push(
        `for (let i = ${items.length}; i < y.length; i++) {\nconst v = y[i]\n${this.write(rest, 'v', 'i', 't')}\nif (i !== 0) s += ','\ns += ${text}\n}`,
      )
    }
    lines.push("return s + ']'")
    return lines.join('\n')
  }

  // The builder's choice of option (its checks, in its order), then that option's text.
  private union(node: Extract<IRNode, { kind: 'union' }>): string {
    const pick = (option: IRNode) =>
      `if (${this.build.ref(this.build.ctx.check(option))}(y)) return ${this.fn(option)}(y, k)`
    if (node.discriminator !== undefined) {
      const cases: string[] = []
      for (const option of node.options) {
        for (const v of discriminatorValues(option, node.discriminator)) {
          const label = v === undefined ? 'undefined' : JSON.stringify(v)
          cases.push(`case ${label}: ${pick(option)}\nthrow REJECT`)
        }
      }
      return `if (y === null || typeof y !== 'object') throw REJECT\nswitch (y[${JSON.stringify(node.discriminator)}]) {\n${cases.join('\n')}\n}\nthrow REJECT`
    }
    return `${node.options.map(pick).join('\n')}\nthrow REJECT`
  }
}

/**
 * Generates, once per schema, the serializer of the builder's output (see `Serializer`): declared
 * objects, arrays, tuples, unions and recursion are written as they are walked; every other
 * node's output is built by the builder's own code and serialised as `JSON.stringify` would.
 * @example compileSerializer(objectNode, builderCode)({ a: 1, extra: 2 }, '') // → '{"a":1}'
 */
export function compileSerializer(node: IRNode, code: BuilderCode): Serializer {
  const s = new SerializerCode(code)
  const root = s.fn(node)
  const body = `${code.fns.join('\n')}\n${s.fns.join('\n')}\nfunction REJ() { throw REJECT }\nreturn ${root}`
  return new Function('E', 'M', 'REJECT', 'CP', 'V', 'Q', body)(
    code.env,
    mergeValues,
    REJECT,
    codePoints,
    value,
    quote,
  ) as Serializer
}
