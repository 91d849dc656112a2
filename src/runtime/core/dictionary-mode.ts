/**
 * Whether shapeguard puts each request and its response in V8's dictionary mode
 * (`toDictionaryMode` in context.ts), chosen once, when this module loads, per V8 version:
 *
 * - V8 12 and before (Node 22): Express's `Object.setPrototypeOf` on every request and response
 *   leaves each property added afterwards (`res.locals`, `req.params`, ...) a hidden class of its
 *   own, so every later read misses V8's caches: about 210 ns a read as Express leaves the
 *   object, 50 ns in dictionary mode (bench/results/property-reads-node22.json). The switch makes
 *   a guarded route cheaper than a bare Express one.
 * - V8 13 and later (Node 24, 26): such objects share one hidden class again (about 11 ns a
 *   read), and dictionary mode would make reads 28–51 ns: the switch stays off.
 *
 * `SHAPEGUARD_DICTIONARY_MODE=1` or `=0` in the environment overrides the choice (to measure
 * both paths on one line, or to turn the switch off).
 */
export const dictionaryMode: boolean = chooseDictionaryMode(
  process.versions.v8,
  process.env.SHAPEGUARD_DICTIONARY_MODE,
)

/** The choice for a V8 version (`process.versions.v8`) and the environment's override. */
export function chooseDictionaryMode(
  v8: string | undefined,
  override: string | undefined,
): boolean {
  if (override === '1') return true
  if (override === '0') return false
  const major = Number.parseInt(v8 ?? '', 10)
  return Number.isInteger(major) && major < 13
}
