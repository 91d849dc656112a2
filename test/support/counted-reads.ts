/**
 * `doc` behind proxies that count every read of it (a property, a key list, an own-property
 * check) at any depth: the work a function does on a document or a body, counted instead of
 * timed. Past `cap` reads every further read throws, so a function that would never stop fails
 * at once.
 */
export function countedReads<T>(doc: T, cap: number): { doc: T; reads: () => number } {
  let reads = 0
  const count = () => {
    if (++reads > cap) throw new Error(`more than ${cap} reads`)
  }
  // One proxy per object, so that identity holds (the same schema read twice is the same object).
  const proxies = new WeakMap<object, object>()
  const wrap = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value
    let proxy = proxies.get(value)
    if (proxy === undefined) {
      proxy = new Proxy(value, {
        get(target, key, receiver) {
          count()
          return wrap(Reflect.get(target, key, receiver))
        },
        getOwnPropertyDescriptor(target, key) {
          count()
          const d = Reflect.getOwnPropertyDescriptor(target, key)
          return d && 'value' in d ? { ...d, value: wrap(d.value) } : d
        },
        ownKeys(target) {
          count()
          return Reflect.ownKeys(target)
        },
        has(target, key) {
          count()
          return Reflect.has(target, key)
        },
      })
      proxies.set(value, proxy)
    }
    return proxy
  }
  return { doc: wrap(doc) as T, reads: () => reads }
}
