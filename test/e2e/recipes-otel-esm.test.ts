import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { root } from '../support/readme-blocks.js'
import { markedBlock } from '../support/readme-example.js'

// docs/recipes/opentelemetry-esm.md, run as a user runs it: an ESM app (`import express`, the
// built shapeguard) in a child process started with `node --import ./instrumentation.mjs`, the
// recipe's file as it is but for one change: spans go to the console at once (a simple processor)
// rather than in batches, so that the test reads them before the process ends.

const run = promisify(execFile)
const dir = join(root, '.tmp/otel-esm')

const server = `import express from 'express'
import * as z from 'zod'
import { errorHandler, handle, shapeguard } from 'shapeguard'

const app = express()
app.use(shapeguard({ debug: false }))
app.use(express.json())
app.post('/users', ...handle({ body: z.object({ name: z.string().min(1) }), response: z.object({ name: z.string() }) },
  (req, res) => res.created({ data: req.body })))
app.use(errorHandler())
const listener = app.listen(0, '127.0.0.1', async () => {
  await fetch('http://127.0.0.1:' + listener.address().port + '/users', {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    body: '{"name":""}',
  })
  listener.close()
})
`

/** The recipe's file, with the simple processor; `variant` changes how the hook is registered. */
function instrumentation(variant: 'hook' | 'sync' | 'none'): string {
  let code = markedBlock('example', 'otel-esm')
    .code.replaceAll('BatchSpanProcessor', 'SimpleSpanProcessor')
    .replace(/^\/\/ instrumentation\.ts.*\n/, '')
  if (variant === 'sync') {
    code = code
      .replace(
        "import { register } from 'node:module'",
        "import { register } from 'import-in-the-middle/register-hooks.mjs'",
      )
      .replace(/^register\(.*\)$/m, 'register()')
  }
  if (variant === 'none')
    code = code.replace(/^import \{ register \}.*\n/m, '').replace(/^register\(.*\)$/m, '')
  return code
}

async function start(variant: 'hook' | 'sync' | 'none') {
  const file = `instrumentation-${variant}.mjs`
  writeFileSync(join(dir, file), instrumentation(variant))
  const { stdout } = await run(process.execPath, ['--import', `./${file}`, 'server.mjs'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', NODE_OPTIONS: '' },
  })
  // The console exporter prints each span as an object: its own name is indented two spaces.
  const spans = [...stdout.matchAll(/^ {2}name: '([^']+)'/gm)].map((m) => m[1])
  const line = stdout.split('\n').find((l) => l.startsWith('{') && l.includes('"status":422'))
  return { spans, line: line === undefined ? undefined : JSON.parse(line) }
}

describe('the OpenTelemetry ESM recipe', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.js'))) {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
    }
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(join(dir, 'node_modules'), { recursive: true })
    // shapeguard as installed (its build); the rest from the checkout's node_modules.
    symlinkSync(root, join(dir, 'node_modules/shapeguard'), 'dir')
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
    writeFileSync(join(dir, 'server.mjs'), server)
  }, 300_000)

  afterAll(() => {
    if (process.env.KEEP !== '1') rmSync(dir, { recursive: true, force: true })
  })

  it.each(['hook', 'sync'] as const)(
    'with the %s registration, gives the Express spans and the trace on the log line',
    async (variant) => {
      const { spans, line } = await start(variant)
      expect(spans.sort()).toEqual([
        'POST /users',
        'middleware - jsonParser',
        'middleware - shapeguard',
        'request handler',
      ])
      expect(line).toMatchObject({
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
        code: 'VALIDATION_ERROR',
      })
    },
    60_000,
  )

  it('without the hook, gives the HTTP span alone', async () => {
    const { spans, line } = await start('none')
    expect(spans).toEqual(['POST /users'])
    expect(line).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' })
  }, 60_000)
})
