import { readFileSync } from 'node:fs'
import express from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import * as yup from 'yup'
import { z } from 'zod'
import {
  firstSentence,
  type OptionRow,
  optionsReference,
  outputPath,
  type Reference,
} from '../../scripts/options-reference.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import { redisStore } from '../../src/adapters-redis.js'
import {
  configureLogger,
  createDocs,
  createRouter,
  defineRoute,
  errorHandler,
  generateOpenAPI,
  handle,
  notFoundHandler,
  shapeguard,
  validate,
  verifyWebhook,
} from '../../src/index.js'
import {
  serveDocs,
  serveRedoc,
  serveScalar,
  serveSwaggerUI,
  toBruno,
  toInsomnia,
  toPostman,
} from '../../src/openapi/index.js'
import { arbitrary, fuzzRoutes, mockRequest, mockResponse } from '../../src/testing/index.js'

// docs/options.md is generated from the types (scripts/options-reference.ts): it must be what the
// generator writes now, describe every option, cover every function that takes options, and list
// the keys the runtime itself accepts.

let reference: Reference
beforeAll(() => {
  reference = optionsReference()
}, 120_000)

const committed = () => readFileSync(outputPath, 'utf8')

/** The rows of a function's section (of one variant, for a union), at one level of nesting. */
function keysOf(fn: string, prefix = '', variant?: string): string[] {
  const section = reference.sections.find((s) => s.functions.includes(fn))
  const table = section?.tables.find((t) => t.variant === variant)
  expect(table, `a table for ${fn}() ${variant ?? ''}`).toBeDefined()
  return (table?.rows ?? [])
    .map((r) => r.name)
    .filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('.'))
    .map((name) => name.slice(prefix.length))
    .sort()
}

const probe = 'optionsReferenceProbe'

/** The valid keys an unknown key's TypeError lists: `… is not an option (a, b, c)`. */
async function acceptedKeys(call: () => unknown): Promise<string[]> {
  let message: string | undefined
  try {
    await call()
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError)
    message = (err as Error).message
  }
  expect(message, 'an unknown key throws').toBeDefined()
  expect(message).toContain(probe)
  const list = /\(([^()]*)\)$/.exec(message ?? '')?.[1]
  expect(list, `a list of the valid keys in: ${message}`).toBeDefined()
  return (list ?? '').split(', ').sort()
}

const spec = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }
const ok = () => {}

describe('docs/options.md', () => {
  it('is what `npm run docs:options` generates from the current types', () => {
    expect(committed(), 'docs/options.md is stale: run npm run docs:options').toBe(
      reference.markdown,
    )
  })

  it('describes every option it lists', () => {
    const undescribed = reference.sections.flatMap((s) =>
      s.tables.flatMap((t) =>
        t.rows
          .filter((r: OptionRow) => r.description === '')
          .map((r) => `${s.functions[0]}()${t.variant ? ` ${t.variant}` : ''}: ${r.name}`),
      ),
    )
    expect(undescribed, 'options without a JSDoc description').toEqual([])
  })

  it('has a section for every function of issue 35 that takes options', () => {
    const headings = committed()
      .split('\n')
      .filter((line) => line.startsWith('## '))
    const missing = [
      'shapeguard',
      'handle',
      'validate',
      'defineRoute',
      'errorHandler',
      'notFoundHandler',
      'createRouter',
      'configureLogger',
      'verifyWebhook',
      'redisStore',
      'generateOpenAPI',
      'createDocs',
      'serveDocs',
      'serveScalar',
      'serveSwaggerUI',
      'serveRedoc',
      'toPostman',
      'toInsomnia',
      'toBruno',
      'arbitrary',
      'fuzzRoutes',
      'mockRequest',
      'mockResponse',
    ].filter((fn) => !headings.some((h) => h.includes(`\`${fn}()\``)))
    expect(missing).toEqual([])
  })

  it('has a section for every exported function with an …Options or …Config parameter', () => {
    const documented = reference.sections.flatMap((s) => s.functions)
    expect(reference.optionTakers.length).toBeGreaterThan(10)
    expect(reference.optionTakers.filter((fn) => !documented.includes(fn))).toEqual([])
  })

  it('takes the first sentence of a comment, past abbreviations and code', () => {
    expect(firstSentence('Seconds (e.g. `1.5`). More.')).toBe('Seconds (e.g. `1.5`).')
    expect(firstSentence('No full stop')).toBe('No full stop')
  })
})

