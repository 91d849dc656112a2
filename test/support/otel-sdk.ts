import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace'

/** A reader that exports nothing: a test collects from it when it wants to look. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One data point of a counter, with its attributes. */
export interface CounterPoint {
  readonly name: string
  readonly unit: string
  readonly scope: string
  readonly attributes: Readonly<Record<string, unknown>>
  readonly value: number
}

/**
 * The real OpenTelemetry SDK, registered as an application registers it: a tracer provider
 * exporting to memory, the async-hooks context manager, the W3C propagator and a meter provider
 * with a reader the test collects from. `stop()` unregisters all of it.
 */
export function startSdk() {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(tracerProvider)
  const reader = new CollectingReader({
    aggregationTemporalitySelector: () => AggregationTemporality.DELTA,
  })
  const meterProvider = new MeterProvider({ readers: [reader] })
  metrics.setGlobalMeterProvider(meterProvider)

  return {
    tracerProvider,
    meterProvider,
    /** The spans ended so far, once exported. */
    async spans(): Promise<ReadableSpan[]> {
      await tracerProvider.forceFlush()
      return exporter.getFinishedSpans()
    },
    /** Every counter's data points since the last look, by instrument. */
    async counters(): Promise<CounterPoint[]> {
      const { resourceMetrics } = await reader.collect()
      const points: CounterPoint[] = []
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          for (const point of metric.dataPoints as DataPoint<number>[]) {
            points.push({
              name: metric.descriptor.name,
              unit: metric.descriptor.unit,
              scope: `${scope.scope.name}@${scope.scope.version}`,
              attributes: point.attributes,
              value: point.value,
            })
          }
        }
      }
      return points
    },
    /** Forgets the spans ended and the counts made so far. */
    async reset(): Promise<void> {
      await tracerProvider.forceFlush()
      exporter.reset()
      await reader.collect()
    },
    async stop(): Promise<void> {
      await tracerProvider.shutdown()
      await meterProvider.shutdown()
      contextManager.disable()
      trace.disable()
      context.disable()
      propagation.disable()
      metrics.disable()
    },
  }
}

export type Sdk = ReturnType<typeof startSdk>
