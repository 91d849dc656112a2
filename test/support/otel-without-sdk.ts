import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { afterAll, beforeAll, expect } from 'vitest'
import { resetLogger } from '../../src/runtime/logging/logger.js'
import { otelApi, setOtelApi } from '../../src/runtime/telemetry/otel-api.js'

/** The two ways an app runs without an SDK: the API not installed (null), or installed alone. */
export const NO_SDK_MODES = [
  ['without @opentelemetry/api', null],
  ['with @opentelemetry/api and no SDK', undefined],
] as const

/**
 * For a test file: nothing is registered with the API before its tests, as in an application
 * without OpenTelemetry set up; after them the API is looked for again and the logger reset.
 */
export function useNoSdk(): void {
  beforeAll(() => {
    for (const api of [trace, context, propagation, metrics]) api.disable()
  })
  afterAll(() => {
    setOtelApi(undefined)
    resetLogger()
  })
}

/** For a describe block of `NO_SDK_MODES`: shapeguard finds the API as `api` says. */
export function useOtelApi(api: (typeof NO_SDK_MODES)[number][1]): void {
  beforeAll(() => {
    setOtelApi(api)
    expect(otelApi() === null).toBe(api === null)
  })
}
