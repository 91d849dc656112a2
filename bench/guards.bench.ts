import { guardBody, guardQuery, resolveLimits } from '../src/runtime/guards/index.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what do the pre-parse guards cost on every request, next to the least any walk of
// the same body costs (a recursive node count) and next to the JSON.parse the body parser does?
// Ratios are of time (mean ns over the baseline's): lower is cheaper.

const createUser = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  age: 36,
  role: 'admin',
  active: true,
  bio: 'Mathematician and writer, known for her work on the Analytical Engine.',
  website: 'https://example.com/ada',
  phone: '+44 20 7946 0958',
  tags: ['math', 'computing', 'poetry'],
  address: { street: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', country: 'GB' },
}
const batch = Array.from({ length: 200 }, () => structuredClone(createUser))

// The baseline: visit every node once, count it, nothing else.
function countNodes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1
  let n = 1
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += countNodes(value[i])
  } else {
    for (const k of Object.keys(value)) n += countNodes((value as Record<string, unknown>)[k])
  }
  return n
}

const limits = resolveLimits()
const query = { page: '2', limit: '20', sort: 'name', q: 'ada', tag: ['a', 'b'] }
const arrayKeys = new Set(['tag'])

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const results = []
for (const [label, body] of [
  ['create-user body (10 fields, nested address, string array)', createUser],
  ['array of 200 create-user bodies', batch],
] as const) {
  const text = JSON.stringify(body)
  // Dirty input is cleaned in place, so each dirty run parses its own copy; the parse is the
  // baseline of that comparison.
  const dirtyText = text.replaceAll('Ada', 'A\u200bda').replace('"role"', '"constructor":1,"role"')
  const rounds = {
    walk: [] as number[],
    parse: [] as number[],
    clean: [] as number[],
    dirty: [] as number[],
  }
  const kept = []
  // The machines are shared and noisy: three rounds, the median ratio is the result.
  for (let round = 1; round <= 3; round++) {
    const walk = await compare(`${label}: clean body, round ${round}`, 'count nodes', {
      'count nodes': () => countNodes(body),
      guardBody: () => guardBody(body, limits),
      'JSON.parse': () => JSON.parse(text),
    })
    const dirty = await compare(`${label}: parse + guard, round ${round}`, 'JSON.parse', {
      'JSON.parse': () => JSON.parse(text),
      'JSON.parse + guardBody (clean)': () => guardBody(JSON.parse(text), limits),
      'JSON.parse + guardBody (dirty: zero-width, constructor)': () =>
        guardBody(JSON.parse(dirtyText), limits),
    })
    printComparison(walk)
    printComparison(dirty)
    const ns = (c: typeof walk, name: string) => c.cases.find((x) => x.name === name)!.meanNs
    rounds.walk.push(ns(walk, 'guardBody') / ns(walk, 'count nodes'))
    rounds.parse.push(ns(walk, 'guardBody') / ns(walk, 'JSON.parse'))
    rounds.clean.push(ns(dirty, 'JSON.parse + guardBody (clean)') / ns(dirty, 'JSON.parse'))
    rounds.dirty.push(
      ns(dirty, 'JSON.parse + guardBody (dirty: zero-width, constructor)') /
        ns(dirty, 'JSON.parse'),
    )
    kept.push(walk, dirty)
  }
  results.push({
    label,
    guardBodyOverNodeCount: Number(median(rounds.walk).toFixed(2)),
    guardBodyOverJsonParse: Number(median(rounds.parse).toFixed(2)),
    parseAndGuardCleanOverParse: Number(median(rounds.clean).toFixed(2)),
    parseAndGuardDirtyOverParse: Number(median(rounds.dirty).toFixed(2)),
    rounds: kept,
  })
}

const queryRounds = await compare('typical query (5 keys, one declared array)', 'count nodes', {
  'count nodes': () => countNodes(query),
  guardQuery: () => guardQuery(query, arrayKeys, limits),
})
printComparison(queryRounds)
results.push({ label: 'query', rounds: [queryRounds] })

for (const r of results) {
  if ('guardBodyOverNodeCount' in r) {
    process.stdout.write(
      `\n${r.label} (time, median of 3): guardBody ${r.guardBodyOverNodeCount}x a node count, ${r.guardBodyOverJsonParse}x JSON.parse; parse + guard ${r.parseAndGuardCleanOverParse}x the parse alone (clean), ${r.parseAndGuardDirtyOverParse}x (dirty)\n`,
    )
  }
}
writeResults(`guards-node${process.versions.node.split('.')[0]}`, results)
