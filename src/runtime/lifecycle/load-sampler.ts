import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'

// One sampler per process, shared by every shapeguard() with `overload`: each instance compares
// the same samples with its own limits, so the per-request check is a property read, never a
// system call. Its timer is unref'd: it never keeps the process alive.

/** What is told each sample: an instance's load shedding (lifecycle/overload.ts). */
export interface LoadWatcher {
  /** How often this watcher wants a sample; the sampler runs at the shortest asked for. */
  readonly intervalMs: number
  /** One sample: the worst event-loop delay since the last (ms) and the heap used (bytes). */
  sample(delayMs: number, heapUsed: number, now: number): void
  /** The sampler stopped: no more samples, so nothing is refused. */
  reset(): void
}

// The histogram's own timer runs every RESOLUTION_MS; what it records is that interval plus the
// delay, so the resolution is taken off again.
const RESOLUTION_MS = 10

// Weak: an app that is dropped (a test's, a hot-reloaded one) takes its watcher with it, and the
// sampler stops once none is left.
const watchers = new Set<WeakRef<LoadWatcher>>()
let timer: NodeJS.Timeout | undefined
let histogram: IntervalHistogram | undefined
let intervalMs = Number.POSITIVE_INFINITY
let lastTick = 0

// `used_heap_size`, the number `process.memoryUsage().heapUsed` reports, without the resident set
// size `memoryUsage()` also reads from the system (0.75 µs against 11 µs on Node 26).
function heapUsed(): number {
  return getHeapStatistics().used_heap_size
}

// The worst delay since the last tick: how late this tick itself ran (a loop blocked until now
// shows here at once, before the histogram's timer has had its turn) or the longest stall the
// histogram saw in between (one that ended before this tick was due).
function tick(): void {
  const now = performance.now()
  const late = now - lastTick - intervalMs
  lastTick = now
  let stall = 0
  if (histogram !== undefined && histogram.count > 0) {
    stall = histogram.max / 1e6 - RESOLUTION_MS
    histogram.reset()
  }
  const delay = Math.max(0, late, stall)
  const heap = heapUsed()
  for (const ref of watchers) {
    const watcher = ref.deref()
    if (watcher === undefined) watchers.delete(ref)
    else watcher.sample(delay, heap, now)
  }
  if (watchers.size === 0) stopLoadSampler()
}

function run(every: number): void {
  if (timer !== undefined) clearInterval(timer)
  intervalMs = every
  lastTick = performance.now()
  timer = setInterval(tick, every)
  timer.unref()
}

/**
 * Adds a watcher, given a first sample at once (the heap is known from the start, so a limit
 * already passed refuses the very first request); starts the sampler, or makes it sample more
 * often when this watcher asks for it.
 */
export function watchLoad(watcher: LoadWatcher): void {
  watchers.add(new WeakRef(watcher))
  if (histogram === undefined) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
    histogram.enable()
  }
  if (timer === undefined || watcher.intervalMs < intervalMs) run(watcher.intervalMs)
  watcher.sample(0, heapUsed(), performance.now())
}

/** Stops the sampler and forgets every watcher (each then refuses nothing). For tests. */
export function stopLoadSampler(): void {
  if (timer !== undefined) clearInterval(timer)
  timer = undefined
  histogram?.disable()
  histogram = undefined
  intervalMs = Number.POSITIVE_INFINITY
  for (const ref of watchers) ref.deref()?.reset()
  watchers.clear()
}

/** Whether the sampler is running (tests). */
export function loadSamplerRunning(): boolean {
  return timer !== undefined
}
