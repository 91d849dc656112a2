import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { checkKnownKeys, checkNested, checkOptions } from '../../src/shared/check-option.js'

function thrown(fn: () => void): TypeError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return error as TypeError
  }
  throw new Error('expected a TypeError')
}

describe('checkKnownKeys', () => {
  it('names an unknown key and what takes it, with the keys that are options', () => {
    expect(thrown(() => checkKnownKeys({ bdy: 1 }, ['body', 'query'], 'handle()')).message).toBe(
      'shapeguard: handle(): bdy is not an option (body, query)',
    )
  })

  it('names the option path the key is in', () => {
    expect(
      thrown(() => checkKnownKeys({ trm: true }, ['trim'], 'validation.strings')).message,
    ).toBe('shapeguard: validation.strings: trm is not an option (trim)')
  })

  it('says what the options are of, when asked', () => {
    expect(
      thrown(() => checkKnownKeys({ colour: 1 }, ['secret'], 'verifyWebhook()', 'a custom scheme'))
        .message,
    ).toBe('shapeguard: verifyWebhook(): colour is not an option of a custom scheme (secret)')
  })

  it('passes known keys, whatever their value, and ignores symbol keys', () => {
    expect(() =>
      checkKnownKeys({ body: undefined, query: 1, [Symbol('x')]: 2 }, ['body', 'query'], 'a route'),
    ).not.toThrow()
  })
})

describe('checkOptions', () => {
  it('rejects what is not an options object', () => {
    for (const bad of [null, 'x', 1, []]) {
      expect(thrown(() => checkOptions(bad, ['message'], 'notFoundHandler()')).message).toBe(
        'shapeguard: notFoundHandler(): options must be an object',
      )
    }
  })

  it('says how to mount a factory that was mounted itself (it then gets a request)', () => {
    const req = new IncomingMessage(new Socket())
    expect(thrown(() => checkOptions(req, [], 'errorHandler()')).message).toBe(
      'shapeguard: errorHandler(): makes the middleware, mount app.use(errorHandler()), not app.use(errorHandler)',
    )
  })

  it('checks the keys', () => {
    expect(
      thrown(() => checkOptions({ mesage: 'x' }, ['message'], 'notFoundHandler()')).message,
    ).toBe('shapeguard: notFoundHandler(): mesage is not an option (message)')
    expect(() => checkOptions({ message: 'x' }, ['message'], 'notFoundHandler()')).not.toThrow()
  })
})

describe('checkNested', () => {
  it('passes an absent section, and checks a present one is an object of known keys', () => {
    expect(() => checkNested(undefined, 'requestId', ['enabled'])).not.toThrow()
    expect(thrown(() => checkNested(false, 'requestId', ['enabled'])).message).toBe(
      'shapeguard: requestId: must be an object',
    )
    expect(thrown(() => checkNested([], 'sanitize', ['exposeMessage'])).message).toBe(
      'shapeguard: sanitize: must be an object',
    )
    expect(thrown(() => checkNested({ enable: false }, 'requestId', ['enabled'])).message).toBe(
      'shapeguard: requestId: enable is not an option (enabled)',
    )
  })
})
