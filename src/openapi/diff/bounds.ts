/** Which way a bound moved: `tighter` accepts fewer values, `looser` more. */
export type Move = 'tighter' | 'looser'

interface Bound {
  readonly value: number
  readonly exclusive: boolean
}

type Keywords = Readonly<Record<string, unknown>>

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined

// 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 a number of its own.
function numericBound(k: Keywords, side: 'min' | 'max'): Bound | undefined {
  const [inclusiveKey, exclusiveKey] =
    side === 'min' ? ['minimum', 'exclusiveMinimum'] : ['maximum', 'exclusiveMaximum']
  const inclusive = num(k[inclusiveKey])
  const flag = k[exclusiveKey]
  if (inclusive !== undefined && flag === true) return { value: inclusive, exclusive: true }
  const exclusive = num(flag)
  if (exclusive === undefined)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: false }
  if (inclusive === undefined) return { value: exclusive, exclusive: true }
  const tighter = side === 'min' ? exclusive >= inclusive : exclusive <= inclusive
  return tighter ? { value: exclusive, exclusive: true } : { value: inclusive, exclusive: false }
}

function moved(
  base: Bound | undefined,
  head: Bound | undefined,
  side: 'min' | 'max',
): Move | undefined {
  if (base === undefined) return head === undefined ? undefined : 'tighter'
  if (head === undefined) return 'looser'
  if (base.value === head.value) {
    if (base.exclusive === head.exclusive) return undefined
    return head.exclusive ? 'tighter' : 'looser'
  }
  const raised = head.value > base.value
  return raised === (side === 'min') ? 'tighter' : 'looser'
}

const counts = [
  ['minLength', 'min'],
  ['maxLength', 'max'],
  ['minItems', 'min'],
  ['maxItems', 'max'],
  ['minProperties', 'min'],
  ['maxProperties', 'max'],
] as const

// Whether every multiple of `a` is a multiple of `b` (floating point within a tolerance).
function divides(b: number, a: number): boolean {
  const ratio = a / b
  return Math.abs(ratio - Math.round(ratio)) < 1e-9
}

/** How each bound keyword moved from `base` to `head`: the keyword's name and its move (multipleOf may move both ways). */
export function boundMoves(base: Keywords, head: Keywords): [string, Move][] {
  const moves: [string, Move][] = []
  for (const [key, side] of counts) {
    const b = num(base[key])
    const h = num(head[key])
    const move = moved(
      b === undefined ? undefined : { value: b, exclusive: false },
      h === undefined ? undefined : { value: h, exclusive: false },
      side,
    )
    if (move !== undefined) moves.push([key, move])
  }
  for (const side of ['min', 'max'] as const) {
    const move = moved(numericBound(base, side), numericBound(head, side), side)
    if (move !== undefined) moves.push([side === 'min' ? 'minimum' : 'maximum', move])
  }
  const [bm, hm] = [num(base.multipleOf), num(head.multipleOf)]
  if (bm !== hm) {
    // From 2 to 3 both refuses values the base accepted and accepts values it refused.
    if (hm !== undefined && (bm === undefined || !divides(hm, bm)))
      moves.push(['multipleOf', 'tighter'])
    if (bm !== undefined && (hm === undefined || !divides(bm, hm)))
      moves.push(['multipleOf', 'looser'])
  }
  const [bu, hu] = [base.uniqueItems === true, head.uniqueItems === true]
  if (bu !== hu) moves.push(['uniqueItems', hu ? 'tighter' : 'looser'])
  return moves
}
