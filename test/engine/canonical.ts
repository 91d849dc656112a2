/**
 * A string that two values share exactly when they are deep-equal with the same key order,
 * telling apart what JSON.stringify merges: undefined, NaN, -0, bigint, Dates, Sets, holes,
 * frozen objects.
 */
export function canonical(x: unknown, seen: Set<unknown> = new Set()): string {
  if (x === undefined) return 'undefined'
  if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x)
  if (typeof x === 'bigint') return `${x}n`
  if (typeof x === 'string') return JSON.stringify(x)
  if (typeof x === 'function') return `fn:${x.name}`
  if (typeof x !== 'object' || x === null) return String(x)
  if (seen.has(x)) return '<cycle>'
  seen.add(x)
  const frozen = Object.isFrozen(x) ? 'frozen:' : ''
  let out: string
  if (x instanceof Date) out = `Date(${x.getTime()})`
  else if (x instanceof Set) out = `Set[${[...x].map((v) => canonical(v, seen)).join(',')}]`
  else if (Array.isArray(x)) {
    const items: string[] = []
    for (let i = 0; i < x.length; i++) items.push(i in x ? canonical(x[i], seen) : '<hole>')
    out = `[${items.join(',')}]`
  } else {
    const proto = Object.getPrototypeOf(x) === null ? 'null-proto:' : ''
    out = `${proto}{${Object.keys(x)
      .map((k) => `${JSON.stringify(k)}:${canonical((x as Record<string, unknown>)[k], seen)}`)
      .join(',')}}`
  }
  seen.delete(x)
  return frozen + out
}
