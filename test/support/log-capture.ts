import type { LogStream } from '../../src/runtime/logging/types.js'

/** A stream that keeps what is written, for pino, winston and the built-in logger alike. */
export interface Capture extends LogStream {
  readonly chunks: string[]
  /** Every line written so far (chunks split on newlines, empty lines dropped). */
  lines(): string[]
  /** Every line parsed as JSON. */
  records(): Record<string, unknown>[]
}

export function capture(isTTY = false): Capture {
  const chunks: string[] = []
  return {
    chunks,
    isTTY,
    write(line: string) {
      chunks.push(line)
      return true
    },
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== ''),
    records: () => chunks.map((c) => JSON.parse(c) as Record<string, unknown>),
  }
}

/** Lets winston's stream pipeline and 'finish' listeners run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5))
}

export const BACKENDS = ['console', 'pino', 'winston'] as const
/** Each backend, writing JSON (`false`) and pretty lines (`true`). */
export const BACKEND_MODES = BACKENDS.flatMap((b) => [[b, false] as const, [b, true] as const])

/** `12:34:56.789`, the pretty time stamp. */
export const CLOCK = String.raw`\d{2}:\d{2}:\d{2}\.\d{3}`
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
