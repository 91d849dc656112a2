import type { WarningSink } from './types.js'

/**
 * The `x-` keys an `extensions` option writes (`option` names it in the warning). OpenAPI reads
 * only keys starting with `x-`: a key without the prefix gets it, with a warning (it may be a
 * field meant for the operation itself, such as `deprecated`); an `x-` key given beside it wins.
 * @example extensionsOf({ internal: true }, 'extensions', warn) // → { 'x-internal': true }, one warning
 */
export function extensionsOf(
  extensions: Readonly<Record<string, unknown>> | undefined,
  option: string,
  warn: WarningSink,
): Record<string, unknown> {
  const given = extensions ?? {}
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(given)) {
    if (key.startsWith('x-')) {
      out[key] = structuredClone(value)
      continue
    }
    const name = `x-${key}`
    warn(
      `shapeguard: ${option}.${key} is written as ${name} (OpenAPI extension keys start with x-)`,
    )
    if (!Object.hasOwn(given, name)) out[name] = structuredClone(value)
  }
  return out
}
