import { isIdentity } from '../ir/safety.js'
import type { IRNode, IRObject } from '../ir/types.js'
import { each, kinds, type Visitor, visit } from '../ir/visit.js'
import { type BuilderCode, isLeaf, REJECT } from './builder.js'
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

const yes = () => true
const no = () => false
const none = () => undefined

// The nodes the serializer walks itself; the others' output comes from the builder's code.
const structures: Visitor<boolean> = {
  object: ownObject,
  array: (n) => !n.reuseInput,
  ...each(['tuple', 'union', 'recursive'], yes),
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never record set intersection optional nullable readonly default pipe ref native',
    ),
    no,
  ),
}
const structural = (node: IRNode): boolean => visit(node, structures, undefined)

// The text of an accepted input that is its own output, written inline where its kind says what
// it is (a string, a finite number, a boolean, null), through its wrappers; else undefined.
const primitives: Visitor<string | undefined, string> = {
  // Checked again as it is read: a getter that answered a string to the check could answer an
  // object now, whose text must never be written raw.
  string: (_, x) => `(typeof ${x} === 'string' ? Q(${x}) : REJ())`,
  number: (_, x) => `(Number.isFinite(${x}) ? '' + ${x} : 'null')`,
  boolean: (_, x) => `(${x} ? 'true' : 'false')`,
  null: () => `'null'`,
  enum: (n, x) =>
    n.values.every((v) => typeof v === 'string')
      ? `(typeof ${x} === 'string' ? Q(${x}) : REJ())`
      : undefined,
  optional: (n, x) => {
    const inner = primitive(n.inner, x)
    return inner === undefined ? undefined : `(${x} === undefined ? undefined : ${inner})`
  },
  nullable: (n, x) => {
    const inner = primitive(n.inner, x)
    return inner === undefined ? undefined : `(${x} === null ? 'null' : ${inner})`
  },
  ...each(
    kinds(
      'bigint date literal undefined nan unknown never array object record tuple set union intersection readonly default pipe recursive ref native',
    ),
    none,
  ),
}
const primitive = (node: IRNode, x: string): string | undefined => visit(node, primitives, x)

// Whether a node's text is never left out (never undefined): its comma and key need no test.
const definites: Visitor<boolean> = {
  // An input that is its own output, written inline.
  ...each(['string', 'number', 'boolean', 'null', 'enum'], (n) => {
    return isIdentity(n) && primitive(n, 'x') !== undefined
  }),
  object: ownObject,
  array: (n) => !n.reuseInput,
  tuple: yes,
  nullable: (n) => definite(n.inner),
  readonly: (n) => structural(n.inner) && definite(n.inner),
  pipe: (n) => !isIdentity(n) && !isLeaf(n) && definite(n.out),
  // Any other text is not known to be defined (a union's option, a recursion's body, …).
  ...each(
    kinds(
      'bigint date literal undefined nan unknown never record set union intersection optional default recursive ref native',
    ),
    no,
  ),
}
const definite = (node: IRNode): boolean => visit(node, definites, undefined)

/** Where `write` puts a node's text: the input variable, the key expression, the target. */
interface Place {
  readonly s: SerializerCode
  readonly input: string
  readonly key: string
  readonly target: string
}

// The statements writing a node's text that its kind lets the serializer write itself (around a
// structure, or a known recursion); undefined where the builder's output is serialised instead.
// Each branch mirrors the builder's, so both reject the same inputs.
const writes: Visitor<string | undefined, Place> = {
  ref: (n, { s, input, key, target }) => {
    const fn = s.recursiveFn(n.id)
    return fn === undefined ? undefined : `${target} = ${fn}(${input}, ${key})`
  },
  optional: (n, p) => {
    const absent =
      n.inner.kind === 'default'
        ? `V(${p.s.build.expr(n.inner, 'undefined')}, ${p.key})`
        : 'undefined'
    return `if (${p.input} === undefined) ${p.target} = ${absent}\nelse {\n${inner(n.inner, p)}\n}`
  },
  nullable: (n, p) =>
    `if (${p.input} === null) ${p.target} = 'null'\nelse {\n${inner(n.inner, p)}\n}`,
  // Freezing a new structure changes nothing JSON shows; an input itself is frozen by the builder.
  readonly: (n, p) => (structural(n.inner) ? inner(n.inner, p) : undefined),
  pipe: (n, p) => (isLeaf(n) ? undefined : inner(n.out, p)),
  // A structure's output is never undefined: the default replaces only an absent input.
  default: (n, p) => {
    if ((n.on !== undefined && n.on !== 'undefined') || !structural(n.inner)) return undefined
    const get = p.s.build.ref(n.get)
    return `if (${p.input} === undefined) ${p.target} = V(${get}(), ${p.key})\nelse {\n${inner(n.inner, p)}\n}`
  },
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never array object record tuple set union intersection recursive native',
    ),
    none,
  ),
}
const inner = (node: IRNode, p: Place) => p.s.write(node, p.input, p.key, p.target)

// The body of the function writing a node's text for its input `y` under the key `k`: the
// structures walked, any other node's output written as the builder builds it.
const bodies: Visitor<string, SerializerCode> = {
  object: (n, s) => s.object(n),
  array: (n, s) => {
    const t = s.temp()
    const text = definite(n.item) ? t : `(${t} === undefined ? 'null' : ${t})`
    // No slice at the end: slicing a concatenated string copies it whole first.
    return `const n = y.length\nif (n === 0) return '[]'\nlet s = '[', ${t}\nfor (let i = 0; i < n; i++) {\nconst v = y[i]\n${s.write(n.item, 'v', 'i', t)}\nif (i !== 0) s += ','\ns += ${text}\n}\nreturn s + ']'`
  },
  tuple: (n, s) => s.tuple(n.items, n.rest),
  // The builder's choice of option (its checks, in its order), then that option's text.
  union: (n, s) => s.build.pickOption(n, 'y', (option) => `${s.fn(option)}(y, k)`),
  recursive: (n, s) => s.returning(n.node),
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never record set intersection optional nullable readonly default pipe ref native',
    ),
    (n, s) => s.returning(n),
  ),
}

class SerializerCode {
  readonly fns: string[] = []
  private readonly names = new Map<IRNode, string>()
  private readonly recursive = new Map<string, string>()
  private temps = 0
  constructor(readonly build: BuilderCode) {}

  temp(): string {
    return `t${this.temps++}`
  }

  /** The function writing a recursive node's text, once `fn` has named it. */
  recursiveFn(id: string): string | undefined {
    return this.recursive.get(id)
  }

  /**
   * Statements setting variable `target` to the JSON text of the output of `node` for the input
   * in variable `input` (not `x`: the builder's leaves use it), under the key expression `key`.
   */
  write(node: IRNode, input: string, key: string, target: string): string {
    if (isIdentity(node)) return `${target} = ${primitive(node, input) ?? `V(${input}, ${key})`}`
    if (structural(node)) return `${target} = ${this.fn(node)}(${input}, ${key})`
    const place: Place = { s: this, input, key, target }
    const own = visit(node, writes, place)
    if (own !== undefined) return own
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
    const body = structural(node) ? visit(node, bodies, this) : this.returning(node)
    this.fns.push(`function ${name}(y, k) {\n${body}\n}`)
    return name
  }

  returning(node: IRNode): string {
    const t = this.temp()
    return `let ${t}\n${this.write(node, 'y', 'k', t)}\nreturn ${t}`
  }

  object(node: IRObject): string {
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

  tuple(items: readonly IRNode[], rest: IRNode | undefined): string {
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

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { structures, primitives, definites, writes, bodies }
