import { compileFallbacks, defineAdapter, type SchemaAdapter } from '../../src/engine/index.js'

// test/setup.ts fails a test whose schemas fell back to the native parser because their IR did
// not compile (a compiler bug that costs speed, never answers), unless the test said it would.
let allowed = 0
let before = 0

/** Marks the current test as provoking `count` compile fallbacks on purpose. */
export function allowCompileFallbacks(count: number): void {
  allowed += count
}

export function startCounting(): void {
  allowed = 0
  before = compileFallbacks()
}

export function unexpectedFallbacks(): number {
  return compileFallbacks() - before - allowed
}

/** An adapter whose IR no compiler knows: what a compiler bug looks like from outside. */
export function uncompilableAdapter(): SchemaAdapter {
  return defineAdapter({
    library: 'hand-written',
    schema: {},
    ir: { kind: 'hologram', safety: 'exact' } as never,
    async: false,
    parse: (input: unknown) => ({ success: true as const, data: input }),
  })
}
