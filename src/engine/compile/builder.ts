import { acceptsUndefined, isIdentity, leafKinds } from '../ir/safety.js'
import type { IRNode, IRObject, IRUnion } from '../ir/types.js'
import { each, kinds, type Visitor, visit } from '../ir/visit.js'
import { discriminatorValues } from './discriminator.js'
import { codePoints, leafStatements } from './leaf.js'
import { mergeValues } from './merge.js'

/** Thrown by a builder on a path the compiled checks should have excluded: native decides. */
export const REJECT: unique symbol = Symbol('shapeguard.reject') as never

/** Produces the output for an input the compiled checks accepted. */
export type Builder = (x: unknown) => unknown

/** What the builder needs from the compiler: a stand-alone check for one node (union options). */
export interface BuilderContext {
  check(node: IRNode): (x: unknown) => boolean
}

/** The builder's code generator: shared by the serializer, which writes leaves as the builder does. */
export class BuilderCode {
  readonly env: unknown[] = []
  readonly fns: string[] = []
  private readonly names = new Map<IRNode, string>()
  private readonly recursive = new Map<string, string>()
  constructor(readonly ctx: BuilderContext) {}

  ref(value: unknown): string {
    this.env.push(value)
    return `E[${this.env.length - 1}]`
  }

  /** An expression computing the output of `node` for the input held in variable `x`. */
  expr(node: IRNode, x: string): string {
    if (isIdentity(node)) return x
    if (node.kind === 'ref') return `${this.recursive.get(node.id) ?? 'REJ'}(${x})`
    return `${this.fn(node)}(${x})`
  }

  /**
   * Statements setting variable `target` to the output of `node` for the input in variable `input`
   * (neither may be `x`). Leaves, and the optionals, nullables and defaults around them, are
   * written in place: there a call, even one V8 inlines, costs more than the leaf's own checks.
   */
  assign(node: IRNode, input: string, target: string): string {
    if (isIdentity(node)) return `${target} = ${input}`
    if (isLeaf(node)) {
      return `{ let x = ${input}\n${leafStatements(node, (v) => this.ref(v), 'throw REJECT')}\n${target} = x }`
    }
    const own = visit(node, inPlace, { code: this, input, target })
    return own ?? `${target} = ${this.expr(node, input)}`
  }

  private fn(node: IRNode): string {
    const known = this.names.get(node)
    if (known) return known
    const name = `f${this.names.size}`
    this.names.set(node, name)
    if (node.kind === 'recursive') this.recursive.set(node.id, name)
    this.fns.push(`function ${name}(x) {\n${this.body(node)}\n}`)
    return name
  }

  private body(node: IRNode): string {
    // A leaf throws on a rejection (the checks may have left it to this builder): a leaf that
    // returned a marker instead would make every caller test its result, and costs more.
    if (isLeaf(node)) return `${leafStatements(node, (v) => this.ref(v), 'throw REJECT')}\nreturn x`
    return visit(node, bodies, this)
  }

  /** A statement that skips the loop's key `k` when it is one of `keys`. */
  skip(keys: readonly string[]): string {
    if (keys.length === 0) return ''
    // A switch on a few strings beats a Set lookup (no hashing of the key).
    if (keys.length > 16) return `if (${this.ref(new Set(keys))}.has(k)) continue`
    return `switch (k) { ${[...new Set(keys)].map((k) => `case ${JSON.stringify(k)}:`).join(' ')} continue }`
  }

  /** yup's object cast: same object when nothing changed, else present values then unknown keys. */
  reusedObject(node: IRObject): string {
    // The checks admitted yup's objects only (sgObjectTag).
    if (node.reuseInput === 'always') return 'return x'
    const lines = ['const o = {}', 'let c = false, v, r']
    for (const p of node.properties) {
      const k = JSON.stringify(p.key)
      lines.push(
        `v = x[${k}]`,
        this.assign(p.value, 'v', 'r'),
        // A defined value read from x was `in` x: only an undefined one needs the `in` test.
        `if (r !== undefined) { o[${k}] = r; if (r !== v) c = true } else if (v !== undefined || ${k} in x) c = true`,
      )
    }
    // Unknown keys matter only to a new object (copied) or to whether one is made (stripped).
    // yup walks the own keys; for-in (own ones first, in the same order) allocates no key list.
    const known = this.skip(node.properties.map((p) => p.key))
    const unknown = `for (const k in x) {\n${known}\nif (!Object.hasOwn(x, k)) continue\nif (k === '__proto__') throw REJECT`
    if (node.unknownKeys === 'strip') lines.push(`if (!c) ${unknown}\nc = true\nbreak\n}`)
    else if (node.unknownKeys === 'catchall') {
      // Always walked: even an unknown value copied as is changes yup's answer when it is NaN.
      const value = node.catchall ? this.expr(node.catchall, 'v') : 'v'
      lines.push(`${unknown}\nv = x[k]; r = ${value}; if (r !== v) c = true; o[k] = r\n}`)
    }
    lines.push('return c ? o : x')
    return lines.join('\n')
  }

