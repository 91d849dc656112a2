import { createServer, type Server } from 'node:net'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'

// How the command finds the app in a module, and what it says when it cannot.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

describe.each(hosts)('a module that calls listen() when imported, on %s', (_, host) => {
  let taken: Server
  let port = 0

  beforeAll(async () => {
    // The port the module asks for is in use: a real listen() on it would fail.
    taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    port = (taken.address() as { port: number }).port
  })

  afterAll(() => {
    taken.close()
  })

  it('keeps the server off its port and out of stdout, says where and how to fix it, and ends', () => {
    const file = onHost('listen.mjs', host)
    const run = shapeguard(['openapi', 'listen.mjs'], {
      cwd: dirname(file),
      env: { PORT: String(port) },
      timeout: 20_000,
    })
    expect(run.status).toBe(0)
    // What the module prints goes to stderr: stdout holds the document alone.
    expect(Object.keys(JSON.parse(run.stdout).paths)).toEqual(['/ping'])
    expect(run.stderr).toMatch(/^connecting to the database\n/)
    expect(run.stderr).toContain(`warning: listen.mjs:17 calls listen() as the module is loaded.`)
    expect(run.stderr).toContain('if (import.meta.main) app.listen(3000)')
    expect(run.stderr).toContain('if (require.main === module) app.listen(3000)')
  })
})

describe('finding the app', () => {
  it('takes a function of no arguments as a factory: the default export, or the one --export names', () => {
    const byDefault = shapeguard(['openapi', 'factory.mjs'])
    expect([byDefault.status, byDefault.stderr]).toEqual([0, ''])
    expect(Object.keys(JSON.parse(byDefault.stdout).paths)).toEqual(['/ping'])
    const named = shapeguard(['openapi', 'factory.mjs', '--export', 'makeApp'])
    expect(named.stdout).toBe(byDefault.stdout)
  })

  it('says so when a factory returns something else', () => {
    const run = shapeguard(['openapi', 'factory.mjs', '--export', 'notAFactory'])
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      'shapeguard: factory.mjs: its export notAFactory is a function, and notAFactory() returned number, not an Express app. Export the app itself, or a function that returns it.\n',
    )
  })

  it('lists what a module without an app exports, and how to export the app', () => {
    const run = shapeguard(['openapi', 'no-app.mjs'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      'shapeguard: no-app.mjs exports no Express app as its default export or as `app`; it exports default (object), routes (object), default.name (string).\n' +
        'Export the app (`export default app`, `export const app`, `module.exports = app`), or name its export with --export <name>.\n',
    )
  })

  it('names the export --export asked for when it is not there', () => {
    const run = shapeguard(['fuzz', 'formats/app.mjs', '--export', 'server'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^shapeguard: formats\/app\.mjs exports no Express app under the name server \(--export\)/,
    )
  })

  it('names a missing file and the folder paths are relative to', () => {
    const run = shapeguard(['check', 'nowhere/app.mjs'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^shapeguard: nowhere\/app\.mjs: no such file \(paths are relative to .*fixtures\)\n$/,
    )
  })

  it('says so, naming the module, when it never finishes loading', () => {
    const run = shapeguard(['openapi', 'hangs.mjs'], { timeout: 20_000 })
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /^shapeguard: hangs\.mjs never finished loading: it awaits something/,
    )
  })

  it('shows the error of a module that throws while it loads, with its stack', () => {
    const run = shapeguard(['postman', 'throws.mjs'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^shapeguard: throws\.mjs threw while it was loaded:\nError: DATABASE_URL is not set\n\s+at .*throws\.mjs:3/,
    )
  })

  it.each(['0', '1'])(
    'answers exit status 2 for a module that calls process.exit(%s) while it loads',
    (code) => {
      const run = shapeguard(['openapi', 'exits.mjs', '--out', 'never-written.json'], {
        env: { SHAPEGUARD_FIXTURE_EXIT: code },
      })
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain(
        `shapeguard: exits.mjs called process.exit(${code}) while it was loaded: shapeguard needs the module to build the app without exiting`,
      )
    },
  )

  it('answers exit status 2 when the module throws from a timer while it loads', () => {
    const run = shapeguard(['openapi', 'late-throw.mjs'])
    expect(run.status).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      /shapeguard: the app's module threw outside the command \(exit status 2\):\nError: connection refused\n\s+at .*late-throw\.mjs:5/,
    )
  })

  it('tells how to run a TypeScript module where Node does not strip types', () => {
    const run = shapeguard(['openapi', 'formats/app.ts'], {
      env: { NODE_OPTIONS: '--no-experimental-strip-types' },
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(
      `formats/app.ts: this Node.js (${process.version}) does not load TypeScript by itself; Node 22.18+ and 23.6+ strip types by default. On an older Node 22, run it with NODE_OPTIONS='--experimental-strip-types' npx shapeguard …`,
    )
  })

  it('says how to load a TypeScript module that imports a .ts file as .js', () => {
    const run = shapeguard(['openapi', 'ts-imports/app.ts'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(
      /^shapeguard: ts-imports\/app\.ts imports \/.*\/ts-imports\/users\.js, which is a \.ts file: Node's type stripping does not map \.js imports to \.ts files\. Import it as \.ts \(TypeScript 5\.7\+: rewriteRelativeImportExtensions\), or load the module through tsx: NODE_OPTIONS='--import tsx' npx shapeguard …\n$/,
    )
  })

  it('loads it through tsx, as the message says', () => {
    const run = shapeguard(['openapi', 'ts-imports/app.ts'], {
      env: { NODE_OPTIONS: '--import tsx' },
    })
    expect(run.status).toBe(0)
    expect(Object.keys(JSON.parse(run.stdout).paths)).toEqual(['/users'])
  })

  it("documents the app with the module's openapi export (title, version) and its shapeguard({ auth })", () => {
    const doc = JSON.parse(shapeguard(['openapi', 'secured.mjs']).stdout)
    expect(doc.info).toEqual({ title: 'Secured', version: '3.0.0' })
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } })
    expect(doc.paths['/me'].get.security).toEqual([{ bearer: [] }])
  })

  it('takes the title and version from the flags first', () => {
    const args = ['openapi', 'secured.mjs', '--title', 'Mine', '--api-version', '9']
    expect(JSON.parse(shapeguard(args).stdout).info).toEqual({ title: 'Mine', version: '9' })
  })

  it('refuses an openapi export that is not an object', () => {
    const run = shapeguard(['openapi', 'secured.mjs'], { env: { OPENAPI_CONFIG: '"Secured"' } })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      "shapeguard: secured.mjs: its export openapi must be generateOpenAPI()'s configuration (an object), not string\n",
    )
  })

  it('says where the security schemes go when a route names one the app does not declare', () => {
    const run = shapeguard(['openapi', 'secured.mjs'], { env: { NO_AUTH: '1' } })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(
      'shapeguard: secured.mjs: generateOpenAPI() cannot document the app: generateOpenAPI(): GET /me.security: "bearer" is not a scheme of auth (none declared)\n' +
        "Security schemes are declared with their verifiers in the app's shapeguard({ auth }); servers, tags and the other document options go in the module's openapi export.\n",
    )
  })
})
