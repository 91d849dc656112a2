import { createRequire } from 'node:module'
import { registerInstrumentations } from '@opentelemetry/instrumentation'
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import express4 from 'express4'
import { afterAll, beforeAll } from 'vitest'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { type Sdk, startSdk } from './otel-sdk.js'

interface ModuleDefinition {
  patch?(exports: unknown, version?: string): unknown
  unpatch?(exports: unknown, version?: string): void
}

/**
 * The SDK with OpenTelemetry's HTTP and Express instrumentations, as an application starts them
 * before it loads Express. Their require hooks patch `http` and `express` (Express 5) when next
 * required; Express 4 is installed here as the `express4` npm alias, whose name the hook does not
 * know, so the Express instrumentation's own patch is applied to it by hand. Apps must be built
 * after this (the Express instrumentation wraps layers as they are registered).
 */
export function startInstrumentedSdk() {
  const sdk: Sdk = startSdk()
  const http = new HttpInstrumentation()
  const expressInstrumentation = new ExpressInstrumentation()
  const unregister = registerInstrumentations({
    instrumentations: [http, expressInstrumentation],
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
  })
  const require = createRequire(import.meta.url)
  require('node:http')
  require('express')
  const [express4Patch] = (
    expressInstrumentation as unknown as { init(): ModuleDefinition[] }
  ).init()
  express4Patch?.patch?.(express4, '4')
  return {
    ...sdk,
    /** Which instrumentations are on: the Express one needs the HTTP one to find a span. */
    instrument(which: { http: boolean; express: boolean }): void {
      if (which.http) http.enable()
      else http.disable()
      if (which.express) {
        expressInstrumentation.enable()
        express4Patch?.patch?.(express4, '4')
      } else {
        expressInstrumentation.disable()
        express4Patch?.unpatch?.(express4, '4')
      }
    },
    async stop(): Promise<void> {
      express4Patch?.unpatch?.(express4, '4')
      unregister()
      await sdk.stop()
    },
  }
}

export type InstrumentedSdk = ReturnType<typeof startInstrumentedSdk>

/**
 * Starts the instrumented SDK before a test file's tests and stops it after them (and resets
 * shapeguard's logger); returns the running SDK's getter.
 * @example const sdk = useInstrumentedSdk(); … await sdk().reset()
 */
export function useInstrumentedSdk(): () => InstrumentedSdk {
  let sdk: InstrumentedSdk | undefined
  beforeAll(() => {
    sdk = startInstrumentedSdk()
  })
  afterAll(async () => {
    resetLogger()
    await sdk?.stop()
  })
  return () => {
    if (sdk === undefined) throw new Error('the SDK starts in beforeAll: use it inside a test')
    return sdk
  }
}
