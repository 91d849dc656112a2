import { isoNow } from './iso-time.js'
import { jsonLine } from './json-line.js'
import { safeStream } from './safe-stream.js'

// A logger that throws on every line must not flood stderr instead.
const INTERVAL_MS = 60_000

let lost = 0
let reportedAt: number | undefined

/**
 * Counts a log line lost to a logger that threw, and says so on stderr (never through the logger
 * that threw) at most once a minute, with the lines lost since the last report. Nothing of the
 * line or of what was thrown is written: either may hold a request's values.
 */
export function lineLost(): void {
  lost++
  const now = Date.now()
  if (reportedAt !== undefined && now - reportedAt < INTERVAL_MS) return
  reportedAt = now
  const lines = lost
  lost = 0
  safeStream(process.stderr).write(
    jsonLine(
      'error',
      isoNow(),
      { lostLines: lines },
      'shapeguard: the logger threw; its lines are lost (reported at most once a minute)',
    ),
  )
}

/** Test hook: no line lost, nothing reported yet. */
export function resetLostLines(): void {
  lost = 0
  reportedAt = undefined
}