describe('the options it lists are the ones the runtime accepts', () => {
  const app = () => express()
  // Never called: the options are checked before the client is used.
  const redisClient = { call: async () => null }
  const cases: [fn: string, prefix: string, call: () => unknown][] = [
    ['shapeguard', '', () => shapeguard({ [probe]: 1 } as never)],
    ['shapeguard', 'logger.', () => shapeguard({ logger: { [probe]: 1 } as never })],
    ['shapeguard', 'requestId.', () => shapeguard({ requestId: { [probe]: 1 } as never })],
    ['shapeguard', 'validation.', () => shapeguard({ validation: { [probe]: 1 } as never })],
    [
      'shapeguard',
      'validation.strings.',
      () => shapeguard({ validation: { strings: { [probe]: 1 } as never } }),
    ],
    [
      'shapeguard',
      'validation.limits.',
      () => shapeguard({ validation: { limits: { [probe]: 1 } as never } }),
    ],
    ['shapeguard', 'response.', () => shapeguard({ response: { [probe]: 1 } as never })],
    ['shapeguard', 'errors.', () => shapeguard({ errors: { [probe]: 1 } as never })],
    ['handle', '', () => handle({ [probe]: 1 } as never, ok)],
    ['validate', '', () => validate({ [probe]: 1 } as never)],
    ['defineRoute', '', () => defineRoute({ [probe]: 1 } as never)],
    [
      'handle',
      'rateLimit.',
      () => handle({ rateLimit: { windowMs: 1000, max: 1, [probe]: 1 } as never }, ok),
    ],
    ['handle', 'cache.', () => handle({ cache: { [probe]: 1 } as never }, ok)],
    ['handle', 'limits.', () => handle({ limits: { [probe]: 1 } as never }, ok)],
    ['handle', 'sanitize.', () => handle({ sanitize: { [probe]: 1 } as never }, ok)],
    ['errorHandler', '', () => errorHandler({ [probe]: 1 } as never)],
    ['notFoundHandler', '', () => notFoundHandler({ [probe]: 1 } as never)],
    ['createRouter', '', () => createRouter({ [probe]: 1 } as never)],
    ['configureLogger', '', () => configureLogger({ [probe]: 1 } as never)],
    [
      'generateOpenAPI',
      '',
      () => generateOpenAPI({ title: 't', version: '1', routes: {}, [probe]: 1 } as never),
    ],
    [
      'generateOpenAPI',
      'response.',
      () =>
        generateOpenAPI({
          title: 't',
          version: '1',
          routes: {},
          response: { [probe]: 1 } as never,
        }),
    ],
    ['createDocs', '', () => createDocs({ spec, [probe]: 1 } as never)],
    [
      'createDocs',
      'logo.',
      () => createDocs({ spec, logo: { url: 'https://example.com/l.png', [probe]: 1 } as never }),
    ],
    ['serveDocs', '', () => serveDocs(spec, { [probe]: 1 } as never)],
    ['serveDocs', 'exports.', () => serveDocs(spec, { exports: { [probe]: '/x' } as never })],
    ['serveScalar', '', () => serveScalar(spec, { [probe]: 1 } as never)],
    ['serveRedoc', '', () => serveRedoc(spec, { [probe]: 1 } as never)],
    ['serveSwaggerUI', '', () => serveSwaggerUI(spec, { [probe]: 1 } as never)],
    ['toPostman', '', () => toPostman(spec, { [probe]: 'x' } as never)],
    ['toInsomnia', '', () => toInsomnia(spec, { [probe]: 'x' } as never)],
    ['toBruno', '', () => toBruno(spec, { [probe]: 'x' } as never)],
    ['arbitrary', '', () => arbitrary(z.string(), { [probe]: 1 } as never)],
    ['fuzzRoutes', '', () => fuzzRoutes(app(), { [probe]: 1 } as never)],
    ['mockRequest', '', () => mockRequest({ [probe]: 1 } as never)],
    ['mockResponse', '', () => mockResponse({ [probe]: 1 } as never)],
    ['redisStore', '', () => redisStore({ client: redisClient, [probe]: 1 } as never)],
    ['yupAdapter', '', () => yupAdapter(yup.string(), { [probe]: 1 } as never)],
  ]

  it.each(cases)('%s() %s', async (fn, prefix, call) => {
    expect(await acceptedKeys(call)).toEqual(keysOf(fn, prefix))
  })

  it('verifyWebhook(): each variant, for each of its providers', async () => {
    const section = reference.sections.find((s) => s.functions.includes('verifyWebhook'))
    expect(section?.tables.length).toBeGreaterThan(1)
    for (const table of section?.tables ?? []) {
      const provider = table.rows.find((r) => r.name === 'provider')?.type ?? ''
      const providers = [...provider.matchAll(/'([^']+)'/g)].map((m) => m[1])
      const options = (p: string | undefined) =>
        p === undefined
          ? { headerName: 'x-signature', secret: 's', [probe]: 1 }
          : { provider: p, secret: 'whsec_c2VjcmV0', [probe]: 1 }
      for (const p of providers.length > 0 ? providers : [undefined]) {
        const keys = await acceptedKeys(() => verifyWebhook(options(p) as never))
        expect(keys, `${table.variant} (${p ?? 'custom'})`).toEqual(
          keysOf('verifyWebhook', '', table.variant),
        )
      }
    }
  })
})
