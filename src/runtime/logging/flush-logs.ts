import { flushTurnBuffers } from './turn-buffer.js'

// Everything shapeguard's log lines wait in before they reach the system: each backend's stream
// (stdout, pino's destination, a `logger.stream`) and a `logger.instance` that can flush (pino's).
// Weakly held, so an app's logging is still collected with the app.
const targets = new Set<WeakRef<object>>()
const forget = new FinalizationRegistry<WeakRef<object>>((ref) => targets.delete(ref))
const known = new WeakSet<object>()

/** Makes `flushLogs()` wait for `target`: a stream lines are written to, or a logger with `flush`. */
export function watchForFlush(target: object): void {
  if (known.has(target)) return
  known.add(target)
  const ref = new WeakRef(target)
  targets.add(ref)
  forget.register(target, ref)
}

interface Flushable {
  flush?: unknown
  readonly writableLength?: unknown
  readonly destroyed?: unknown
}

const POLL_MS = 10

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

// sonic-boom's and pino's `flush(cb)` calls back once the system took the bytes; a Node stream
// says how much it still holds.
async function flushed(target: Flushable, deadline: number): Promise<void> {
  if (typeof target.flush === 'function') {
    await new Promise<void>((resolve) => {
      try {
        ;(target.flush as (cb: () => void) => void).call(target, () => resolve())
      } catch {
        resolve()
      }
    })
    return
  }
  while (typeof target.writableLength === 'number' && target.writableLength > 0) {
    // A stream that stalls without failing is left once the wait is over, not polled forever.
    if (target.destroyed === true || performance.now() > deadline) return
    await delay(POLL_MS)
  }
}

/**
 * Writes out every log line shapeguard still holds and waits until each stream has handed its
 * bytes to the system, for at most `timeoutMs`: a stalled or broken stream costs its lines, never
 * the shutdown that waits here.
 * @param timeoutMs default 1000
 */
export async function flushLogs(timeoutMs = 1000): Promise<void> {
  flushTurnBuffers()
  const waits: Promise<void>[] = []
  const deadline = performance.now() + timeoutMs
  for (const ref of targets) {
    const target = ref.deref()
    if (target !== undefined) waits.push(flushed(target as Flushable, deadline))
  }
  await Promise.race([Promise.all(waits), delay(timeoutMs)])
}
