import type { IRBound, IRNode, IRString, IRStringCheck } from '../ir/types.js'
import { each, kinds, type NodeOf, type Visitor, visit } from '../ir/visit.js'

/** Returned by a leaf runner for a rejected value (no valid value is this symbol). */
export const FAIL: unique symbol = Symbol('shapeguard.fail') as never

/** Runs a leaf node on a value: its output (after coercion and normalisation) or `FAIL`. */
export type LeafRun = (x: unknown) => unknown

/** Length in code points: a surrogate pair counts once (as zod ≥ 4.5 and ajv count). */
export function codePoints(s: string): number {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--
      i++
    }
  }
  return n
}

/** Where leaf statements are written: `ref` names a run-time value, `fail` rejects the value. */
interface LeafCode {
  readonly lines: string[]
  ref(value: unknown): string
  readonly fail: string
}

const op = { gte: '<', gt: '<=', lte: '>', lt: '>=' } as const

function bounds<V>(c: LeafCode, checks: readonly IRBound<V>[], v: string, lit: (x: V) => string) {
  for (const b of checks) {
    if (b.kind === 'multiple_of') {
      // Only exact quotients pass: never looser than a float-tolerant library check.
      c.lines.push(
        typeof b.value === 'bigint'
          ? `if (${lit(b.value)} === 0n || ${v} % ${lit(b.value)} !== 0n) ${c.fail}`
          : `if (!Number.isInteger(${v} / ${lit(b.value)})) ${c.fail}`,
      )
    } else c.lines.push(`if (${v} ${op[b.kind]} ${lit(b.value)}) ${c.fail}`)
  }
}

/** A length check of a string. */
export type LengthCheck = 'min_length' | 'max_length' | 'length'

/**
 * The one rule for a string length check, as a JavaScript condition that is true when the string
 * in `s` fails it. Code points (counted by the function named `cp`, {@link codePoints}) are counted
 * only when the UTF-16 length leaves the answer open (a code point is one or two units), never
 * over a long string that is clearly long enough. The leaf compiler and the validator's length
 * keywords both write this condition.
 */
export function lengthFails(
  check: LengthCheck,
  n: number,
  s: string,
  unit: IRString['lengthUnit'],
  cp: string,
): string {
  if (unit === 'utf16')
    return `${s}.length ${check === 'min_length' ? '<' : check === 'max_length' ? '>' : '!=='} ${n}`
  if (check === 'min_length')
    return `${s}.length < ${n} || (${s}.length < ${2 * n} && ${cp}(${s}) < ${n})`
  if (check === 'max_length')
    return `${s}.length > ${n} && (${s}.length > ${2 * n} || ${cp}(${s}) > ${n})`
  return `${cp}(${s}) !== ${n}`
}

function stringChecks(c: LeafCode, checks: readonly IRStringCheck[], unit: IRString['lengthUnit']) {
  for (const k of checks) {
    if (k.kind === 'min_length' || k.kind === 'max_length' || k.kind === 'length')
      c.lines.push(`if (${lengthFails(k.kind, k.value, 'x', unit, 'CP')}) ${c.fail}`)
    else if (k.kind === 'pattern') {
      const re = c.ref(k.pattern)
      if (k.pattern.global || k.pattern.sticky) c.lines.push(`${re}.lastIndex = 0`)
      c.lines.push(`if (!${re}.test(x)) ${c.fail}`)
    } else if (k.kind === 'format') {
      c.lines.push(`x = ${c.ref(k.run)}(x)`, `if (typeof x !== 'string') ${c.fail}`)
    } else if (k.kind === 'transform') c.lines.push(`x = ${c.ref(k.apply)}(x)`)
  }
}

function coerce(
  c: LeafCode,
  node: NodeOf<'string' | 'number' | 'bigint' | 'boolean' | 'date'>,
  fn: string,
): void {
  if (!node.coerce) return
  if (typeof node.coerce === 'function') {
    const typed = node.kind === 'date' ? 'x instanceof Date' : `typeof x === '${node.kind}'`
    c.lines.push(
      `if (!(${typed})) { try { x = ${c.ref(node.coerce)}(x) } catch (e) { ${c.fail} } }`,
    )
  } else c.lines.push(`try { x = ${fn}(x) } catch (e) {}`)
}

const emitters: Visitor<void, LeafCode> = {
  string: (n, c) => {
    coerce(c, n, 'String')
    c.lines.push(`if (typeof x !== 'string') ${c.fail}`)
    stringChecks(c, n.checks, n.lengthUnit)
  },
  number: (n, c) => {
    coerce(c, n, 'Number')
    c.lines.push(`if (typeof x !== 'number' || !Number.isFinite(x)) ${c.fail}`)
    if (n.integer) c.lines.push(`if (!Number.isInteger(x)) ${c.fail}`)
    bounds(c, n.checks, 'x', (v) => String(v))
  },
  bigint: (n, c) => {
    coerce(c, n, 'BigInt')
    c.lines.push(`if (typeof x !== 'bigint') ${c.fail}`)
    bounds(c, n.checks, 'x', (v) => `${v}n`)
  },
  boolean: (n, c) => {
    if (n.coerce === true) c.lines.push('x = Boolean(x)')
    else {
      coerce(c, n, 'Boolean')
      c.lines.push(`if (typeof x !== 'boolean') ${c.fail}`)
    }
  },
  date: (n, c) => {
    if (n.coerce === true) c.lines.push('try { x = new Date(x) } catch (e) {}')
    else coerce(c, n, 'Date')
    c.lines.push(`if (!(x instanceof Date) || Number.isNaN(x.getTime())) ${c.fail}`)
    bounds(c, n.checks, 'x.getTime()', (v) => String(v))
  },
  ...each(['literal', 'enum'], (n, c) => {
    c.lines.push(`if (!${c.ref(new Set(n.values))}.has(x)) ${c.fail}`)
  }),
  null: (_, c) => {
    c.lines.push(`if (x !== null) ${c.fail}`)
  },
  nan: (_, c) => {
    c.lines.push(`if (typeof x !== 'number' || !Number.isNaN(x)) ${c.fail}`)
  },
  pipe: (n, c) => {
    emit(c, n.in)
    emit(c, n.out)
  },
  ...each(
    kinds(
      'undefined unknown never array object record tuple set union intersection optional nullable readonly default recursive ref native',
    ),
    (n) => {
      throw new Error(`not a leaf: ${n.kind}`)
    },
  ),
}

const emit = (c: LeafCode, node: IRNode): void => visit(node, emitters, c)

/**
 * The body of a leaf function of `x`: statements that coerce, check and normalise `x` in the
 * node's order, exactly as the library does, running `fail` on a rejection; `ref` names the
 * run-time values they use, and `CP` must name {@link codePoints}. The caller returns `x`.
 */
export function leafStatements(
  node: IRNode,
  ref: (value: unknown) => string,
  fail: string,
): string {
  const c: LeafCode = { lines: [], ref, fail }
  emit(c, node)
  return c.lines.join('\n')
}

/**
 * Compiles a leaf node (or a pipe of leaves) into one runner that returns its output or `FAIL`.
 * @example compileLeaf(numberNode)('12') // → 12 for a coercing number, FAIL otherwise
 */
export function compileLeaf(node: IRNode): LeafRun {
  const env: unknown[] = []
  const ref = (value: unknown) => `E[${env.push(value) - 1}]`
  const body = `return function leaf(x) {\n${leafStatements(node, ref, 'return F')}\nreturn x\n}`
  return new Function('E', 'F', 'CP', body)(env, FAIL, codePoints) as LeafRun
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { emitters }
