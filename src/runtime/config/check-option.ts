// Option checks run once, at mount time: a bad option throws a TypeError that names it.

export function checkBoolean(value: boolean | undefined, name: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`shapeguard: ${name} must be a boolean`)
  }
  return value
}

export function checkString(value: string | undefined, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new TypeError(`shapeguard: ${name} must be a string`)
  }
  return value
}

export function checkFunction<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`shapeguard: ${name} must be a function`)
  }
  return value
}

/**
 * Throws a TypeError naming the first key of `options` that is not in `known`, with the list of
 * the keys that are: a misspelt option (`responce` for `response`) must not be ignored.
 * @example checkKnownKeys(options, ['body', 'query'], 'handle()') // "handle(): bdy is not an option (body, query)"
 */
export function checkKnownKeys(options: object, known: readonly string[], name: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`shapeguard: ${name}: ${key} is not an option (${known.join(', ')})`)
    }
  }
}
