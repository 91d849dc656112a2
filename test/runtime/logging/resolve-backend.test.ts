import { describe, expect, it } from 'vitest'
import { tryLoadPeer } from '../../../src/runtime/core/load-peer.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { capture } from '../../support/log-capture.js'

const defaults = resolveLoggerOptions(undefined, false)
const without =
  (...missing: string[]) =>
  (name: string) =>
    missing.includes(name) ? undefined : tryLoadPeer(name)

describe('resolveBackend', () => {
  it('uses logger.instance first', () => {
    const noop = () => {}
    const instance = { debug: noop, info: noop, warn: noop, error: noop }
    const sink = resolveBackend(resolveLoggerOptions({ instance }, true))
    expect(sink).toMatchObject({ backend: 'instance', pretty: false, colors: false })
    expect(sink.logger).toBe(instance)
  })

  it('then pino when installed', () => {
    expect(resolveBackend(defaults, { stream: capture() }).backend).toBe('pino')
  })

  it('then winston when pino is missing', () => {
    expect(resolveBackend(defaults, { stream: capture(), load: without('pino') }).backend).toBe(
      'winston',
    )
  })

  it('then the built-in logger when neither is installed', () => {
    const sink = resolveBackend(defaults, { stream: capture(), load: without('pino', 'winston') })
    expect(sink.backend).toBe('console')
  })

  it('uses colours only on a terminal, in pretty mode', () => {
    const pretty = resolveLoggerOptions({ pretty: true }, true)
    for (const backend of ['console', 'pino', 'winston'] as const) {
      expect(resolveBackend(pretty, { stream: capture(true), backend }).colors).toBe(true)
      expect(resolveBackend(pretty, { stream: capture(false), backend }).colors).toBe(false)
      expect(resolveBackend(defaults, { stream: capture(true), backend }).colors).toBe(false)
    }
  })

  it('never colours when NO_COLOR is set', () => {
    process.env.NO_COLOR = '1'
    try {
      const pretty = resolveLoggerOptions({ pretty: true }, true)
      expect(resolveBackend(pretty, { stream: capture(true), backend: 'console' }).colors).toBe(
        false,
      )
    } finally {
      delete process.env.NO_COLOR
    }
  })
})
