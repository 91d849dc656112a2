import { Writable } from 'node:stream'
import request from 'supertest'
import { afterEach, describe, expect, it, vi } from 'vitest'
import winston from 'winston'
import Transport from 'winston-transport'
import { winstonAdapter } from '../../../src/adapters-winston.js'
import { resetLogger } from '../../../src/runtime/logging/logger.js'
import { ID, makeApp } from '../../support/logging-app.js'

/** A winston transport that keeps every info object it is given. */
class Keep extends Transport {
  readonly infos: Record<string, unknown>[] = []
  override log(info: Record<string, unknown>, callback: () => void) {
    // Only the fields: winston's own symbols (level, message, splat) are its business.
    this.infos.push(Object.fromEntries(Object.entries(info)))
    callback()
  }
}

function winstonWith(level = 'debug') {
  const keep = new Keep()
  const target = winston.createLogger({ level, transports: [keep] })
  return { keep, logger: winstonAdapter(target) }
}

afterEach(() => resetLogger())

describe('winstonAdapter', () => {
  it('passes a plain message as winston message', () => {
    const { keep, logger } = winstonWith()
    logger.info('hello')
    expect(keep.infos).toEqual([{ level: 'info', message: 'hello' }])
  })

  it('keeps metadata as fields and the message as message', () => {
    const { keep, logger } = winstonWith()
    logger.warn({ orderId: 7 }, 'retried')
    logger.error({ code: 'X', message: 'error message' })
    expect(keep.infos).toEqual([
      { level: 'warn', orderId: 7, message: 'retried' },
      { level: 'error', code: 'X', message: 'error message' },
    ])
  })

  it("never touches the caller's object, nor a prototype through __proto__", () => {
    const { keep, logger } = winstonWith()
    const meta = Object.freeze(JSON.parse('{"__proto__":{"level":"error"},"a":1}'))
    logger.debug(meta, 'x')
    expect(keep.infos[0]).toMatchObject({ level: 'debug', a: 1, message: 'x' })
    expect(Object.getPrototypeOf(keep.infos[0])).toBe(Object.prototype)
  })

  it("respects the winston logger's own level", () => {
    const { keep, logger } = winstonWith('warn')
    logger.info('hidden')
    logger.debug('hidden')
    logger.error('shown')
    expect(keep.infos.map((i) => i.message)).toEqual(['shown'])
  })

  it('rejects an object that is neither a winston logger nor a (message, meta) logger', () => {
    const expected =
      /^shapeguard: winstonAdapter\(\): needs a winston logger \(winston\.createLogger\(\): log\(\), add\(\) and levels\) or a logger whose debug, info, warn and error methods take \(message, meta\)$/
    const npmlog = {
      levels: { silly: -Infinity, verbose: 1000, info: 2000, warn: 4000, error: 5000 },
      log() {},
      addLevel() {},
      info() {},
      warn() {},
      error() {},
    }
    // npmlog has log() and levels but no add(), nor a debug method to bridge; a bare log(),
    // once taken for winston, is not winston either.
    const refused = [{}, null, undefined, 'winston', { info() {}, warn() {}, error() {} }]
    for (const value of [...refused, npmlog, { log() {} }]) {
      expect(() => winstonAdapter(value as never)).toThrow(TypeError)
      expect(() => winstonAdapter(value as never)).toThrow(expected)
    }
  })

  it('works as logger.instance: the request records reach the transport', async () => {
    const { keep, logger } = winstonWith()
    const app = makeApp({ instance: logger }, {})
    await request(app).delete('/users/3')
    expect(keep.infos).toEqual([
      {
        level: 'debug',
        requestId: ID,
        method: 'DELETE',
        path: '/users/3',
        message: '>> DELETE /users/3',
      },
      {
        level: 'warn',
        requestId: ID,
        method: 'DELETE',
        endpoint: '/users/:id',
        status: 404,
        duration_ms: expect.any(Number),
        code: 'NOT_FOUND',
        message: 'User not found',
      },
    ])
  })
})

type Call = [level: string, message: string, meta?: Record<string, unknown>]

/** A logger whose level methods take (message, meta), keeping every call. */
function messageMeta() {
  const calls: Call[] = []
  const method = (level: string) => (message: string, meta?: Record<string, unknown>) => {
    calls.push(meta === undefined ? [level, message] : [level, message, meta])
  }
  return {
    calls,
    target: {
      debug: method('debug'),
      info: method('info'),
      warn: method('warn'),
      error: method('error'),
    },
  }
}

