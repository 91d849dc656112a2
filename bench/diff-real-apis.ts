// diffOpenAPI on three public APIs' real histories: GitHub's REST description (npm
// @octokit/openapi, two majors), Stripe's (stripe/openapi, a year apart) and Twilio's Api v2010
// (twilio/twilio-oai, two releases). The documents are fetched into .cache/diff-real-apis and
// never committed; the summary (counts per rule, samples, time, peak memory) is written to
// bench/results/diff-real-apis.md.
//
//   npx tsx bench/diff-real-apis.ts
//   STRIPE_OPENAPI_GIT=<clone of stripe/openapi>/.git TWILIO_OAI_GIT=<clone of twilio/twilio-oai>/.git npx tsx bench/diff-real-apis.ts
//
// GitHub's come from the registry (`npm pack`); Stripe's and Twilio's are not published there,
// so they are read from a git clone named by the variables above (an API without one is skipped).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { diffOpenAPI } from '../src/openapi/index.js'

const root = resolve(import.meta.dirname, '..')
const cache = join(root, '.cache/diff-real-apis')

interface Side {
  readonly label: string
  /** Writes the document into `file`; false when its source is not available. */
  readonly fetch: (file: string) => boolean
}
interface Api {
  readonly name: string
  readonly base: Side
  readonly head: Side
}

function fromNpm(pkg: string, version: string, path: string): Side {
  return {
    label: `${pkg}@${version}`,
    fetch(file) {
      const dir = join(cache, `${pkg.replace('/', '+')}-${version}`)
      mkdirSync(dir, { recursive: true })
      const tgz = execFileSync('npm', ['pack', `${pkg}@${version}`, '--silent'], {
        cwd: dir,
        encoding: 'utf8',
      }).trim()
      execFileSync('tar', ['xzf', join(dir, tgz), '-C', dir, `package/${path}`])
      writeFileSync(file, readFileSync(join(dir, 'package', path)))
      return true
    },
  }
}

function fromGit(variable: string, commit: string, path: string, date: string): Side {
  return {
    label: `${commit} (${date})`,
    fetch(file) {
      const gitDir = process.env[variable]
      if (gitDir === undefined || !existsSync(gitDir)) return false
      writeFileSync(
        file,
        execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], {
          maxBuffer: 1 << 30,
        }),
      )
      return true
    },
  }
}

const apis: Api[] = [
  {
    name: 'GitHub REST (api.github.com)',
    base: fromNpm('@octokit/openapi', '22.0.0', 'generated/api.github.com.json'),
    head: fromNpm('@octokit/openapi', '23.0.0', 'generated/api.github.com.json'),
  },
  {
    name: 'Stripe (spec3.json)',
    base: fromGit('STRIPE_OPENAPI_GIT', '6546d96d', 'openapi/spec3.json', '2021-04-12'),
    head: fromGit('STRIPE_OPENAPI_GIT', 'e0123a38', 'openapi/spec3.json', '2022-04-12'),
  },
  {
    name: 'Twilio Api v2010',
    base: fromGit('TWILIO_OAI_GIT', 'dd8163d', 'spec/json/twilio_api_v2010.json', '2024-06-27'),
    head: fromGit('TWILIO_OAI_GIT', 'd50069b', 'spec/json/twilio_api_v2010.json', '2026-04-14'),
  },
]

function documentOf(api: Api, side: 'base' | 'head'): string | undefined {
  const file = join(cache, `${api.name.replace(/\W+/g, '-')}-${side}.json`)
  if (existsSync(file) || api[side].fetch(file)) return file
  return undefined
}

// Each API in a child process of its own, so that its peak memory is its own.
if (process.argv[2] === '--one') {
  const api = apis[Number(process.argv[3])]!
  const [baseFile, headFile] = [documentOf(api, 'base')!, documentOf(api, 'head')!]
  const t0 = performance.now()
  const [base, head] = [
    JSON.parse(readFileSync(baseFile, 'utf8')),
    JSON.parse(readFileSync(headFile, 'utf8')),
  ]
  const t1 = performance.now()
  const findings = diffOpenAPI(base, head)
  const t2 = performance.now()
  const operations = (doc: { paths: Record<string, object> }) =>
    Object.values(doc.paths).reduce(
      (n, item) =>
        n +
        Object.keys(item).filter((k) => /^(get|put|post|delete|patch|head|options|trace)$/.test(k))
          .length,
      0,
    )
  writeFileSync(
    process.argv[4]!,
    JSON.stringify({
      bytes: [readFileSync(baseFile).length, readFileSync(headFile).length],
      operations: [operations(base), operations(head)],
      parseMs: Math.round(t1 - t0),
      diffMs: Math.round(t2 - t1),
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      findings,
    }),
  )
  process.exit(0)
}

mkdirSync(cache, { recursive: true })
const lines: string[] = [
  '# diffOpenAPI on real API histories',
  '',
  `Written by \`npx tsx bench/diff-real-apis.ts\` on Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Times are of one run on a 2-core machine shared with other work; \`diff\` is \`diffOpenAPI()\` alone, \`parse\` is reading both files. Peak memory is the child process's maximum RSS, parsing included.`,
  '',
]
for (const [i, api] of apis.entries()) {
  if (documentOf(api, 'base') === undefined || documentOf(api, 'head') === undefined) {
    lines.push(
      `## ${api.name}`,
      '',
      'Skipped: its git clone was not given (see the header of the script).',
      '',
    )
    continue
  }
  const result = join(cache, `result-${i}.json`)
  execFileSync(
    process.execPath,
    [...process.execArgv, import.meta.filename, '--one', String(i), result],
    { stdio: 'inherit' },
  )
  const r = JSON.parse(readFileSync(result, 'utf8')) as {
    bytes: number[]
    operations: number[]
    parseMs: number
    diffMs: number
    maxRssMB: number
    findings: ReturnType<typeof diffOpenAPI>
  }
  const perRule = new Map<string, { level: string; n: number }>()
  for (const f of r.findings) {
    const entry = perRule.get(f.rule) ?? { level: f.level, n: 0 }
    entry.n++
    perRule.set(f.rule, entry)
  }
  const levels = ['breaking', 'warning', 'info'].map(
    (l) => `${r.findings.filter((f) => f.level === l).length} ${l}`,
  )
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`
  lines.push(
    `## ${api.name}`,
    '',
    `${api.base.label} → ${api.head.label}: ${mb(r.bytes[0]!)} → ${mb(r.bytes[1]!)}, ${r.operations[0]} → ${r.operations[1]} operations.`,
    '',
    `**${levels.join(', ')}**; diff ${r.diffMs} ms, parse ${r.parseMs} ms, peak memory ${r.maxRssMB} MB.`,
    '',
    '| rule | level | findings |',
    '| --- | --- | --: |',
    ...[...perRule]
      .sort((a, b) => b[1].n - a[1].n)
      .map(([rule, { level, n }]) => `| \`${rule}\` | ${level} | ${n} |`),
    '',
    'A sample (the first finding of each rule):',
    '',
    ...[...perRule.keys()].map((rule) => {
      const f = r.findings.find((x) => x.rule === rule)!
      return `- \`${f.rule}\` ${f.document}\`#${f.pointer}\`: ${f.message}`
    }),
    '',
  )
  console.log(
    `${api.name}: ${levels.join(', ')}; diff ${r.diffMs} ms, parse ${r.parseMs} ms, ${r.maxRssMB} MB`,
  )
}
writeFileSync(join(root, 'bench/results/diff-real-apis.md'), `${lines.join('\n')}`)