  object(node: IRObject): string {
    if (node.reuseInput) return this.reusedObject(node)
    const lines = ['const o = {}', 'let v, r']
    for (const p of node.properties) {
      const k = JSON.stringify(p.key)
      const value = this.assign(p.value, 'v', 'r')
      lines.push(`v = x[${k}]`)
      if (p.presence === 'optional') {
        lines.push(`if (v !== undefined || ${k} in x) {\n${value}\no[${k}] = r\n}`)
      } else if (p.presence === 'defaulted' && p.outputOptional) {
        lines.push(value, `if (r !== undefined || ${k} in x) o[${k}] = r`)
      } else lines.push(value, `o[${k}] = r`)
    }
    if (node.unknownKeys === 'catchall' && node.catchall) {
      const known = this.skip([
        '__proto__',
        ...node.properties.map((p) => p.key),
        ...(node.ignoredKeys ?? []),
      ])
      const own = node.ownKeysOnly ? 'if (!Object.hasOwn(x, k)) continue\n' : ''
      lines.push(
        `for (const k in x) {\n${known}\n${own}v = x[k]\no[k] = ${this.expr(node.catchall, 'v')}\n}`,
      )
    }
    lines.push('return o')
    return lines.join('\n')
  }

  /**
   * Statements returning `output(option)` for the union option the builder picks for the input
   * in variable `x`: the first whose checks pass, among those its discriminator's value names when
   * it has one; they throw `REJECT` when none passes. The checks before the builder left the
   * union to it (deferred) or ran it already; either way nothing passes that no option accepts.
   * The serializer picks with these same statements, so both reject the same inputs.
   */
  pickOption(node: IRUnion, x: string, output: (option: IRNode) => string): string {
    const pick = (option: IRNode) =>
      `if (${this.ref(this.ctx.check(option))}(${x})) return ${output(option)}`
    if (node.discriminator === undefined)
      return `${node.options.map(pick).join('\n')}\nthrow REJECT`
    const cases: string[] = []
    for (const option of node.options) {
      for (const value of discriminatorValues(option, node.discriminator)) {
        const label = value === undefined ? 'undefined' : JSON.stringify(value)
        cases.push(`case ${label}: ${pick(option)}\nthrow REJECT`)
      }
    }
    return `if (${x} === null || typeof ${x} !== 'object') throw REJECT\nswitch (${x}[${JSON.stringify(node.discriminator)}]) {\n${cases.join('\n')}\n}\nthrow REJECT`
  }
}

/** Where `assign` writes: statements setting variable `target` for the input in `input`. */
interface Assignment {
  readonly code: BuilderCode
  readonly input: string
  readonly target: string
}

const inner = (node: IRNode, a: Assignment) => a.code.assign(node, a.input, a.target)

// The kinds `assign` writes in place around their inner node's statements; undefined: a call.
const inPlace: Visitor<string | undefined, Assignment> = {
  optional: (n, a) => {
    const absent = n.inner.kind === 'default' ? a.code.expr(n.inner, 'undefined') : 'undefined'
    return `if (${a.input} === undefined) ${a.target} = ${absent}\nelse {\n${inner(n.inner, a)}\n}`
  },
  // A pipe's output is its second part's (the checks held the input to the first).
  pipe: (n, a) => inner(n.out, a),
  nullable: (n, a) =>
    `if (${a.input} === null) ${a.target} = null\nelse {\n${inner(n.inner, a)}\n}`,
  default: (n, a) => {
    if (n.on === 'null' || n.on === 'nullish') return undefined
    const get = a.code.ref(n.get)
    return `if (${a.input} === undefined) ${a.target} = ${get}()\nelse {\n${inner(n.inner, a)}\nif (${a.target} === undefined) ${a.target} = ${get}()\n}`
  },
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never array object record tuple set union intersection readonly recursive ref native',
    ),
    () => undefined,
  ),
}

