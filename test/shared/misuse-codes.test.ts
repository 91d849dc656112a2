import type * as fs from 'node:fs'
import { readdirSync, readFileSync } from 'node:fs'
import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { join } from 'node:path'
import express from 'express'
import { describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { redisStore } from '../../src/adapters-redis.js'
import { createRouter, errorHandler, generateOpenAPI, handle, shapeguard } from '../../src/index.js'
import { serveRedoc, serveSwaggerUI } from '../../src/openapi/index.js'
import { contextOf } from '../../src/runtime/core/context.js'
import { startStream } from '../../src/runtime/stream/start.js'
import { type MisuseCode, misuseCodes } from '../../src/shared/misuse-codes.js'
import {
  arbitrary,
  fuzzRoutes,
  mockNext,
  mockRequest,
  mockResponse,
} from '../../src/testing/index.js'
import { demoSpec } from '../fixtures/docs-spec.js'

// One code per kind of programmer's mistake (src/shared/misuse-codes.ts): every misuse error
// shapeguard throws is made by optionError with a code of the registry, and every code is thrown
// by a call below with the message its docs entry shows.

// As on a host without swagger-ui-dist, and with a redoc that lacks its bundle.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>()
  return {
    ...real,
    existsSync: (path: fs.PathLike) =>
      !/[\\/]swagger-ui-dist[\\/]package\.json$/.test(String(path)) && real.existsSync(path),
    readFileSync: ((path: fs.PathOrFileDescriptor, ...rest: never[]) => {
      if (/redoc\.standalone\.js$/.test(String(path))) throw new Error('ENOENT')
      return real.readFileSync(path, ...rest)
    }) as typeof real.readFileSync,
  }
})

const src = join(import.meta.dirname, '../../src')

/** Every source file under src/, by its path there. */
function sourceFiles(): Map<string, string> {
  return new Map(
    readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => [file.replaceAll('\\', '/'), readFileSync(join(src, file), 'utf8')]),
  )
}

