import { describe, expect, it } from 'vitest'
import { configureLogger, handle, shapeguard } from '../../../src/index.js'
import { generateOpenAPI } from '../../../src/openapi/index.js'
import { hosts } from '../../support/e2e.js'
import { misuse } from '../../support/misuse.js'

// The document's schemes are the ones shapeguard({ auth }) enforces: read from the app, or given
// as the same object; never declared a second time.

configureLogger({ silent: true })

type Any = Record<string, any>
const user = { id: 1 }
const auth = {
  bearer: (token: string) => (token === 't' ? user : undefined),
  apiKey: { in: 'header', name: 'X-API-Key', verify: () => user },
} as const
const base = { title: 'T', version: '1' }

describe('generateOpenAPI security', () => {
  it('refuses the old security option, saying schemes are declared in shapeguard({ auth })', () => {
    expect(() =>
      generateOpenAPI({
        ...base,
        routes: {},
        security: { bearer: { type: 'http', scheme: 'bearer' } },
      } as never),
    ).toThrow(
      misuse(
        'SG_ERR_MISPLACED_OPTION',
        'shapeguard: generateOpenAPI(): security is not an option: security schemes are declared once, with their verifiers, in shapeguard({ auth }); generateOpenAPI() takes { app } (whose shapeguard() gives them) or { auth, defaultSecurity }',
      ),
    )
  })

  it('documents the schemes of auth given to it, alternatives and combinations', () => {
    const doc = generateOpenAPI({
      ...base,
      auth,
      defaultSecurity: ['bearer'],
      routes: {
        'GET /either': { security: ['bearer', 'apiKey'] },
        'GET /both': { security: [['bearer', 'apiKey']] },
        'GET /default': {},
      },
    })
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    })
    const op = (path: string) => (doc.paths[path] as Any).get
    expect(op('/either').security).toEqual([{ bearer: [] }, { apiKey: [] }])
    expect(op('/both').security).toEqual([{ bearer: [], apiKey: [] }])
    expect(op('/default').security).toEqual([{ bearer: [] }])
    const unauthorized = doc.components.responses!.Unauthorized as Any
    expect(Object.keys(unauthorized.headers)).toEqual(['WWW-Authenticate'])
  })

  it('checks auth as shapeguard() does', () => {
    expect(() =>
      generateOpenAPI({ ...base, routes: {}, auth: { key: () => user } as never }),
    ).toThrow(
      /shapeguard: generateOpenAPI\(\): auth\.key: a verifier alone is the bearer or basic scheme's/,
    )
  })

  it('refuses a route or defaultSecurity naming a scheme auth does not declare', () => {
    expect(() =>
      generateOpenAPI({ ...base, auth, routes: { 'GET /x': { security: ['session'] } } }),
    ).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_NAME',
        'shapeguard: generateOpenAPI(): routes["GET /x"].security: "session" is not a scheme of auth (bearer, apiKey)',
      ),
    )
    expect(() => generateOpenAPI({ ...base, routes: {}, defaultSecurity: ['bearer'] })).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_NAME',
        'shapeguard: generateOpenAPI(): defaultSecurity: "bearer" is not a scheme of auth (none declared)',
      ),
    )
  })
})

describe.each(hosts)('%s: generateOpenAPI({ app }) security', (_, express) => {
  const appOf = () => {
    const app = express()
    app.use(shapeguard({ auth, defaultSecurity: ['apiKey'] }))
    app.get('/me', ...handle({}, (_req, res) => res.ok({})))
    app.get('/open', ...handle({ security: [] }, (_req, res) => res.ok({})))
    return app
  }

  it("reads the schemes and the default from the app's shapeguard()", () => {
    const warnings: string[] = []
    const doc = generateOpenAPI({ ...base, app: appOf(), onWarning: (m) => warnings.push(m) })
    expect(warnings).toEqual([])
    expect(Object.keys(doc.components.securitySchemes!)).toEqual(['bearer', 'apiKey'])
    expect((doc.paths['/me'] as Any).get.security).toEqual([{ apiKey: [] }])
    expect(Object.keys((doc.paths['/me'] as Any).get.responses)).toContain('401')
    expect((doc.paths['/open'] as Any).get.security).toEqual([])
  })

  it('lets explicit auth and defaultSecurity win, with a warning when they differ', () => {
    const warnings: string[] = []
    const doc = generateOpenAPI({
      ...base,
      app: appOf(),
      auth: { bearer: auth.bearer },
      defaultSecurity: ['bearer'],
      onWarning: (m) => warnings.push(m),
    })
    expect(Object.keys(doc.components.securitySchemes!)).toEqual(['bearer'])
    expect((doc.paths['/me'] as Any).get.security).toEqual([{ bearer: [] }])
    expect(warnings).toEqual([
      'shapeguard: generateOpenAPI app: its shapeguard() declares other auth schemes than the document describes, as auth says',
      'shapeguard: generateOpenAPI app: its shapeguard() has another defaultSecurity than the document describes, as defaultSecurity says',
    ])
    const same: string[] = []
    generateOpenAPI({ ...base, app: appOf(), auth, onWarning: (m) => same.push(m) })
    expect(same).toEqual([])
  })

  it('refuses a route whose security names a scheme the app does not declare', () => {
    const app = express()
    app.use(shapeguard())
    app.get('/me', ...handle({ security: ['bearer'] }, (_req, res) => res.ok({})))
    expect(() => generateOpenAPI({ ...base, app })).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_NAME',
        'shapeguard: generateOpenAPI(): GET /me.security: "bearer" is not a scheme of auth (none declared)',
      ),
    )
  })
})
