/** The shortest wait before a reconnection, whatever `retry:` a server sends (0 would spin). */
export const minDelay = 100

/**
 * The wait before reconnection number `attempt` (1 for the first after a drop): the base delay
 * (at least `minDelay`) doubled per failure in a row, capped, then jittered between half and all
 * of it so that clients dropped together do not come back together.
 */
export function backoff(base: number, attempt: number, maxDelay: number): number {
  const delay = Math.min(maxDelay, Math.max(minDelay, base) * 2 ** (attempt - 1))
  return delay / 2 + (Math.random() * delay) / 2
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const abort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort)
      resolve()
    }, ms)
    signal.addEventListener('abort', abort, { once: true })
  })
}
