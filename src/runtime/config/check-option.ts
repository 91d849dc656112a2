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