/** The error a call throws or rejects with. */
async function thrown(call: () => unknown): Promise<Error & { code?: unknown }> {
  try {
    await call()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to throw')
}

const ok = () => undefined
const config = { title: 't', version: '1' }

const calls: Record<MisuseCode, () => unknown> = {
  SG_ERR_UNKNOWN_OPTION: () => createRouter({ mergeParam: true } as never),
  SG_ERR_INVALID_OPTION: () => shapeguard({ requestId: { header: 'x id' } }),
  SG_ERR_MISSING_OPTION: () => handle({}, undefined as never),
  SG_ERR_OPTION_CONFLICT: () => handle({ response: z.object({}), sends: z.string() } as never, ok),
  SG_ERR_MISPLACED_OPTION: () => shapeguard({ cache: { maxAge: 60 } } as never),
  SG_ERR_FACTORY_NOT_CALLED: () => errorHandler(new IncomingMessage(new Socket()) as never),
  SG_ERR_NOT_A_ROUTE: () => handle(z.object({}) as never, ok),
  SG_ERR_NOT_A_SCHEMA: () => handle({ body: { name: z.string() } } as never, ok),
  SG_ERR_SCHEMA_UNSUPPORTED: () =>
    handle({ body: { __isYupSchema__: true, validate: ok, cast: ok } } as never, ok),
  SG_ERR_ENVELOPE_SHAPE: () => shapeguard({ response: { shape: { ok: '{status}' as never } } }),
  SG_ERR_UNKNOWN_NAME: () => fuzzRoutes(express(), { routes: ['GET /missing'] }),
  SG_ERR_BAD_RETURN: () => {
    const middleware = shapeguard({ requestId: { generator: () => 7 as never } })
    const req = mockRequest()
    const next = mockNext()
    middleware(req, mockResponse({ req }), next)
    throw next.error
  },
  SG_ERR_NOT_AN_APP: () => generateOpenAPI({ ...config, app: {} as never }),
  SG_ERR_INSTANCE_INCOMPATIBLE: () =>
    shapeguard({ logger: { instance: { debug: ok, info: ok, error: ok } as never } }),
  SG_ERR_STORE_SHARED: () => {
    const store = { init: ok, increment: ok, decrement: ok, resetKey: ok }
    const rateLimit = { windowMs: 1000, max: 1, store: store as never }
    handle({ rateLimit }, ok)
    handle({ rateLimit }, ok)
  },
  SG_ERR_STORE_REPLY: () =>
    redisStore({ client: { call: async () => 'OK' } }).increment('k', 1000, 1),
  SG_ERR_NO_VALUES: () => arbitrary(z.unknown(), { mode: 'invalid' }),
  SG_ERR_PEER_MISSING: () => serveSwaggerUI(demoSpec(), { assets: 'local' }),
  SG_ERR_PEER_INCOMPATIBLE: () => serveRedoc(demoSpec(), { assets: 'local' }),
  SG_ERR_STREAM_STARTED: () => {
    const res = mockResponse()
    contextOf(res).stream = {} as never
    startStream(res, 'text/event-stream', 'sse')
  },
}

describe('the misuse registry', () => {
  it.each(Object.keys(misuseCodes) as MisuseCode[])(
    '%s is thrown, with its class and the message its docs entry shows',
    async (code) => {
      const error = await thrown(calls[code])
      const entry = misuseCodes[code]
      expect(error.constructor.name).toBe(entry.type)
      expect(error.code).toBe(code)
      expect(error.message).toBe(entry.example)
    },
  )

  it('reads every message as shapeguard: <where>: <what>', () => {
    for (const [code, entry] of Object.entries(misuseCodes)) {
      expect(entry.example, code).toMatch(/^shapeguard: [^:]+: \S/)
      expect(entry.title, code).toMatch(/^[a-z].*[^.]$/)
    }
  })

  it('names each code SG_ERR_ and documents it', () => {
    for (const [code, entry] of Object.entries(misuseCodes)) {
      expect(code).toMatch(/^SG_ERR_[A-Z_]+$/)
      expect(entry.cause.length, code).toBeGreaterThan(20)
      expect(entry.fix.length, code).toBeGreaterThan(10)
    }
  })
})

describe('the misuse errors of src/', () => {
  it('are made by optionError, each with a code of the registry', () => {
    const codes = Object.keys(misuseCodes)
    for (const [file, text] of sourceFiles()) {
      for (const call of text.matchAll(/\boptionError\(\s*([^,]*),/g)) {
        const code = call[1] ?? ''
        // A literal code, or a variable or wrapper's parameter typed MisuseCode.
        const ok =
          codes.includes(code.replaceAll("'", '')) || code === 'code' || code === 'code: MisuseCode'
        expect(ok, `${file}: optionError(${code}, …)`).toBe(true)
      }
    }
  })

  it('are thrown for every code of the registry, each somewhere in src/', () => {
    const sources = [...sourceFiles()]
      .filter(([file]) => file !== 'shared/misuse-codes.ts')
      .map(([, text]) => text)
      .join('\n')
    for (const code of Object.keys(misuseCodes)) {
      expect(sources.includes(`'${code}'`), `${code} is thrown nowhere in src/`).toBe(true)
    }
  })

  it('are the only errors src/ makes, but for its internal signals and the CLI', () => {
    // The IR traversal's invariant (a node kind no adapter makes); the compiler's signals, caught
    // where the schema falls back to its native parser; the CLI's own errors, which end in an exit
    // status; the fuzzer's report and its request timeout; the double of Express's headers-sent
    // error; the stream parsers' bound on a line, which the client and the fuzzer catch and
    // report; and stack probes (`new Error().stack`).
    const allowed = [
      'shared/event-stream.ts',
      // The client's two misuse TypeErrors, tagged with registry codes without the registry.
      'client/schemas.ts',
      'engine/ir/visit.ts',
      'engine/compile/builder.ts',
      'engine/compile/discriminator.ts',
      'engine/compile/validation-schema.ts',
      'engine/compile/leaf.ts',
      'engine/compile/compile.ts',
      'testing/fuzz/fuzz-routes.ts',
      'testing/fuzz/send-request.ts',
      'testing/doubles/mock-response.ts',
    ]
    const makers = [...sourceFiles()]
      .filter(([file]) => !file.startsWith('cli/') && !allowed.includes(file))
      .filter(([file]) => file !== 'shared/error-codes.ts')
      .filter(([, text]) => /new (Type|Range)?Error\((?!\))/.test(text))
      .map(([file]) => file)
    expect(makers).toEqual([])
  })
})
