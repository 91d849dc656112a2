import { EventEmitter } from 'node:events'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import pino from 'pino'
import { resetLogger } from '../src/runtime/logging/logger.js'
import { requestLogger } from '../src/runtime/logging/request-logger.js'
import type { LogStream } from '../src/runtime/logging/types.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what does logging every request in JSON cost, next to pino's own cost of one line?
// Target: (route with logging - same route without) <= 1.2 x (one pino line).
// Requests run in process (no sockets) so the difference is the logger's, not the network's.

// Ends as Node's ServerResponse does: 'finish', then 'close' with `writableFinished` set.
class FakeResponse extends EventEmitter {
  statusCode = 200
  body = ''
  headersSent = false
  writableFinished = false
  json(value: unknown): this {
    this.body = JSON.stringify(value)
    this.headersSent = true
    this.writableFinished = true
    this.emit('finish')
    this.emit('close')
    return this
  }
}

// Express keeps one route object per route; the request logger caches what it learns from it.
const usersRoute = { path: '/users/:id' }

function fakeRequest(): Request {
  return {
    method: 'GET',
    url: '/users/42',
    originalUrl: '/users/42',
    baseUrl: '',
    route: usersRoute,
    params: { id: '42' },
    id: 'req_0190a1b2c3d4e5f6a7b8c9d0',
  } as unknown as Request
}

// The guarded route: a params check and an enveloped answer.
const handler = (req: Request, res: Response) => {
  const id = Number(req.params.id)
  if (!Number.isInteger(id)) throw new Error('bad id')
  res.json({ success: true, message: '', data: { id, name: 'Ada' } })
}

function route(logging: RequestHandler | undefined): () => void {
  return () => {
    const req = fakeRequest()
    const res = new FakeResponse() as unknown as Response
    if (logging === undefined) handler(req, res)
    else logging(req, res, (() => handler(req, res)) as NextFunction)
  }
}

// The least any request logger does: time the request, build the record on 'finish', one line.
function minimalPinoLogger(log: pino.Logger): RequestHandler {
  const kStart = Symbol('start')
  function onFinish(this: Response & { [kStart]: number; req: Request }) {
    const req = this.req
    log.info({
      requestId: (req as { id?: string }).id,
      method: req.method,
      endpoint: req.route.path,
      status: this.statusCode,
      duration_ms: Math.round((performance.now() - this[kStart]) * 100) / 100,
    })
  }
  return (req, res, next) => {
    const r = res as Response & { [kStart]: number; req: Request }
    r[kStart] = performance.now()
    r.req = req
    res.on('finish', onFinish)
    next()
  }
}

const OFF = 'route, logging off'
const ON = 'route, JSON logging on (shapeguard, pino backend)'
const MINIMAL = 'route, minimal hand-written pino logger'
const LINE = 'one pino line alone (pino defaults)'

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

// The machines are shared and noisy: three rounds, the median ratio is the result.
async function run(label: string, destination: () => LogStream) {
  resetLogger()
  const logged = requestLogger({ pretty: false, level: 'info', logAllRequests: true }, false, {
    backend: 'pino',
    stream: destination(),
  })
  const plainPino = pino({ level: 'info' }, destination() as pino.DestinationStream)
  const minimal = minimalPinoLogger(plainPino)
  const record = {
    requestId: 'req_0190a1b2c3d4e5f6a7b8c9d0',
    method: 'GET',
    endpoint: '/users/:id',
    status: 200,
    duration_ms: 0.12,
  }
  const rounds = []
  for (let i = 0; i < 3; i++) {
    const result = await compare(
      `logging every request (${label}), round ${i + 1}`,
      OFF,
      {
        [OFF]: route(undefined),
        [ON]: route(logged),
        [MINIMAL]: route(minimal),
        [LINE]: () => plainPino.info(record),
      },
      { time: 500 },
    )
    printComparison(result)
    const ns = Object.fromEntries(result.cases.map((c) => [c.name, c.meanNs]))
    rounds.push({
      result,
      overLine: (ns[ON]! - ns[OFF]!) / ns[LINE]!,
      overMinimal: (ns[ON]! - ns[OFF]!) / (ns[MINIMAL]! - ns[OFF]!),
    })
  }
  const overLine = Number(median(rounds.map((r) => r.overLine)).toFixed(2))
  const overMinimal = Number(median(rounds.map((r) => r.overMinimal)).toFixed(2))
  process.stdout.write(
    `  ${label}: logging cost / one pino line = ${overLine} (target <= ${TARGET}: ${overLine <= TARGET ? 'met' : 'NOT met'}); / minimal pino logger's cost = ${overMinimal}\n`,
  )
  return {
    label,
    loggingCostOverPinoLine: overLine,
    targetOverPinoLine: TARGET,
    loggingCostOverMinimalLogger: overMinimal,
    rounds: rounds.map((r) => r.result),
  }
}

// The most logging may cost, in pino lines (the question above).
const TARGET = 1.2

const devNull = () => pino.destination({ dest: '/dev/null', sync: true }) as unknown as LogStream
const discard = () => ({ write: () => true })

writeResults(`logging-node${process.versions.node.split('.')[0]}`, [
  await run('writes to /dev/null, as a real process pays', devNull),
  await run('writes discarded, formatting only', discard),
])
resetLogger()
