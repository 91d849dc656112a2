import { availableParallelism, loadavg } from 'node:os'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { describe, expect, it } from 'vitest'
import { type ChildServer, startChild } from '../../bench/fixtures/child-server.js'
import { figure } from '../support/streams.js'

// A server process whose event loop is blocked in bursts (200 ms of synchronous work every
// 300 ms, seven times) while autocannon, from this process, sends it as many requests as it can
// up to 10,000 a second. Past `maxEventLoopDelayMs` it sheds: each refusal leaves within 5 ms of
// the server reading its request (measured in the server), it serves 200s again once the bursts
// stop, and it never crashes. Figures are printed with STREAM_FIGURES=1.

const SERVER = resolve(import.meta.dirname, 'fixtures/overload-server.ts')
const MAX_DELAY_MS = 100
const BURSTS = { count: 7, blockMs: 200, periodMs: 300 }
const SECONDS = 5
const BURSTS_AT_MS = 1000

interface Stats {
  statuses: Record<string, number>
  counts: { warnStarted: number; warnStopped: number; refusedLines: number; otherErrors: number }
  blockedMs: number
  shed: { count: number; p50: number; p99: number; max: number }
}

interface Answer {
  at: number
  status: number
  ms: number
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

function fixed(n: number): string {
  return n.toFixed(2)
}

function burstsDone(server: ChildServer, ms: number): Promise<number> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the bursts did not end')), ms)
    server.child.on('message', (m: { burstsDone?: boolean }) => {
      if (m.burstsDone !== true) return
      clearTimeout(timer)
      done(performance.now())
    })
  })
}

function load(port: number, seconds: number, answers: Answer[]): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    const options = {
      url: `http://127.0.0.1:${port}/work`,
      connections: 100,
      overallRate: 10_000,
      duration: seconds,
      timeout: 10,
    }
    const instance = autocannon(options, (err, result) => (err ? fail(err) : done(result)))
    instance.on('response', (_client, status, _bytes, ms) => {
      answers.push({ at: performance.now(), status, ms })
    })
  })
}

describe.each(['4', '5'])('express %s', (major) => {
  it('sheds within 5 ms while its event loop is blocked in bursts, recovers, never crashes', async () => {
    const server = await startChild(SERVER, [major, String(MAX_DELAY_MS)])
    try {
      // warm-up, no bursts (a cold process, or one on a busy machine, may shed here too)
      const warm: Answer[] = []
      const warmed = await load(server.port, 2, warm)
      expect(warmed.errors + warmed.timeouts).toBe(0)
      const warmStats = await server.stats<Stats>()
      figure(
        `warm-up: ${Math.round(warmed.requests.average)} req/s, ${JSON.stringify(warmStats.statuses)}`,
      )

      const answers: Answer[] = []
      const start = performance.now()
      const running = load(server.port, SECONDS, answers)
      const bursts = new Promise<number>((started) =>
        setTimeout(() => {
          server.child.send({ bursts: BURSTS })
          started(burstsDone(server, 10_000))
        }, BURSTS_AT_MS),
      )
      const result = await running
      const end = await bursts

      // the process lived through it, and serves again once the load is gone (after 10 calm
      // samples: 1 s)
      expect(server.child.exitCode).toBeNull()
      let status = 0
      const deadline = Date.now() + 5000
      while (status !== 200 && Date.now() < deadline) {
        status = (await fetch(`http://127.0.0.1:${server.port}/work`)).status
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(status).toBe(200)
      const stats = await server.stats<Stats>()

      const refused = answers.filter((a) => a.status === 503)
      const served = answers.filter((a) => a.status === 200)
      expect(answers.length).toBe(refused.length + served.length)
      expect(result.errors + result.timeouts).toBe(0)
      expect(refused.length).toBeGreaterThan(0)
      expect(stats.statuses['503']).toBe(stats.shed.count)
      // each refusal leaves within 5 ms of its request being read, once the loop turns
      expect(stats.shed.p99).toBeLessThan(5)
      // Under load once the bursts are over and 10 calm samples (1 s) have passed, a process
      // alone on its machine serves every request again; on a machine shared with other work its
      // own turns can pass the limit too and be refused as rightly (the recovery that always
      // holds is the one above): the share served is printed, not held.
      const recovered = answers.filter((a) => a.at > end + 1100)
      const servedAfter = recovered.filter((a) => a.status === 200).length
      // one warning when shedding started and one when it stopped, not one per request
      expect(stats.counts.warnStarted).toBeGreaterThanOrEqual(1)
      expect(stats.counts.warnStarted).toBe(stats.counts.warnStopped)
      expect(stats.counts.warnStarted).toBeLessThanOrEqual(BURSTS.count)
      expect(stats.counts.refusedLines).toBe(stats.shed.count)
      expect(stats.counts.otherErrors).toBe(0)

      const seconds = (performance.now() - start) / 1000
      const client = refused.map((a) => a.ms).sort((a, b) => a - b)
      const ok = served.map((a) => a.ms).sort((a, b) => a - b)
      figure(
        `express ${major}: ${Math.round(result.requests.average)} req/s reached (aimed at 10,000; warm-up ${Math.round(warmed.requests.average)} req/s), ${answers.length} answers in ${fixed(seconds)} s: ${served.length} 200, ${refused.length} 503 OVERLOADED; ` +
          `server, read to written, 503: p50 ${fixed(stats.shed.p50)} ms, p99 ${fixed(stats.shed.p99)} ms, max ${fixed(stats.shed.max)} ms; ` +
          `client latency, 503: p50 ${fixed(quantile(client, 0.5))} ms, p99 ${fixed(quantile(client, 0.99))} ms; 200: p50 ${fixed(quantile(ok, 0.5))} ms, p99 ${fixed(quantile(ok, 0.99))} ms; ` +
          `loop blocked ${stats.blockedMs} ms; shedding started ${stats.counts.warnStarted} time(s); after the bursts ${servedAfter} of ${recovered.length} served; machine load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
      )
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)
})