/** The body of the function building each kind's output from its input `x`. */
const bodies: Visitor<string, BuilderCode> = {
  object: (n, code) => code.object(n),
  array: (n, code) => {
    // Items that change nothing and refuse undefined (so the checks refused any hole) leave a
    // reused array as it is.
    if (
      n.reuseInput === 'always' ||
      (n.reuseInput && isIdentity(n.item) && !acceptsUndefined(n.item))
    )
      return 'return x'
    if (n.reuseInput) {
      // A hole is not an undefined item to yup's map: only yup decides then.
      // The copy starts at the first changed item: an unchanged array allocates nothing.
      return `const n = x.length\nlet o, r\nfor (let i = 0; i < n; i++) {\nconst v = x[i]\nif (v === undefined && !(i in x)) throw REJECT\n${code.assign(n.item, 'v', 'r')}\nif (o !== undefined) o[i] = r\nelse if (r !== v) { o = new Array(n); for (let j = 0; j < i; j++) o[j] = x[j]; o[i] = r }\n}\nreturn o === undefined ? x : o`
    }
    return `const n = x.length, o = new Array(n)\nlet r\nfor (let i = 0; i < n; i++) {\nconst v = x[i]\n${code.assign(n.item, 'v', 'r')}\no[i] = r\n}\nreturn o`
  },
  tuple: (n, code) => {
    const lines = ['const o = []']
    for (const [i, item] of n.items.entries()) {
      lines.push(`{ const v = x[${i}]; o[${i}] = ${code.expr(item, 'v')} }`)
    }
    if (n.rest) {
      lines.push(
        `for (let i = ${n.items.length}; i < x.length; i++) { const v = x[i]; o[i] = ${code.expr(n.rest, 'v')} }`,
      )
    }
    return `${lines.join('\n')}\nreturn o`
  },
  record: (n, code) => {
    const key = isIdentity(n.key) ? 'k' : code.expr(n.key, 'k')
    const skip = code.skip(['__proto__', ...(n.ignoredKeys ?? [])])
    return `const o = {}\nfor (const k of Object.keys(x)) {\n${skip}\nconst v = x[k], ok = ${key}\nif (ok === '__proto__') continue\no[ok] = ${code.expr(n.value, 'v')}\n}\nreturn o`
  },
  union: (n, code) => code.pickOption(n, 'x', (option) => code.expr(option, 'x')),
  intersection: (n, code) =>
    `const r = M(${code.expr(n.left, 'x')}, ${code.expr(n.right, 'x')})\nif (!r.valid) throw REJECT\nreturn r.data`,
  optional: (n, code) => {
    const absent = n.inner.kind === 'default' ? code.expr(n.inner, 'undefined') : 'undefined'
    return `return x === undefined ? ${absent} : ${code.expr(n.inner, 'x')}`
  },
  nullable: (n, code) => `return x === null ? null : ${code.expr(n.inner, 'x')}`,
  default: (n, code) => {
    const get = code.ref(n.get)
    if (n.on === 'null' || n.on === 'nullish') {
      const when = n.on === 'null' ? 'x === null' : 'x === null || x === undefined'
      return `if (${when}) return ${get}()\nreturn ${code.expr(n.inner, 'x')}`
    }
    return `if (x === undefined) return ${get}()\nconst r = ${code.expr(n.inner, 'x')}\nreturn r === undefined ? ${get}() : r`
  },
  readonly: (n, code) => `return Object.freeze(${code.expr(n.inner, 'x')})`,
  pipe: (n, code) => `return ${code.expr(n.out, 'x')}`,
  recursive: (n, code) => `return ${code.expr(n.node, 'x')}`,
  // Leaves are written before the table is read; identities and refs get no function of their
  // own, and set and native nodes are not compiled: none is built here.
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never set ref native',
    ),
    () => 'throw REJECT',
  ),
}

/** A leaf node, or a pipe of two leaves: compiled as one leaf function. */
export function isLeaf(node: IRNode): boolean {
  if (node.kind === 'pipe') return leafKinds.has(node.in.kind) && leafKinds.has(node.out.kind)
  return leafKinds.has(node.kind)
}

/**
 * Generates, once per schema, the function that builds the library's output from an accepted
 * input: declared keys copied in shape order, unknown keys stripped, defaults, coercions and
 * normalisations applied. Never mutates the input.
 * @example compileBuilder(objectNode, ctx)({ a: 1, extra: 2 }) // → { a: 1 }
 */
export function compileBuilder(node: IRNode, ctx: BuilderContext): Builder {
  const code = new BuilderCode(ctx)
  const root = code.expr(node, 'x')
  const body = `${code.fns.join('\n')}\nfunction REJ() { throw REJECT }\nreturn function build(x) { return ${root} }`
  return new Function('E', 'M', 'REJECT', 'CP', body)(
    code.env,
    mergeValues,
    REJECT,
    codePoints,
  ) as Builder
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { inPlace, bodies }
