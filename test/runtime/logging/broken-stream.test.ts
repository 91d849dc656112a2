import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SERVER = resolve(import.meta.dirname, 'fixtures/broken-stdout-server.ts')

interface Outcome {
  served: number | undefined
  requests: number | undefined
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
}

// The child logs to a stdout pipe whose read end this process closes once the child listens.
function serveWithClosedStdout(backend: string, mode: string, host: string): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER, backend, mode, host], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, NODE_ENV: 'development', NO_COLOR: '1' },
    })
    let stderr = ''
    const outcome: Partial<Outcome> = {}
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.on('message', (message: { ready?: boolean; served?: number; requests?: number }) => {
      if (message.ready) {
        child.stdout?.destroy()
        child.send('go')
      } else {
        outcome.served = message.served
        outcome.requests = message.requests
      }
    })
    child.on('close', (code, signal) => {
      done({ served: outcome.served, requests: outcome.requests, code, signal, stderr })
    })
  })
}

describe('a closed log stream', () => {
  it.each(
    [
      ['console', 'json'],
      ['console', 'pretty'],
      ['pino', 'json'],
      ['pino', 'pretty'],
      ['winston', 'json'],
      ['winston', 'pretty'],
      // A user's winston logger as logger.instance, writing to stdout itself: it survives too.
      ['winston-console', 'json'],
      ['winston-stream', 'json'],
      // The global console as logger.instance, on both hosts.
      ['console-instance', 'json'],
      ['console-instance', 'json', 'express4'],
    ].map(([backend, mode, host]) => [backend!, mode!, host ?? 'express5'] as const),
  )(
    'never kills the process or stops requests (%s, %s, %s)',
    async (backend, mode, host) => {
      const outcome = await serveWithClosedStdout(backend, mode, host)
      expect(outcome.stderr).not.toMatch(/EPIPE|Error/)
      expect(outcome).toMatchObject({ served: 20, requests: 20, code: 0, signal: null })
    },
    30_000,
  )
})
