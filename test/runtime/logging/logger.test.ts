import { afterEach, describe, expect, it } from 'vitest'
import {
  configureLogger,
  defaultLog,
  installSink,
  logger,
  resetLogger,
} from '../../../src/runtime/logging/logger.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { BACKENDS, CLOCK, capture, ISO, settle } from '../../support/log-capture.js'

function mount(backend: (typeof BACKENDS)[number], pretty: boolean, level = 'debug' as const) {
  const out = capture()
  const options = resolveLoggerOptions({ pretty, level }, true)
  installSink(resolveBackend(options, { stream: out, backend }), options)
  return out
}

afterEach(() => resetLogger())

describe('logger', () => {
  describe.each(BACKENDS)('through %s', (backend) => {
    it('writes a plain string as one JSON record', async () => {
      const out = mount(backend, false)
      logger.info('server started')
      await settle()
      const [record] = out.records()
      expect(out.chunks).toHaveLength(1)
      expect(record).toEqual({
        level: 'info',
        time: expect.stringMatching(ISO),
        message: 'server started',
      })
    })

    it('writes metadata and a message, with levels as strings', async () => {
      const out = mount(backend, false)
      logger.warn({ orderId: 7 }, 'payment retried')
      logger.error({ orderId: 8 })
      logger.debug('details')
      await settle()
      expect(out.records()).toEqual([
        { level: 'warn', time: expect.stringMatching(ISO), orderId: 7, message: 'payment retried' },
        { level: 'error', time: expect.stringMatching(ISO), orderId: 8 },
        { level: 'debug', time: expect.stringMatching(ISO), message: 'details' },
      ])
    })

    it('redacts metadata at any depth without touching the caller object', async () => {
      const out = mount(backend, false)
      const meta = { user: { name: 'ada', password: 'hunter2', card: { cardNumber: '4242' } } }
      const copy = structuredClone(meta)
      logger.info(meta, 'login')
      await settle()
      expect(out.records()[0]).toMatchObject({
        user: { name: 'ada', password: '[REDACTED]', card: { cardNumber: '[REDACTED]' } },
      })
      expect(meta).toEqual(copy)
    })

    it('writes pretty lines: time, badge, message, metadata', async () => {
      const out = mount(backend, true)
      logger.info('server started')
      logger.warn({ orderId: 7 }, 'payment retried')
      await settle()
      expect(out.lines()).toHaveLength(2)
      expect(out.lines()[0]).toMatch(new RegExp(`^${CLOCK} \\[INFO\\] server started$`))
      expect(out.lines()[1]).toMatch(
        new RegExp(`^${CLOCK} \\[WARN\\] payment retried \\{"orderId":7\\}$`),
      )
    })
  })

  it('writes nothing at disabled levels', () => {
    const out = mount('console', false, 'warn' as never)
    logger.debug('hidden')
    logger.info('hidden')
    logger.warn('shown')
    expect(out.lines()).toHaveLength(1)
  })

  it('writes a non-string, non-object first argument as a message', () => {
    const out = mount('console', false)
    logger.info(42 as never)
    expect(out.records()[0]).toMatchObject({ message: '42' })
  })

  it('writes an Error as its name, message and stack', () => {
    const out = mount('console', false)
    logger.error(new Error('boom') as never)
    expect(out.records()[0]).toMatchObject({
      name: 'Error',
      message: 'boom',
      stack: expect.stringContaining('boom'),
    })
  })
})

describe('configureLogger', () => {
  afterEach(() => resetLogger())

  it('changes the level of the singleton at any time', () => {
    const out = mount('console', false)
    configureLogger({ level: 'error' })
    logger.warn('hidden')
    logger.error('shown')
    configureLogger({ level: 'debug' })
    logger.debug('shown too')
    expect(out.records().map((r) => r.message)).toEqual(['shown', 'shown too'])
  })

  it('silences everything and back', () => {
    const out = mount('console', false)
    configureLogger({ silent: true })
    logger.error('hidden')
    expect(defaultLog().threshold()).toBe(4)
    configureLogger({ silent: false })
    logger.error('shown')
    expect(out.records().map((r) => r.message)).toEqual(['shown'])
  })

  it('keeps its values over a later mount', () => {
    configureLogger({ level: 'error' })
    const out = mount('console', false)
    logger.warn('hidden')
    logger.error('shown')
    expect(out.lines()).toHaveLength(1)
  })

  it('rejects a bad level or silent value, naming it', () => {
    expect(() => configureLogger({ level: 'verbose' as never })).toThrow(
      /level must be debug, info, warn or error/,
    )
    expect(() => configureLogger({ silent: 'yes' as never })).toThrow(/silent must be a boolean/)
  })

  it('rejects an unknown key, listing level and silent, and changes nothing', () => {
    const out = mount('console', false)
    expect(() => configureLogger({ levle: 'error' } as never)).toThrow(TypeError)
    expect(() => configureLogger({ level: 'error', levle: 'error' } as never)).toThrow(
      /levle is not an option.*\(level, silent\)$/,
    )
    expect(() => configureLogger(null as never)).toThrow(
      /configureLogger\(\): options must be an object/,
    )
    logger.info('still shown')
    expect(out.records().map((r) => r.message)).toEqual(['still shown'])
  })

  it('refuses instance, saying where a logger instance goes (it takes level and silent)', () => {
    const noop = () => {}
    const instance = { debug: noop, info: noop, warn: noop, error: noop }
    expect(() => configureLogger({ instance } as never)).toThrow(
      'shapeguard: configureLogger(): takes level and silent, a logger instance goes in shapeguard({ logger: { instance } })',
    )
  })

  it('resolves the development defaults lazily, when first used', () => {
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      configureLogger()
      expect(defaultLog().threshold()).toBe(2)
      expect(defaultLog().sink.pretty).toBe(false)
    } finally {
      process.env.NODE_ENV = previous
    }
  })
})
