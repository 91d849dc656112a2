import { afterEach, beforeEach, vi } from 'vitest'
import { startCounting, unexpectedFallbacks } from './support/compile-fallbacks.js'

// A test fails on console output it did not ask for: stray logs hide real problems.
// A test that expects output spies on the method (vi.spyOn(console, 'warn')); that method is
// then the test's business and its calls are not counted.
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const
type Method = (typeof methods)[number]
const originals = new Map(methods.map((m) => [m, console[m]]))
let stray: Array<{ method: Method; text: string }> = []

beforeEach(() => {
  startCounting()
  stray = []
  for (const method of methods) {
    console[method] = (...args: unknown[]) => {
      stray.push({ method, text: args.map(String).join(' ') })
    }
  }
})

afterEach(() => {
  const fallbacks = unexpectedFallbacks()
  const watched = methods.filter((m) => !vi.isMockFunction(console[m]))
  const found = stray.filter((s) => watched.includes(s.method))
  for (const m of methods) console[m] = originals.get(m)!
  if (fallbacks !== 0) {
    throw new Error(
      `${fallbacks} schema(s) fell back to the native parser: their IR did not compile`,
    )
  }
  if (found.length > 0) {
    throw new Error(
      `unexpected console output:\n${found.map((s) => `console.${s.method}: ${s.text}`).join('\n')}`,
    )
  }
})
