import type { IRBound, IRNode, IRStringCheck } from './ir/types.js'

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

function stringChecks(c: LeafCode, checks: readonly IRStringCheck[], unit: string) {
  const len = unit === 'utf16' ? 'x.length' : 'CP(x)'
  for (const k of checks) {
    // Code points are counted only when the UTF-16 length leaves the answer open (a code point
    // is one or two units), never over a long string that is clearly long enough.
    if (k.kind === 'min_length')
      c.lines.push(
        `if (x.length < ${k.value} || (x.length < ${2 * k.value} && ${len} < ${k.value})) ${c.fail}`,
      )
    else if (k.kind === 'max_length')
      c.lines.push(
        `if (x.length > ${k.value} && (x.length > ${2 * k.value} || ${len} > ${k.value})) ${c.fail}`,
      )
    else if (k.kind === 'length') c.lines.push(`if (${len} !== ${k.value}) ${c.fail}`)
    else if (k.kind === 'pattern') {
      const re = c.ref(k.pattern)
      if (k.pattern.global || k.pattern.sticky) c.lines.push(`${re}.lastIndex = 0`)
      c.lines.push(`if (!${re}.test(x)) ${c.fail}`)
    } else if (k.kind === 'format') {
      c.lines.push(`x = ${c.ref(k.run)}(x)`, `if (typeof x !== 'string') ${c.fail}`)
    } else if (k.kind === 'transform') c.lines.push(`x = ${c.ref(k.apply)}(x)`)
  }
}

function emit(c: LeafCode, node: IRNode): void {
  const L = c.lines
  const coerce = (fn: string) => {
    if (!('coerce' in node) || !node.coerce) return
    if (typeof node.coerce === 'function') {
      const typed = node.kind === 'date' ? 'x instanceof Date' : `typeof x === '${node.kind}'`
      L.push(`if (!(${typed})) { try { x = ${c.ref(node.coerce)}(x) } catch (e) { ${c.fail} } }`)
    } else L.push(`try { x = ${fn}(x) } catch (e) {}`)
  }
  switch (node.kind) {
    case 'string':
      coerce('String')
      L.push(`if (typeof x !== 'string') ${c.fail}`)
      stringChecks(c, node.checks, node.lengthUnit)
      return
    case 'number':
      coerce('Number')
      L.push(`if (typeof x !== 'number' || !Number.isFinite(x)) ${c.fail}`)
      if (node.integer) L.push(`if (!Number.isInteger(x)) ${c.fail}`)
      bounds(c, node.checks, 'x', (v) => String(v))
      return
    case 'bigint':
      coerce('BigInt')
      L.push(`if (typeof x !== 'bigint') ${c.fail}`)
      bounds(c, node.checks, 'x', (v) => `${v}n`)
      return
    case 'boolean':
      if (node.coerce === true) L.push('x = Boolean(x)')
      else {
        coerce('Boolean')
        L.push(`if (typeof x !== 'boolean') ${c.fail}`)
      }
      return
    case 'date':
      if (node.coerce === true) L.push('try { x = new Date(x) } catch (e) {}')
      else coerce('Date')
      L.push(`if (!(x instanceof Date) || Number.isNaN(x.getTime())) ${c.fail}`)
      bounds(c, node.checks, 'x.getTime()', (v) => String(v))
      return
    case 'literal':
    case 'enum':
      L.push(`if (!${c.ref(new Set(node.values))}.has(x)) ${c.fail}`)
      return
    case 'null':
      L.push(`if (x !== null) ${c.fail}`)
      return
    case 'nan':
      L.push(`if (typeof x !== 'number' || !Number.isNaN(x)) ${c.fail}`)
      return
    case 'pipe':
      emit(c, node.in)
      emit(c, node.out)
      return
    default:
      throw new Error(`not a leaf: ${node.kind}`)
  }
}

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
