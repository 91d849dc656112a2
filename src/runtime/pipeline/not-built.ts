// Options of features that are not built yet: giving one throws, so that nobody relies on a rate
// limit or a Cache-Control header that would silently not be there.
const unbuilt = ['rateLimit', 'cache'] as const

/** Throws a TypeError naming the first option given that is not implemented yet. */
export function rejectUnbuilt(options: object, where: string): void {
  for (const key of unbuilt) {
    if ((options as Record<string, unknown>)[key] !== undefined) {
      throw new TypeError(
        `shapeguard: ${where}${key} is not implemented yet; remove it until a release supports it`,
      )
    }
  }
}
