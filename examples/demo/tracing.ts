import { createRequire } from 'node:module'
import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { registerInstrumentations } from '@opentelemetry/instrumentation'
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { ConsoleSpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'

/**
 * `OTEL=1 npm run demo`: OpenTelemetry's SDK with its HTTP and Express instrumentations, each
 * span printed to the console as it ends. It must run before Express is loaded: the
 * instrumentations patch `http` and `express` when they are next required. An application does
 * the same in a file it loads first (`node --import ./tracing.js server.js`), with an exporter to
 * its collector instead of the console.
 */
export function startTracing(): void {
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() })],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(tracerProvider)
  registerInstrumentations({
    instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()],
    tracerProvider,
  })
  const require = createRequire(import.meta.url)
  require('node:http')
  require('express')
}
