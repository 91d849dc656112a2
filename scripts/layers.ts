// The one list of src/'s layers, bottom first, and of the folders inside engine/, adapters/ and
// runtime/: each imports only what sits below it. `npx tsx scripts/layers.ts` writes biome.json's
// layer rules (its noRestrictedImports overrides) from the list; `--check` (part of
// `npm run lint`) fails when biome.json differs from it, when a folder of src/ is missing from it,
// or when an import of src/, however it is spelled, runs up it (test/architecture/ checks the same).
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import ts from 'typescript'

interface Pattern {
  readonly group: readonly string[]
  readonly message: string
}

/** A folder of a layer: it imports the folders listed before it, never one after. */
export interface Folder {
  readonly name: string
  /** `false`: it imports none of its layer's `base` files. */
  readonly base?: false
  /** By folder below it, the only files of that folder it imports. */
  readonly only?: Readonly<Record<string, readonly string[]>>
}

export interface Layer {
  readonly name: string
  /** It imports nothing else in src/. */
  readonly alone?: true
  /** The only layers below it that it imports. */
  readonly reaches?: readonly string[]
  /** No biome rule: its build holds it. */
  readonly unlinted?: true
  readonly libraries?: Pattern
  /** By layer below it, the only files of that layer it imports, and why. */
  readonly only?: Readonly<
    Record<string, { readonly files: readonly string[]; readonly why: string }>
  >
  /** Root files below its folders: the contract they share. */
  readonly base?: readonly string[]
  /** Root files above its folders, which import them. */
  readonly top?: readonly string[]
  /** Its folders import none of one another. */
  readonly peers?: true
  readonly folders?: readonly Folder[]
}

const schemaAndLogLibraries = ['zod', 'zod/**', 'valibot', 'yup', 'winston', 'pino']

export const layers: readonly Layer[] = [
  {
    name: 'shared',
    alone: true,
    libraries: {
      group: ['express', ...schemaAndLogLibraries],
      message: 'shared imports no web framework and no schema or log library',
    },
  },
  {
    name: 'engine',
    libraries: {
      group: ['express', ...schemaAndLogLibraries],
      message: 'engine imports no web framework and no schema or log library',
    },
    base: ['adapter.ts', 'result.ts', 'standard-schema.ts'],
    top: ['index.ts'],
    folders: [
      { name: 'ir', base: false },
      { name: 'regex', base: false },
      { name: 'json-schema', only: { regex: ['escape-regex.ts'] } },
      {
        name: 'compile',
        // validation-schema.ts takes its bounds from the docs' writer: one merge for both.
        only: { regex: ['escape-regex.ts'], 'json-schema': ['json-schema-leaves.ts'] },
      },
    ],
  },
  {
    name: 'adapters',
    libraries: { group: ['express'], message: 'adapters know no web framework' },
    top: ['resolve.ts'],
    peers: true,
    folders: [{ name: 'zod' }, { name: 'valibot' }, { name: 'yup' }, { name: 'standard' }],
  },
  {
    name: 'runtime',
    libraries: {
      group: [...schemaAndLogLibraries, '!zod/v4/core', '@opentelemetry/**'],
      message:
        "runtime loads optional libraries lazily (core/load-peer.ts) and takes only zod's core types",
    },
    folders: [
      'core',
      'host',
      'telemetry',
      'logging',
      'guards',
      'response',
      'rate-limit',
      'webhooks',
      'cookies',
      'auth',
      'multipart',
      'stream',
      'lifecycle',
      'router',
      'middleware',
      'pipeline',
      'errors',
    ].map((name) => ({ name })),
  },
  {
    name: 'openapi',
    // The route types and the route discovery; nothing else of the middleware.
    only: {
      runtime: {
        files: ['pipeline/route-types.ts', 'pipeline/discover-routes.ts'],
        why: 'the route types and their discovery, not the middleware',
      },
    },
  },
  {
    name: 'testing',
    libraries: {
      group: schemaAndLogLibraries,
      message:
        'testing loads no schema or log library (fast-check lazily, through load-fast-check.ts)',
    },
  },
  // The stream client (shapeguard/client) runs in browsers, Deno, Bun and Node alike: shared/ and
  // the platform's fetch, TextDecoder and streams, nothing of Node's, no schema library.
  {
    name: 'client',
    reaches: ['shared'],
    libraries: {
      group: ['express', ...schemaAndLogLibraries, 'node:*'],
      message: 'client runs in browsers too: no web framework, schema library or node: module',
    },
  },
  // Imports the package by its own name, and shared/ (no state, so its bundled copy splits
  // nothing); its build and test/cli/imports.test.ts hold it there.
  { name: 'cli', reaches: ['shared'], unlinted: true },
]

