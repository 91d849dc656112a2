import type { NextFunction, Request, Response } from 'express'
import { runInTraceContext } from '../src/runtime/logging/request-scope.js'
import { type OtelApi, otelApi, setOtelApi } from '../src/runtime/telemetry/otel-api.js'
import { traceRoute } from '../src/runtime/telemetry/spans.js'
import { type Comparison, compare, printComparison, writeResults } from './lib.js'

// Question: what does `runInTraceContext` (shapeguard()'s and the first guarded route's call of the
// rest of a request) cost per request: without a traceparent header (no context is made), with a
// valid one (the rest runs in an AsyncLocalStorage context), and with an OpenTelemetry span active
// (the header is checked, no context is made)? And what do all the hooks a guarded request passes
// without a span (that call, and the route hook that would name the span) cost with
// `@opentelemetry/api` absent, and installed with no SDK registered?
// Each case calls an asynchronous handler that awaits twice, as a handler awaiting its work does:
// on Node 22, AsyncLocalStorage tracks promises through async_hooks once a context has been made,
// a cost every later promise of the process pays; the first phase runs before any context exists.

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
const res = {} as Response
const next = (() => {}) as NextFunction
const plain = { headers: {} } as Request
const traced = { headers: { traceparent: VALID } } as unknown as Request

let pending: Promise<void> = Promise.resolve()
async function work(): Promise<void> {
  await null
  await null
}
function handler(): void {
  pending = work()
}

function direct(): Promise<void> {
  handler()
  return pending
}
function through(req: Request): () => Promise<void> {
  return () => {
    runInTraceContext(handler, req, res, next)
    return pending
  }
}

// The API's context with a span in it, as an SDK's context manager would give (only the parts
// the check reads).
const span = {
  spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
}
function withSpan(api: OtelApi): OtelApi {
  const active = { getValue: () => undefined }
  return {
    ...api,
    context: { active: () => active },
    trace: { getSpan: () => span as never },
  }
}

const DIRECT = 'handler called directly'
const NO_HEADER = 'no traceparent header'
const results: Comparison[] = []

// A guarded request's hooks, with the API as `api` says (null: not installed).
const routeHook = (req: Request) => {
  traceRoute(req)
  handler()
}
function hooks(api: OtelApi | null): () => Promise<void> {
  return () => {
    setOtelApi(api)
    runInTraceContext(routeHook, plain, res, next)
    return pending
  }
}

// Phase 1: no context made yet in this process.
setOtelApi(undefined)
const installed = otelApi()
if (installed === null) throw new Error('@opentelemetry/api is a dev dependency: install it')
results.push(
  await compare('before any trace context exists', DIRECT, {
    [DIRECT]: direct,
    [NO_HEADER]: through(plain),
    'every hook, @opentelemetry/api absent': hooks(null),
    'every hook, @opentelemetry/api installed, no SDK': hooks(installed),
  }),
)
setOtelApi(undefined)
printComparison(results[0]!)

// Phase 2: after the first request with a valid header (@opentelemetry/api installed, no SDK).
await through(traced)()
const api = otelApi()
if (api === null) throw new Error('@opentelemetry/api is a dev dependency: install it')
const spanApi = withSpan(api)
results.push(
  await compare('once a trace context has been made', DIRECT, {
    [DIRECT]: direct,
    [NO_HEADER]: through(plain),
    'valid traceparent header, no span': through(traced),
    'valid traceparent header, a span active': () => {
      setOtelApi(spanApi)
      const done = through(traced)()
      setOtelApi(api)
      return done
    },
  }),
)
printComparison(results[1]!)
for (const c of results) {
  const base = c.cases.find((r) => r.name === DIRECT)!.meanNs
  for (const r of c.cases) {
    if (r.name !== DIRECT) {
      const extra = r.meanNs - base
      process.stdout.write(`  ${r.name}: ${extra < 0 ? '' : '+'}${extra} ns per request\n`)
    }
  }
}
setOtelApi(undefined)
writeResults(`trace-context-node${process.versions.node.split('.')[0]}`, results)