describe('winstonAdapter with a (message, meta) logger', () => {
  it('calls the level method with the message, then the fields as meta', () => {
    const { calls, target } = messageMeta()
    const logger = winstonAdapter(target)
    logger.info('hello')
    logger.warn({ orderId: 7 }, 'retried')
    logger.error({ code: 'X', message: 'error message' })
    logger.debug({ status: 200 })
    expect(calls).toEqual([
      ['info', 'hello'],
      ['warn', 'retried', { orderId: 7 }],
      ['error', 'error message', { code: 'X' }],
      ['debug', '', { status: 200 }],
    ])
  })

  it("keeps an own __proto__ key as data and never touches the caller's object", () => {
    const { calls, target } = messageMeta()
    const meta = Object.freeze(JSON.parse('{"__proto__":{"admin":true},"message":"m","a":1}'))
    winstonAdapter(target).info(meta)
    const [, message, fields] = calls[0]!
    expect(message).toBe('m')
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype)
    expect(Object.keys(fields!)).toEqual(['__proto__', 'a'])
    expect(Object.keys(meta)).toEqual(['__proto__', 'message', 'a'])
  })

  it('works as logger.instance: the request records reach it', async () => {
    const { calls, target } = messageMeta()
    const app = makeApp({ instance: winstonAdapter(target) }, {})
    await request(app).delete('/users/3')
    expect(calls).toEqual([
      ['debug', '>> DELETE /users/3', { requestId: ID, method: 'DELETE', path: '/users/3' }],
      [
        'warn',
        'User not found',
        {
          requestId: ID,
          method: 'DELETE',
          endpoint: '/users/:id',
          status: 404,
          duration_ms: expect.any(Number),
          code: 'NOT_FOUND',
        },
      ],
    ])
  })

  it("takes a real winston logger's log() path, not its level methods, and its child's", () => {
    const keep = new Keep()
    const target = winston.createLogger({ level: 'debug', transports: [keep] })
    winstonAdapter(target).warn({ orderId: 7 }, 'retried')
    expect(keep.infos).toEqual([{ level: 'warn', orderId: 7, message: 'retried' }])
    // Child loggers came with winston 3.2: not in the lowest version the peer range allows.
    if (typeof target.child !== 'function') return
    winstonAdapter(target.child({ service: 'api' })).info({ orderId: 8 }, 'child')
    expect(keep.infos[1]).toEqual({ level: 'info', service: 'api', orderId: 8, message: 'child' })
  })

  it('calls console.info(message, meta): a log() method does not make a logger winston', () => {
    const calls: unknown[][] = []
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        calls.push([level, ...args])
      })
    }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const logger = winstonAdapter(console)
    logger.info({ requestId: 'r1', status: 200 })
    logger.info('hello')
    logger.error({ code: 'X', message: 'down' })
    expect(calls).toEqual([
      ['info', '', { requestId: 'r1', status: 200 }],
      ['info', 'hello'],
      ['error', 'down', { code: 'X' }],
    ])
    expect(log).not.toHaveBeenCalled()
  })

  it('bridges a log4js- or signale-like logger (a log(level, …) of its own) as (message, meta)', () => {
    const { calls, target } = messageMeta()
    const other: unknown[] = []
    // log4js: log(level, ...args), a level, a category, contexts; signale: log(...args).
    const log4js = {
      ...target,
      level: 'debug',
      category: 'default',
      log: (...args: unknown[]) => void other.push(args),
      addContext() {},
      isLevelEnabled: () => true,
    }
    winstonAdapter(log4js).warn({ orderId: 7 }, 'retried')
    expect(calls).toEqual([['warn', 'retried', { orderId: 7 }]])
    expect(other).toEqual([])
  })
})

/** A transport whose destination failed, as a File transport on a full disk does. */
class Broken extends Transport {
  attempts = 0
  override log(_info: unknown, callback: () => void) {
    this.attempts++
    this.emit('error', new Error('ENOSPC: no space left on device'))
    callback()
  }
}

describe('winstonAdapter with a failing transport', () => {
  it('never throws, stops writing to that transport and keeps the others', async () => {
    const keep = new Keep()
    const broken = new Broken()
    const logger = winstonAdapter(winston.createLogger({ transports: [broken, keep] }))
    expect(() => {
      for (let i = 0; i < 3; i++) logger.info({ i }, 'line')
    }).not.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(broken.attempts).toBe(1)
    expect(keep.infos.map((info) => info.i)).toEqual([0, 1, 2])
  })

  it('goes quiet when no transport is left, without winston complaining', async () => {
    const broken = new Broken()
    const logger = winstonAdapter(winston.createLogger({ transports: [broken] }))
    expect(() => {
      for (let i = 0; i < 3; i++) logger.error('line')
    }).not.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(broken.attempts).toBe(1)
  })

  it("removes a Stream transport whose own stream failed (winston never sees that 'error')", async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('EPIPE: broken pipe'))
      },
    })
    const keep = new Keep()
    const target = winston.createLogger({
      transports: [new winston.transports.Stream({ stream }), keep],
    })
    const logger = winstonAdapter(target)
    logger.info('first')
    await new Promise((resolve) => setTimeout(resolve, 5))
    logger.info('second')
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(target.transports).toEqual([keep])
    expect(keep.infos.map((info) => info.message)).toEqual(['first', 'second'])
  })

  it('adds one error listener per winston logger', () => {
    const target = winston.createLogger({ transports: [new Keep()] })
    const before = target.listenerCount('error')
    for (let i = 0; i < 20; i++) winstonAdapter(target)
    expect(target.listenerCount('error')).toBe(before + 1)
  })
})