// Above adapters/, a layer reaches schemas through resolve.ts only.
const adapters = layers.findIndex((layer) => layer.name === 'adapters')
const schemaEntry = { files: ['resolve.ts'], why: "an adapter's entry loads its library" }
const onlyOf = (layer: Layer, i: number): NonNullable<Layer['only']> => ({
  ...(i > adapters ? { adapters: schemaEntry } : {}),
  ...layer.only,
})
const js = (file: string) => file.replace(/\.ts$/, '.js')

/**
 * Why an import from one file of src/ to another runs against the list, or undefined when it
 * may. Both paths are relative to src/ (`runtime/core/context.ts`).
 */
export function breach(from: string, to: string): string | undefined {
  const [fromLayer = '', ...fromRest] = from.split('/')
  const [toLayer = '', ...toRest] = to.split('/')
  if (toRest.length === 0) return 'nothing imports a public entry at the root of src/'
  if (fromRest.length === 0) return undefined
  const a = layers.findIndex((layer) => layer.name === fromLayer)
  const b = layers.findIndex((layer) => layer.name === toLayer)
  if (a < 0 || b < 0) return `src/${a < 0 ? fromLayer : toLayer}/ is not in scripts/layers.ts`
  const layer = layers[a]!
  if (a === b) return folderBreach(layer, fromRest, toRest)
  if (layer.alone) return `${fromLayer}/ imports nothing else in src/`
  if (layer.reaches && !layer.reaches.includes(toLayer))
    return `${fromLayer}/ imports nothing else in src/ but ${layer.reaches.join(', ')}/`
  if (b > a) return `${fromLayer}/ imports only the layers below it`
  const only = onlyOf(layer, a)[toLayer]?.files
  if (only && !only.includes(toRest.join('/')))
    return `${fromLayer}/ imports only ${only.join(', ')} of ${toLayer}/`
  return undefined
}

function folderBreach(layer: Layer, fromRest: string[], toRest: string[]): string | undefined {
  if (!layer.folders || fromRest.length === 1) return undefined
  const name = layer.name
  const i = layer.folders.findIndex((f) => f.name === fromRest[0])
  if (i < 0) return `src/${name}/${fromRest[0]}/ is not in scripts/layers.ts`
  const folder = layer.folders[i]!
  const where = `${name}/${folder.name}`
  if (toRest.length === 1) {
    const file = toRest[0]!
    if (layer.top?.includes(file))
      return `${where} does not import ${name}/${file}, which sits above it`
    if (!layer.base?.includes(file)) return `src/${name}/${file} is not in scripts/layers.ts`
    return folder.base === false ? `${where} imports none of ${name}/'s root files` : undefined
  }
  if (toRest[0] === folder.name) return undefined
  const j = layer.folders.findIndex((f) => f.name === toRest[0])
  if (j < 0) return `src/${name}/${toRest[0]}/ is not in scripts/layers.ts`
  if (layer.peers) return `${where} imports no other folder of ${name}/`
  if (j > i) return `${where} imports only the folders of ${name}/ below it`
  const only = folder.only?.[toRest[0]!]
  if (only && !only.includes(toRest.slice(1).join('/')))
    return `${where} imports only ${only.join(', ')} of ${name}/${toRest[0]}/`
  return undefined
}

/** The file of src/ an import specifier of a file of src/ names (`.js` read as `.ts`). */
export function target(from: string, specifier: string): string {
  return posix.join(posix.dirname(from), specifier).replace(/\.js$/, '.ts')
}

/** Every import and export-from between files of src/: `{ from, to }`, relative to src/. */
export function importGraph(src: string): { from: string; to: string }[] {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort()
  return files.flatMap((from) =>
    ts
      .preProcessFile(readFileSync(`${src}/${from}`, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from, to: target(from, specifier) })),
  )
}

/** The imports of src/ that run against the list, as `from → to: why`. */
export function breaches(src: string): string[] {
  return importGraph(src).flatMap(({ from, to }) => {
    const why = breach(from, to)
    return why === undefined ? [] : [`${from} → ${to}: ${why}`]
  })
}

/** The folders and root files of src/'s layers that the list does not name. */
export function unlisted(src: string): string[] {
  const entries = (dir: string) => readdirSync(`${src}/${dir}`, { withFileTypes: true })
  const missing = entries('')
    .filter((e) => e.isDirectory() && !layers.some((layer) => layer.name === e.name))
    .map((e) => `${e.name}/`)
  for (const layer of layers) {
    if (!layer.folders) continue
    const folders = layer.folders
    for (const e of entries(layer.name).filter((e) => e.isDirectory() || e.name.endsWith('.ts'))) {
      const known = e.isDirectory()
        ? folders.some((f) => f.name === e.name)
        : [...(layer.base ?? []), ...(layer.top ?? [])].includes(e.name)
      if (!known) missing.push(`${layer.name}/${e.name}${e.isDirectory() ? '/' : ''}`)
    }
  }
  return missing
}

