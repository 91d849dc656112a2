import Joi from 'joi'
import request from 'supertest'
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { configureLogger, generateOpenAPI } from '../../src/index.js'
import { fuzzRoutes } from '../../src/testing/index.js'
import { hosts } from '../support/e2e.js'
import { readmeBlocks } from '../support/readme-blocks.js'
import { recipeExample } from './recipe-example.js'

// docs/recipes/joi.md: Joi 18 as a Standard Schema, on Express 4 and 5, and every difference the
// recipe lists, as it says.

const expected = readmeBlocks().find((b) => b.output === 'joi-422')?.code ?? ''

beforeAll(() => {
  configureLogger({ silent: true })
})

it('Joi 18 schemas implement Standard Schema', () => {
  expect('~standard' in Joi.string()).toBe(true)
  expect(Joi.string()['~standard'].vendor).toBe('joi')
  expect(Joi.object<{ id: number }>({})['~standard'].validate).toBeTypeOf('function')
  type Output = NonNullable<Joi.ObjectSchema<{ id: number }>['~standard']['types']>['output']
  expectTypeOf<Output>().toEqualTypeOf<{ id: number }>()
})

describe.each(hosts)('%s: the Joi recipe', (host) => {
  let app: Parameters<typeof request>[0]
  beforeAll(async () => {
    app = (await recipeExample<{ app: typeof app }>('joi', host, 'export { app }\n')).app
  })

  it('joi-422: answers every issue in the envelope, with the pattern message it was given', async () => {
    const res = await request(app).post('/people').send({ name: '', age: -1, team: 'abc' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(JSON.parse(expected))
    expect(JSON.stringify(res.body)).not.toContain('abc')
  })

  it('removes unknown keys, converts with Joi, strips the response', async () => {
    const res = await request(app).post('/people').send({ name: 'Ada', age: '36', admin: true })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ name: 'Ada', age: 36 })
    const one = await request(app).get('/people/5')
    expect(one.body.data).toEqual({ id: 5 })
    expect((await request(app).get('/people/0')).status).toBe(422)
  })

  it('without the prefs: the first issue only, unknown keys refused, the value quoted', async () => {
    const strict = Joi.object({
      name: Joi.string().min(1).required(),
      team: Joi.string().pattern(/^[A-Z]{3}$/),
    })
    const result = await strict['~standard'].validate({ name: '', team: 'abc', admin: true })
    expect(result.issues).toHaveLength(1)
    const unknown = await strict['~standard'].validate({ name: 'a', admin: true })
    expect(unknown.issues?.[0]?.message).toBe('"admin" is not allowed')
    const quoted = await strict['~standard'].validate({ name: 'a', team: 'abc' })
    expect(quoted.issues?.[0]?.message).toContain('with value "abc"')
  })

  it('is documented as any value, with a warning per schema', () => {
    const warnings: string[] = []
    const doc = generateOpenAPI({
      title: 'People',
      version: '1',
      app,
      onWarning: (w) => warnings.push(w),
    }) as { paths: Record<string, Record<string, Record<string, unknown>>> }
    const post = doc.paths['/people']?.post as {
      requestBody: { content: Record<string, { schema: unknown }> }
    }
    expect(post.requestBody.content['application/json']?.schema).toEqual({})
    const get = doc.paths['/people/{id}']?.get as { parameters: unknown[] }
    expect(get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ])
    expect(warnings).toContain(
      'shapeguard: POST /people body is a standard-schema schema shapeguard cannot read (wrap a valibot or yup schema in valibotAdapter() or yupAdapter() to document it); documented as any value',
    )
  })

  it('is skipped by the fuzzer, with the reason', async () => {
    const report = await fuzzRoutes(app, { runs: 1, phases: ['random'] })
    expect(report.skipped.some((s) => s.startsWith('POST /people: no valid requests'))).toBe(true)
  })
})
