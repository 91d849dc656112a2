/**
 * A default's value as documentation: a copy of it as JSON data when reading it twice gives the
 * same JSON (so a default made fresh per call, like a timestamp or an id, is not documented as a
 * constant), else undefined. Functions and values JSON cannot hold are undefined too.
 * @param read reads the default as the library holds it (its getter, or the stored value)
 * @example staticDefault(() => ({ page: 1 })) // → { page: 1 }
 */
export function staticDefault(read: () => unknown): unknown {
  try {
    const a = JSON.stringify(read())
    return a !== undefined && a === JSON.stringify(read()) ? JSON.parse(a) : undefined
  } catch {
    return undefined
  }
}
