import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { inMemoryHost } from '../../support/ts-host.js'

// `req.auth` takes the principal types of the app's verifiers through `Register`. An augmentation
// of `Register` in a file of the project's own program would type every other test, so this
// program is built apart, in memory.

const root = resolve(import.meta.dirname, '../../..')
const fixture = resolve(import.meta.dirname, 'auth-types.fixture.ts')

const source = `import { type AuthConfig, handle } from 'shapeguard'

const auth = {
  bearer: (token: string) => (token === 't' ? { userId: 'u1' } : undefined),
  apiKey: {
    in: 'header',
    name: 'x-api-key',
    verify: async (key: string) => (key === 'k' ? { client: 'c1' } : null),
  },
  session: {
    type: 'custom',
    document: { type: 'apiKey', in: 'cookie', name: 'sid' },
    verify: (): { sid: string } | false => ({ sid: 's1' }),
  },
} satisfies AuthConfig

declare module 'shapeguard' {
  interface Register {
    auth: typeof auth
  }
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const yes = true as const

handle({ security: ['bearer'] }, (req) => {
  const exact: Equal<typeof req.auth, { userId: string }> = yes
  // @ts-expect-error the bearer principal has no client
  req.auth.client
})

handle({ security: ['bearer', 'apiKey'] }, (req) => {
  const exact: Equal<typeof req.auth, { userId: string } | { client: string }> = yes
})

handle({ security: [['apiKey', 'session']] }, (req) => {
  const client: string = req.auth.apiKey.client
  const sid: string = req.auth.session.sid
  // @ts-expect-error not a scheme of the combination
  req.auth.bearer
})

handle({ security: [] }, (req) => {
  const exact: Equal<typeof req.auth, undefined> = yes
})

// @ts-expect-error not a scheme of the registered auth
handle({ security: ['admin'] }, () => undefined)
`

function diagnostics(): string[] {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const host = inMemoryHost(options, new Map([[fixture, source]]))
  const program = ts.createProgram([fixture], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('req.auth through Register', () => {
  it('is the principal of one name, of alternatives, of a combination, undefined on []; an unknown name is a type error', () => {
    expect(diagnostics()).toEqual([])
  }, 120_000)
})
