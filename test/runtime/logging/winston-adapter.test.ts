import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import winston from 'winston'
import Transport from 'winston-transport'
import { winstonAdapter } from '../../../src/adapters/winston/index.js'
import { resetLogger } from '../../../src/runtime/logging/logger.js'
import { ID, makeApp } from './app.js'

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

  it('rejects something that is not a winston logger', () => {
    expect(() => winstonAdapter({} as never)).toThrow(/winstonAdapter\(\) needs a winston logger/)
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

  it('adds one error listener per winston logger', () => {
    const target = winston.createLogger({ transports: [new Keep()] })
    const before = target.listenerCount('error')
    for (let i = 0; i < 20; i++) winstonAdapter(target)
    expect(target.listenerCount('error')).toBe(before + 1)
  })
})
