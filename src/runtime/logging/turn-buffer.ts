import { writeSync } from 'node:fs'
// Taken at load: fake timers installed later (a test's) must not hold log lines back.
import { setImmediate } from 'node:timers'
import type { LogStream } from './types.js'

/** What the turn buffer uses of pino's destination (a sonic-boom) when the process exits. */
export interface Destination extends LogStream {
  readonly fd?: number
  flushSync?(): void
}

interface Held {
  flush(): void
  flushSync(): void
}

// Past this many characters a turn's lines go at once (sonic-boom's own largest write is 16 KiB).
const MAX_PENDING = 16_384

// The buffers holding lines right now: written out synchronously if the process exits first.
const holding = new Set<Held>()
let hooked = false

function flushAllSync(): void {
  for (const held of holding) held.flushSync()
}

function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text)
  while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest))
}

/** Hands every turn's held lines to their streams now (a shutdown flushes before it waits). */
export function flushTurnBuffers(): void {
  for (const held of [...holding]) held.flush()
}

/**
 * `stream` (pino's destination, behind `safeStream`) with the lines of one turn of the event loop
 * gathered and handed over together when the turn ends, in order: a busy server then pays
 * sonic-boom's per-write work (it measures its whole pending buffer on every write) once per turn
 * instead of once per line. Lines a turn leaves behind when the process exits are written
 * synchronously, after what `destination` still holds.
 */
export function turnBuffered(stream: LogStream, destination: Destination): LogStream {
  let pending = ''
  const held: Held = {
    flush,
    flushSync() {
      const text = pending
      pending = ''
      holding.delete(held)
      try {
        destination.flushSync?.()
        if (typeof destination.fd === 'number') writeAllSync(destination.fd, text)
      } catch {
        // A failed stream costs its lines, never the exit.
      }
    },
  }
  function flush(): void {
    // Empty when the exit got there first.
    if (pending === '') return
    const text = pending
    pending = ''
    holding.delete(held)
    stream.write(text)
  }
  if (!hooked) {
    hooked = true
    process.on('exit', flushAllSync)
  }
  return {
    isTTY: stream.isTTY,
    write(line: string) {
      if (pending === '') {
        holding.add(held)
        setImmediate(flush)
      }
      pending += line
      if (pending.length >= MAX_PENDING) flush()
      return true
    },
  }
}
