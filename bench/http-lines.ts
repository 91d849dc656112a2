import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { oldestLine } from './fixtures/http-rows.js'

// `npm run bench:http [-- --lines 22,24,26] [-- <options of http.bench.ts>]`: the HTTP benchmark
// on each Node.js line named (22, 24 and 26 by default), one line after another, each under that
// line's own `node` (scripts/node-line.sh installs it), so every line's servers and load
// generator run on that line; each writes bench/results/http-node<MAJOR>.json. Then, unless
// `--quick` (which writes nothing), the chart (scripts/http-bench-chart.mjs) and the
// performance guide's tables (scripts/http-bench-tables.mjs) are drawn from every line's results file
// there is. Every other argument (`--quick`, `--src`, `--reps N`, `--cycles N`, `--warmup S`)
// goes to bench/http.bench.ts. The first line that fails stops the run, chart and tables untouched.

const root = join(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const say = (line: string) => process.stdout.write(`${line}\n`)

let lines = [22, 24, 26]
const rest: string[] = []
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]!
  if (arg === '--lines' || arg.startsWith('--lines=')) {
    const text = arg === '--lines' ? argv[++i] : arg.slice('--lines='.length)
    lines = (text ?? '').split(',').map((l) => Number(l.trim()))
    const wrong = lines.filter((l) => !Number.isInteger(l) || l < oldestLine)
    if (lines.length === 0 || wrong.length > 0) {
      throw new Error(`--lines takes majors of supported lines (${oldestLine} or later): ${text}`)
    }
  } else {
    rest.push(arg)
  }
}
const quick = rest.includes('--quick')

const began = Date.now()
const minutes = (since: number) => `${((Date.now() - since) / 60_000).toFixed(1)} min`
for (const line of lines) {
  const bin = execFileSync(join(root, 'scripts/node-line.sh'), [String(line)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim()
  const node = join(bin, 'node')
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  say(`\n== Node ${version}: bench/http.bench.ts ${rest.join(' ')}`)
  const start = Date.now()
  // The line's bin first on PATH too: whatever the bench starts by name runs on the same line.
  const run = spawnSync(node, ['--import', 'tsx', join(root, 'bench/http.bench.ts'), ...rest], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  })
  if (run.status !== 0) {
    say(`== Node ${version}: failed (${run.signal ?? `exit code ${run.status}`})`)
    process.exit(run.status || 1)
  }
  say(`== Node ${version}: done in ${minutes(start)}`)
}

if (!quick) {
  for (const script of ['scripts/http-bench-chart.mjs', 'scripts/http-bench-tables.mjs']) {
    const run = spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: 'inherit' })
    if (run.status !== 0) throw new Error(`${script} failed`)
  }
  say('docs/performance.md: the tables are rewritten; check the prose around them')
}
say(`\nbench:http: Node ${lines.join(', ')} in ${minutes(began)}`)
