import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { breach, layers, target } from '../scripts/layers.js'

const root = join(import.meta.dirname, '..')
const src = join(root, 'src')

function sources(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
}

function lines(file: string): number {
  return readFileSync(join(src, file), 'utf8').trimEnd().split('\n').length
}

// Tables of types (one interface per IR kind, one code per reason) are read, not followed.
const typeTables = new Set(['engine/ir/types.ts'])

describe('the source tree', () => {
  it('keeps every runtime and engine file under 300 lines, but type tables', () => {
    const long = sources()
      .filter((file) => /^(runtime|engine)\//.test(file) && !typeTables.has(file))
      .map((file) => [file, lines(file)] as const)
      .filter(([, count]) => count > 300)
    expect(long).toEqual([])
  })

  it('imports fast-check in the testing layer for its types only (loaded lazily at run time)', () => {
    const eager = sources()
      .filter((file) => file.startsWith('testing/'))
      .filter((file) =>
        /^import (?!type )[^\n]*from 'fast-check'/m.test(readFileSync(join(src, file), 'utf8')),
      )
    expect(eager).toEqual([])
  })

  it('has index files that only re-export', () => {
    for (const file of sources().filter((f) => f.endsWith('index.ts'))) {
      const code = readFileSync(join(src, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
      const other = code
        .replace(/^export (type )?(\*( as \w+)?|\{[^}]*\}) from '[^']+'$/gm, '')
        .trim()
      expect({ file, other }).toEqual({ file, other: '' })
    }
  })

  it('cites none of the project documents users do not have: the code says the rule', () => {
    // Built, so that this file does not cite them either.
    const cited = new RegExp(`\\b(?:${['SPEC', 'API'].join('|')})\\.md\\b`)
    const citing = ['src', 'test'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .map((file) => `${dir}/${file}`)
        .filter((file) => /\.(ts|mjs|cjs|md)$/.test(file))
        .filter((file) => cited.test(readFileSync(join(root, file), 'utf8'))),
    )
    expect(citing).toEqual([])
  })
})

// The layer rules live in biome.json, written from scripts/layers.ts; these probes prove each rule
// fires and that what a layer may import passes. The config is copied beside the probes (without
// its git settings) so the overrides' paths resolve as they do in the repository.
describe('the layer rules', () => {
  const probes: Record<string, { code: string; forbidden: boolean }> = {
    'src/engine/p1.ts': { code: "import type { Request } from 'express'", forbidden: true },
    'src/engine/p2.ts': {
      code: "import type { Logger } from '../runtime/logging/types.js'",
      forbidden: true,
    },
    'src/engine/p3.ts': {
      code: "import type { X } from '../adapters/zod/index.js'",
      forbidden: true,
    },
    'src/engine/p4.ts': { code: "import type { IRNode } from './ir/types.js'", forbidden: false },
    'src/adapters/yup/p1.ts': {
      code: "import type { X } from '../valibot/index.js'",
      forbidden: true,
    },
    'src/adapters/yup/p2.ts': {
      code: "import type { X } from '../../runtime/core/context.js'",
      forbidden: true,
    },
    'src/adapters/yup/p3.ts': {
      code: "import type { X } from '../../engine/adapter.js'",
      forbidden: false,
    },
    'src/runtime/errors/p1.ts': {
      code: "import type { X } from '../../adapters/zod/index.js'",
      forbidden: true,
    },
    'src/runtime/errors/p2.ts': { code: "import { z } from 'zod'", forbidden: true },
    'src/runtime/errors/p3.ts': {
      code: "import type { X } from '../../openapi/index.js'",
      forbidden: true,
    },
    'src/runtime/errors/p4.ts': {
      code: "import type { X } from '../../engine/adapter.js'",
      forbidden: false,
    },
    'src/openapi/p1.ts': {
      code: "import type { X } from '../runtime/core/context.js'",
      forbidden: true,
    },
    'src/openapi/p2.ts': {
      code: "import type { X } from '../engine/adapter.js'",
      forbidden: false,
    },
    'src/openapi/generate/p3.ts': {
      code: "import type { X } from '../../runtime/pipeline/discover-routes.js'",
      forbidden: false,
    },
    'src/testing/p1.ts': {
      code: "import type { X } from '../adapters/valibot/index.js'",
      forbidden: true,
    },
    'src/testing/p2.ts': {
      code: "import type { X } from '../openapi/generate/generate-openapi.js'",
      forbidden: false,
    },
    'src/testing/p3.ts': {
      code: "import type { X } from '../adapters/resolve.js'",
      forbidden: false,
    },
    'src/testing/p4.ts': { code: "import { z } from 'zod'", forbidden: true },
    'src/openapi/generate/p4.ts': {
      code: "import type { X } from '../../runtime/router/create-router.js'",
      forbidden: true,
    },
    'src/openapi/docs/p5.ts': {
      code: "import type { X } from '../../testing/fuzz/wire.js'",
      forbidden: true,
    },
    'src/openapi/p6.ts': { code: "import type { X } from '../testing/index.js'", forbidden: true },
    // No code in src/ imports the package by its own name (the CLI loads the built entries).
    'src/p1.ts': { code: "import type { X } from 'shapeguard'", forbidden: true },
    'src/runtime/errors/p5.ts': {
      code: "import type { X } from 'shapeguard/openapi'",
      forbidden: true,
    },
    'src/openapi/p7.ts': { code: "export type { X } from 'shapeguard/testing'", forbidden: true },
    'src/engine/p5.ts': { code: "type X = typeof import('shapeguard/openapi')", forbidden: true },
    'src/adapters-winston.ts': {
      code: "import type { X } from 'shapeguard/adapters/winston'",
      forbidden: true,
    },
    'src/testing/p5.ts': { code: "import type { X } from 'shapeguardian'", forbidden: false },
    'src/cli/p1.ts': { code: "import type { X } from 'shapeguard/openapi'", forbidden: false },
    // The stream client runs in browsers: shared/ only, nothing of Node's, no schema library.
    'src/client/p1.ts': { code: "import { x } from '../shared/is-object.js'", forbidden: false },
    'src/client/p2.ts': { code: "import type { X } from '../engine/adapter.js'", forbidden: true },
    'src/client/p3.ts': { code: "import { x } from 'node:stream'", forbidden: true },
    'src/client/p4.ts': { code: "import type { z } from 'zod'", forbidden: true },
    // shared/ sits under every layer: it imports nothing else in src/, and everything may import it.
    'src/shared/p1.ts': {
      code: "import type { X } from '../runtime/core/context.js'",
      forbidden: true,
    },
    'src/shared/p2.ts': { code: "import type { Request } from 'express'", forbidden: true },
    'src/shared/p3.ts': { code: "import type { X } from 'node:http'", forbidden: false },
    'src/engine/p6.ts': {
      code: "import type { X } from '../shared/error-codes.js'",
      forbidden: false,
    },
    'src/adapters/yup/p4.ts': {
      code: "import type { X } from '../../shared/check-option.js'",
      forbidden: false,
    },
    'src/openapi/exports/p8.ts': {
      code: "import type { X } from '../../shared/check-option.js'",
      forbidden: false,
    },
    'src/testing/p6.ts': {
      code: "import type { X } from '../shared/check-option.js'",
      forbidden: false,
    },
    'src/runtime/core/p1.ts': {
      code: "import type { X } from '../../shared/error-codes.js'",
      forbidden: false,
    },
    'src/runtime/core/p2.ts': { code: "import type { X } from '../errors/x.js'", forbidden: true },
  }

  // A probe in each listed folder imports every other folder of its layer and each of the layer's
  // root files, and the folder right above it by roundabout spellings too. Whether biome must flag
  // it is what the list says of the file it reaches (breach()): biome and the list agree on each.
  const js = (file: string) => file.replace(/\.ts$/, '.js')
  const generated = new Set<string>()
  for (const layer of layers) {
    const folders = layer.folders ?? []
    for (const [i, folder] of folders.entries()) {
      const above = folders[i + 1]?.name
      const others = folders.filter((f) => f.name !== folder.name).map((f) => f.name)
      const specifiers = [
        ...others.map((to) => `../${to}/x.js`),
        ...others.map((to) => `../../${layer.name}/${to}/x.js`),
        ...Object.entries(folder.only ?? {}).flatMap(([to, files]) =>
          files.map((file) => `../${to}/${js(file)}`),
        ),
        ...[...(layer.base ?? []), ...(layer.top ?? [])].map((file) => `../${js(file)}`),
        ...(above === undefined
          ? []
          : [
              `../${folder.name}/../${above}/x.js`,
              `./../${above}/x.js`,
              `../../../src/${layer.name}/${above}/x.js`,
            ]),
      ]
      for (const [n, specifier] of specifiers.entries()) {
        const from = `${layer.name}/${folder.name}/g${n}.ts`
        generated.add(`src/${from}`)
        probes[`src/${from}`] = {
          code: `import type { X } from '${specifier}'`,
          forbidden: breach(from, target(from, specifier)) !== undefined,
        }
      }
    }
  }
  for (const { name } of layers.find((layer) => layer.name === 'runtime')?.folders ?? []) {
    probes[`src/runtime/${name}/zod.ts`] = { code: "import { z } from 'zod'", forbidden: true }
    // An optional peer: loaded lazily (telemetry/otel-api.ts), never imported.
    probes[`src/runtime/${name}/otel.ts`] = {
      code: "import type { X } from '@opentelemetry/api'",
      forbidden: true,
    }
  }

  it('agree with the list on the files the hand-written probes reach', () => {
    const disagree = Object.entries(probes).flatMap(([file, { code, forbidden }]) => {
      const specifier = /'(\.[^']*)'/.exec(code)?.[1]
      if (specifier === undefined || generated.has(file)) return []
      const from = file.slice('src/'.length)
      return (breach(from, target(from, specifier)) !== undefined) === forbidden ? [] : [file]
    })
    expect(disagree).toEqual([])
  })

  it('fire on imports across a layer and pass the allowed ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shapeguard-layers-'))
    try {
      const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'))
      delete config.vcs
      config.files = { includes: ['**'] }
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(config))
      for (const plugin of config.overrides.flatMap(
        (o: { plugins?: string[] }) => o.plugins ?? [],
      )) {
        mkdirSync(join(dir, dirname(plugin)), { recursive: true })
        copyFileSync(join(root, plugin), join(dir, plugin))
      }
      for (const [file, { code }] of Object.entries(probes)) {
        mkdirSync(join(dir, dirname(file)), { recursive: true })
        writeFileSync(join(dir, file), `${code}\n\nexport type P = X\n`)
      }
      const biome = join(root, 'node_modules/.bin/biome')
      let out = ''
      try {
        out = execFileSync(
          biome,
          ['lint', '--only=style/noRestrictedImports', '--only=plugin', '--reporter=json', 'src'],
          { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        )
      } catch (err) {
        out = (err as { stdout: string }).stdout
      }
      const report = JSON.parse(out) as { diagnostics: { location: { path: string } }[] }
      const flagged = new Set(report.diagnostics.map((d) => d.location.path.replace(/^\.\//, '')))
      const expected = Object.entries(probes)
        .filter(([, p]) => p.forbidden)
        .map(([file]) => file)
      expect([...flagged].sort()).toEqual(expected.sort())
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
