// Reading what user code threw: a thrown value may be a Proxy whose traps throw or an object
// whose getters do. These helpers run neither a getter nor let a trap's exception escape.

/** Whether a value is an Error, or of an Error subclass (a Proxy whose trap throws is not). */
export function isError<E extends Error = Error>(
  value: unknown,
  kind: abstract new (...args: never[]) => E = Error as never,
): value is E {
  try {
    return value instanceof kind
  } catch {
    return false
  }
}

/**
 * A data property of an object, its own or a prototype's (http-errors keeps `status` on its
 * classes), or `undefined` for an accessor, a missing key or a Proxy trap that throws.
 */
export function dataField(value: unknown, key: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null) return undefined
  try {
    let o: object | null = value
    for (let depth = 0; o !== null && depth < 16; depth++) {
      const d = Object.getOwnPropertyDescriptor(o, key)
      if (d !== undefined) return 'value' in d ? d.value : undefined
      o = Object.getPrototypeOf(o)
    }
  } catch {
    // A hostile Proxy: nothing can be read from it.
  }
  return undefined
}

// Since Node 22 (V8 12), an error's `stack` is an own accessor whose getter is one native
// function shared by every error; before, a data property. Captured once, so the getter
// `stackOf` calls can only be V8's own.
const nativeStackGetter = Object.getOwnPropertyDescriptor(new Error(), 'stack')?.get

/**
 * An error's stack: a data property (older V8, or set by hand), or V8's own stack accessor.
 * Any other getter is not run.
 */
export function stackOf(error: unknown): string | undefined {
  let stack = dataField(error, 'stack')
  if (stack === undefined && nativeStackGetter !== undefined) {
    try {
      const d = Object.getOwnPropertyDescriptor(error as object, 'stack')
      if (d?.get === nativeStackGetter) stack = Reflect.apply(nativeStackGetter, error, [])
    } catch {
      // A hostile Proxy, or an Error.prepareStackTrace that throws.
    }
  }
  return typeof stack === 'string' ? stack : undefined
}