// biome matches an import's text, not the file it reaches: each rule names a folder every way a
// relative path can reach it (`../middleware/…`, `../../runtime/middleware/…`, `../core/../middleware/…`).
const reach = (layer: string, name: string) => [`**/../${name}`, `**/${layer}/${name}`]

function layerPatterns(layer: Layer, i: number): Pattern[] {
  const name = layer.name
  const patterns: Pattern[] = []
  if (layer.alone) {
    patterns.push({
      group: ['../**'],
      message: `${name}/ imports nothing else in src/: every layer may import it`,
    })
  } else if (i < layers.length - 1) {
    const below = layers.slice(0, i).map((l) => l.name)
    patterns.push({
      group: layers.slice(i + 1).map((l) => `**/${l.name}/**`),
      message: `${name}/ imports only the layers below it (${below.join(', ') || 'none'})`,
    })
  }
  for (const [to, { files, why }] of Object.entries(onlyOf(layer, i)))
    patterns.push({
      group: [`**/${to}/**`, ...files.map((file) => `!**/${to}/${js(file)}`)],
      message: `${name}/ imports only ${files.join(', ')} of ${to}/: ${why}`,
    })
  if (layer.reaches)
    patterns.push({
      group: layers
        .filter((other) => other !== layer && !layer.reaches?.includes(other.name))
        .map((other) => `**/${other.name}/**`),
      message: `${name}/ imports nothing else in src/ but ${layer.reaches.join(', ')}/`,
    })
  if (layer.libraries) patterns.push(layer.libraries)
  return patterns
}

function folderPattern(layer: Layer, folders: readonly Folder[], i: number): Pattern {
  const folder = folders[i]!
  const name = layer.name
  const forbidden: string[] = []
  const exempt: string[] = []
  const allowed: string[] = []
  for (const [j, other] of folders.entries()) {
    if (j === i) continue
    if (j > i || layer.peers) {
      forbidden.push(...reach(name, `${other.name}/**`))
      continue
    }
    const only = folder.only?.[other.name]
    if (only) {
      forbidden.push(...reach(name, `${other.name}/**`))
      exempt.push(...only.map((file) => `!**/${other.name}/${js(file)}`))
    }
    allowed.push(...(only ?? ['']).map((file) => `${other.name}/${file}`))
  }
  const roots = [...(layer.top ?? []), ...(folder.base === false ? (layer.base ?? []) : [])]
  forbidden.push(...roots.flatMap((file) => reach(name, js(file))))
  if (folder.base !== false && layer.base) allowed.push(...layer.base)
  return {
    group: [...forbidden, ...exempt],
    message: `${name}/${folder.name} imports ${allowed.length ? `of ${name}/ only ${allowed.join(', ')}` : `nothing else of ${name}/`}`,
  }
}

function restrict(includes: string[], patterns: Pattern[]) {
  const rule = { level: 'error', options: { patterns } }
  return { includes, linter: { rules: { style: { noRestrictedImports: rule } } } }
}

/** biome.json's layer overrides: one per layer, then one per listed folder (biome takes the last). */
export function layerOverrides() {
  return layers.flatMap((layer, i) => {
    if (layer.unlinted) return []
    const patterns = layerPatterns(layer, i)
    return [
      restrict([`src/${layer.name}/**`], patterns),
      ...(layer.folders ?? []).map((folder, j, folders) =>
        restrict(
          [`src/${layer.name}/${folder.name}/**`],
          [...patterns, folderPattern(layer, folders, j)],
        ),
      ),
    ]
  })
}

interface Override {
  linter?: { rules?: { style?: { noRestrictedImports?: unknown } } }
}
const isLayerRule = (override: Override) =>
  override.linter?.rules?.style?.noRestrictedImports !== undefined

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const file = `${root}biome.json`
  const config = JSON.parse(readFileSync(file, 'utf8')) as { overrides: Override[] }
  const overrides = [...config.overrides.filter((o) => !isLayerRule(o)), ...layerOverrides()]
  if (!process.argv.includes('--check')) {
    writeFileSync(file, `${JSON.stringify({ ...config, overrides }, null, 2)}\n`)
    execFileSync(`${root}node_modules/.bin/biome`, ['format', '--write', file], {
      cwd: root,
      stdio: 'ignore',
    })
    process.exit(0)
  }
  const faults = [...unlisted(`${root}src`).map((f) => `src/${f} is not in scripts/layers.ts`)]
  if (!isDeepStrictEqual(config.overrides, overrides))
    faults.push(
      "biome.json's layer rules differ from scripts/layers.ts: run npx tsx scripts/layers.ts",
    )
  faults.push(...breaches(`${root}src`))
  for (const fault of faults) process.stderr.write(`layers: ${fault}\n`)
  process.exit(faults.length > 0 ? 1 : 0)
}
