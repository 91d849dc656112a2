/**
 * A phase of a run, in the order they run: the schemas' own examples and defaults, the edges of
 * every constraint (deterministic), random requests (shrunk on failure), and stateful sequences
 * that create a resource and then read, update and delete it.
 */
export type FuzzPhase = 'examples' | 'boundaries' | 'random' | 'stateful'

/** Every phase, in the order a run takes them. */
export const fuzzPhases: readonly FuzzPhase[] = ['examples', 'boundaries', 'random', 'stateful']
