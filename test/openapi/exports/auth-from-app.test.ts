import { describe, expect, it } from 'vitest'
import { configureLogger, handle, shapeguard } from '../../../src/index.js'
import { generateOpenAPI, toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'
import { hosts } from '../../support/e2e.js'

// The schemes of shapeguard({ auth }) reach every client export through the document made from
// the app: one declaration, enforced by the runtime and read by Postman, Insomnia and Bruno.

configureLogger({ silent: true })

type Any = Record<string, any>
const user = { id: 'u1' }
const auth = {
  bearer: { type: 'bearer', bearerFormat: 'JWT', verify: () => user },
  basic: () => user,
  headerKey: { in: 'header', name: 'X-API-Key', verify: () => user },
  queryKey: { in: 'query', name: 'api_key', verify: () => user },
  cookieKey: { in: 'cookie', name: 'sid', verify: () => user },
  oauth: {
    type: 'custom',
    verify: () => user,
    document: {
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://auth.example.com/authorize',
          tokenUrl: 'https://auth.example.com/token',
          scopes: {},
        },
      },
    },
  },
  oidc: {
    type: 'custom',
    verify: () => user,
    document: {
      type: 'openIdConnect',
      openIdConnectUrl: 'https://auth.example.com/.well-known/openid-configuration',
    },
  },
} as const

const routes = {
  withBearer: ['bearer'],
  withBasic: ['basic'],
  withHeaderKey: ['headerKey'],
  withQueryKey: ['queryKey'],
  withCookieKey: ['cookieKey'],
  withOAuth: ['oauth'],
  withOpenIdConnect: ['oidc'],
  isPublic: [],
} as const

describe.each(hosts)('%s: auth from shapeguard({ auth }) in the exports', (_, express) => {
  const app = express()
  app.use(shapeguard({ auth, defaultSecurity: ['bearer'] }))
  for (const [operationId, security] of Object.entries(routes))
    app.get(`/${operationId}`, ...handle({ operationId, security }, (_req, res) => res.ok({})))
  app.get('/byDefault', ...handle({ operationId: 'byDefault' }, (_req, res) => res.ok({})))
  const doc = generateOpenAPI({
    title: 'Auth',
    version: '1.0.0',
    servers: [{ url: 'https://api.example.com' }],
    app,
  })

  it('documents every scheme of auth, and each route with its own security or the default', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basic: { type: 'http', scheme: 'basic' },
      headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'sid' },
      oauth: auth.oauth.document,
      oidc: auth.oidc.document,
    })
    const op = (path: string) => (doc.paths[path] as Any).get
    expect(op('/byDefault').security).toEqual([{ bearer: [] }])
    expect(op('/isPublic').security).toEqual([])
    expect(op('/withCookieKey').security).toEqual([{ cookieKey: [] }])
  })

  it('gives Postman the auth of each scheme', () => {
    const exported = toPostman(doc)
    const byName = new Map(
      exported.item
        .flatMap((f) => ('item' in f ? f.item : [f]))
        .map((i) => [i.name, 'request' in i ? (i.request.auth as Any) : undefined]),
    )
    expect(byName.get('withBearer')).toMatchObject({ type: 'bearer' })
    expect(byName.get('byDefault')).toMatchObject({ type: 'bearer' })
    expect(byName.get('withBasic')).toMatchObject({ type: 'basic' })
    expect(byName.get('withHeaderKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'X-API-Key' }, { value: '{{headerKey}}' }, { value: 'header' }],
    })
    expect(byName.get('withQueryKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'api_key' }, { value: '{{queryKey}}' }, { value: 'query' }],
    })
    expect(byName.get('withCookieKey')).toMatchObject({
      type: 'apikey',
      apikey: [{ value: 'Cookie' }, { value: 'sid={{cookieKey}}' }, { value: 'header' }],
    })
    expect(byName.get('withOAuth')).toMatchObject({ type: 'oauth2' })
    expect(byName.get('withOpenIdConnect')).toMatchObject({ type: 'bearer' })
    expect(byName.get('isPublic')).toEqual({ type: 'noauth' })
  })

  it('gives Insomnia the auth of each scheme', () => {
    const exported = toInsomnia(doc)
    const byName = new Map(exported.resources.map((r) => [r.name, r as Any]))
    expect(byName.get('withBearer')!.authentication).toMatchObject({ type: 'bearer' })
    expect(byName.get('withBasic')!.authentication).toMatchObject({ type: 'basic' })
    // Insomnia's own import sends an API key as a header, a query parameter or a cookie.
    expect(byName.get('withHeaderKey')!.headers).toContainEqual({
      name: 'X-API-Key',
      value: '{{ _.headerKey }}',
      disabled: false,
    })
    expect(byName.get('withQueryKey')!.parameters).toContainEqual(
      expect.objectContaining({ name: 'api_key', value: '{{ _.queryKey }}' }),
    )
    expect(byName.get('withCookieKey')!.headers).toContainEqual({
      name: 'Cookie',
      value: 'sid={{ _.cookieKey }}',
      disabled: false,
    })
    expect(byName.get('withOAuth')!.authentication).toMatchObject({ type: 'oauth2' })
    expect(byName.get('isPublic')!.authentication).toEqual({})
  })

  it('gives Bruno the auth of each scheme', () => {
    const exported = toBruno(doc)
    const items: Any[] = []
    const walk = (list: Any[]) => {
      for (const item of list) item.items ? walk(item.items) : items.push(item)
    }
    walk(exported.items as Any[])
    const byName = new Map(items.map((item) => [item.name, item.request.auth]))
    expect(byName.get('withBearer')).toMatchObject({ mode: 'bearer' })
    expect(byName.get('withBasic')).toMatchObject({ mode: 'basic' })
    expect(byName.get('withHeaderKey')).toMatchObject({
      mode: 'apikey',
      apikey: { key: 'X-API-Key', placement: 'header' },
    })
    expect(byName.get('withQueryKey')).toMatchObject({
      mode: 'apikey',
      apikey: { key: 'api_key', placement: 'queryparams' },
    })
    expect(byName.get('withCookieKey')).toMatchObject({
      mode: 'apikey',
      apikey: { key: 'Cookie', value: 'sid={{cookieKey}}', placement: 'header' },
    })
    expect(byName.get('withOAuth')).toMatchObject({ mode: 'oauth2' })
    expect(byName.get('withOpenIdConnect')).toEqual({
      mode: 'bearer',
      bearer: { token: '{{oidcToken}}' },
    })
    expect(byName.get('isPublic')).toEqual({ mode: 'none' })
  })
})
