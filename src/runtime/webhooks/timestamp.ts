// Sender clocks are Unix seconds: 12 digits reach the year 33658, and stay a safe integer.
const MAX_DIGITS = 12

/**
 * A timestamp header's Unix seconds, read strictly: ASCII digits only (no sign, space, dot,
 * exponent or hex), 1 to 12 of them; anything else is `undefined`.
 */
export function parseTimestamp(text: string): number | undefined {
  if (text.length === 0 || text.length > MAX_DIGITS) return undefined
  let value = 0
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return undefined
    value = value * 10 + digit
  }
  return value
}

/** The clock, in Unix seconds, as the replay windows read it. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/** Which side of now a timestamp may lie on: Stripe checks only the past. */
export type ReplayWindow = 'past' | 'both'

/** Whether `seconds` lies within `toleranceSecs` of `nowSecs` on the window's sides. */
export function withinWindow(
  seconds: number,
  nowSecs: number,
  toleranceSecs: number,
  window: ReplayWindow,
): boolean {
  if (nowSecs - seconds > toleranceSecs) return false
  return window === 'past' || seconds - nowSecs <= toleranceSecs
}
