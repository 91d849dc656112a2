/** Length bounds of an array or set, as the IR holds them. */
export interface ItemBounds {
  minItems?: number
  maxItems?: number
}

/**
 * Tightens `bounds` in place by one more length check (`min`, `max`, or both for an exact length):
 * the largest minimum and the smallest maximum hold.
 * @example narrowItems(len, 1, undefined) // .min(1)
 */
export function narrowItems(
  bounds: ItemBounds,
  min: number | undefined,
  max: number | undefined,
): void {
  if (min !== undefined) bounds.minItems = Math.max(bounds.minItems ?? 0, min)
  if (max !== undefined) bounds.maxItems = Math.min(bounds.maxItems ?? Infinity, max)
}
