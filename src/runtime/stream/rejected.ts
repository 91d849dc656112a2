// Promises the streams hand out that nobody may await.

export function noop(): void {}

/** A rejected promise nobody has to await: a fire-and-forget `send` must not crash the process. */
export function rejected(err: unknown): Promise<never> {
  const promise = Promise.reject(err)
  promise.catch(noop)
  return promise
}
