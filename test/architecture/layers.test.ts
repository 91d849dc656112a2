import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { breach, breaches, importGraph, layerOverrides, unlisted } from '../../scripts/layers.js'

const root = join(import.meta.dirname, '../..')
const src = join(root, 'src')

// biome sees an import's text; these read the files an import reaches, whatever its spelling.
describe('the imports of src/', () => {
  it('run down the layers and their folders only: 0 run back up', () => {
    expect(breaches(src)).toEqual([])
  })

  it('are read in full, type imports included', () => {
    const graph = importGraph(src)
    expect(graph).toContainEqual({ from: 'runtime/pipeline/plan.ts', to: 'adapters/resolve.ts' })
    expect(graph).toContainEqual({
      from: 'openapi/generate/types.ts',
      to: 'runtime/pipeline/route-types.ts',
    })
    expect(graph.length).toBeGreaterThan(500)
  })

  it('stay inside the list: every folder of src/ and of its listed layers is named in it', () => {
    expect(unlisted(src)).toEqual([])
  })
})

describe('breaches', () => {
  it('finds an upward import however it is spelled, and nothing in comments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shapeguard-graph-'))
    const files: Record<string, string> = {
      'adapters/zod/a.ts': "import { s } from '../../index.js'",
      'engine/ir/a.ts': [
        "import { e } from '../regex/escape-regex.js'",
        "// import { c } from '../compile/x.js'",
      ].join('\n'),
      'openapi/generate/a.ts': [
        "import type { R } from '../../runtime/pipeline/route-types.js'",
        "import { r } from '../../runtime/router/create-router.js'",
      ].join('\n'),
      'runtime/core/a.ts': [
        "import type { X } from '../core/../middleware/x.js'",
        "export type { Y } from '../../runtime/middleware/y.js'",
        "type Z = typeof import('./../errors/z.js')",
      ].join('\n'),
      'runtime/pipeline/plan.ts': "import { toAdapter } from '../../adapters/resolve.js'",
      'shared/a.ts': "import type { IRNode } from '../engine/ir/types.js'",
    }
    try {
      for (const [file, code] of Object.entries(files)) {
        mkdirSync(join(dir, dirname(file)), { recursive: true })
        writeFileSync(join(dir, file), `${code}\n`)
      }
      expect(breaches(dir).map((line) => line.split(':')[0])).toEqual([
        'adapters/zod/a.ts → index.ts',
        'engine/ir/a.ts → engine/regex/escape-regex.ts',
        'openapi/generate/a.ts → runtime/router/create-router.ts',
        'runtime/core/a.ts → runtime/middleware/x.ts',
        'runtime/core/a.ts → runtime/middleware/y.ts',
        'runtime/core/a.ts → runtime/errors/z.ts',
        'shared/a.ts → engine/ir/types.ts',
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('breach', () => {
  // ARCHITECTURE.md's arrows and their named exceptions.
  it.each([
    ['runtime/pipeline/plan.ts', 'adapters/resolve.ts', true],
    ['runtime/pipeline/plan.ts', 'adapters/zod/index.ts', false],
    ['runtime/errors/a.ts', 'runtime/core/a.ts', true],
    ['runtime/core/a.ts', 'runtime/host/a.ts', false],
    ['openapi/generate/a.ts', 'runtime/pipeline/route-types.ts', true],
    ['openapi/generate/a.ts', 'runtime/pipeline/discover-routes.ts', true],
    ['openapi/generate/a.ts', 'runtime/pipeline/plan.ts', false],
    ['openapi/generate/a.ts', 'adapters/resolve.ts', true],
    ['openapi/docs/a.ts', 'testing/fuzz/a.ts', false],
    ['testing/fuzz/a.ts', 'openapi/generate/a.ts', true],
    ['testing/fuzz/a.ts', 'runtime/guards/limits.ts', true],
    ['testing/arbitrary/a.ts', 'adapters/valibot/index.ts', false],
    ['engine/compile/validation-schema.ts', 'engine/json-schema/json-schema-leaves.ts', true],
    ['engine/compile/a.ts', 'engine/json-schema/json-schema.ts', false],
    ['engine/compile/a.ts', 'engine/regex/escape-regex.ts', true],
    ['engine/json-schema/a.ts', 'engine/compile/a.ts', false],
    ['engine/json-schema/a.ts', 'engine/adapter.ts', true],
    ['engine/json-schema/a.ts', 'engine/index.ts', false],
    ['engine/regex/risky-patterns.ts', 'engine/ir/visit.ts', true],
    ['engine/regex/a.ts', 'engine/regex/b.ts', true],
    ['engine/regex/a.ts', 'engine/adapter.ts', false],
    ['engine/ir/a.ts', 'engine/regex/a.ts', false],
    ['engine/ir/a.ts', 'engine/result.ts', false],
    ['engine/ir/a.ts', 'shared/error-codes.ts', true],
    ['engine/adapter.ts', 'engine/ir/types.ts', true],
    ['adapters/yup/a.ts', 'adapters/valibot/a.ts', false],
    ['adapters/yup/a.ts', 'adapters/resolve.ts', false],
    ['adapters/yup/a.ts', 'engine/compile/a.ts', true],
    ['adapters/resolve.ts', 'adapters/zod/index.ts', true],
    ['shared/check-option.ts', 'shared/error-codes.ts', true],
    ['shared/a.ts', 'engine/ir/types.ts', false],
    ['cli/commands/a.ts', 'cli/io.ts', true],
    ['cli/commands/a.ts', 'shared/is-object.ts', true],
    ['cli/commands/a.ts', 'runtime/core/app-error.ts', false],
    ['cli/commands/a.ts', 'engine/ir/types.ts', false],
    ['client/a.ts', 'shared/event-stream.ts', true],
    ['client/a.ts', 'client/b.ts', true],
    ['client/a.ts', 'engine/standard-schema.ts', false],
    ['client/a.ts', 'runtime/core/context.ts', false],
    ['testing/fuzz/a.ts', 'client/a.ts', false],
    ['client.ts', 'client/read-events.ts', true],
    ['index.ts', 'runtime/core/app-error.ts', true],
    ['adapters-winston.ts', 'runtime/logging/winston-adapter.ts', true],
    ['runtime/core/a.ts', 'index.ts', false],
    ['runtime/logging/a.ts', 'adapters-winston.ts', false],
    ['runtime/sessions/a.ts', 'runtime/core/a.ts', false],
    ['jobs/a.ts', 'shared/error-codes.ts', false],
  ])('%s → %s: %s', (from, to, allowed) => {
    expect(breach(from, to) === undefined).toBe(allowed)
  })
})

describe("biome.json's layer rules", () => {
  it('are the ones scripts/layers.ts writes from the list', () => {
    const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as {
      overrides: { linter?: { rules?: { style?: { noRestrictedImports?: unknown } } } }[]
    }
    const written = config.overrides.filter((o) => o.linter?.rules?.style?.noRestrictedImports)
    expect(written).toEqual(layerOverrides())
  })
})
