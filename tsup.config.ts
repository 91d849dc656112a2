import { resolve } from 'node:path'
import { defineConfig } from 'tsup'

const shared = {
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  treeshake: true,
  // esbuild renames a class that refers to itself (`_AppError`): users see `err.name` and stacks.
  keepNames: true,
} as const

const cliDir = resolve('src/cli')
// shared/ holds no state (pure checks and models), so a bundled copy cannot split the runtime's.
const sharedDir = resolve('src/shared')

export default defineConfig([
  // One entry file per public subpath (API.md); each only re-exports.
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing/index.ts',
      'adapters/valibot': 'src/adapters/valibot/index.ts',
      'adapters/yup': 'src/adapters/yup/index.ts',
      'adapters/winston': 'src/adapters-winston.ts',
      'adapters/redis': 'src/adapters-redis.ts',
      openapi: 'src/openapi/index.ts',
      client: 'src/client.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Shared chunks keep one copy of module state (the logger singleton, caches) across subpaths.
    splitting: true,
    // The command's build runs beside this one: its file is not this build's to clean.
    clean: ['!cli.js'],
  },
  // The `shapeguard` command (package.json `bin`). It reaches the package only through its public
  // entries, left as imports of `shapeguard`, `shapeguard/openapi`, `shapeguard/testing`: Node
  // resolves them to the files above, the very copy the user's app loads.
  {
    ...shared,
    entry: { cli: 'src/cli/main.ts', 'coverage-register': 'src/cli/coverage-register.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    external: [/^shapeguard(?:\/|$)/, '@seriousme/openapi-schema-validator'],
    esbuildPlugins: [
      {
        name: 'cli-imports-public-entries',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (!args.importer.startsWith(cliDir)) return undefined
            const target = resolve(args.resolveDir, args.path)
            if (target.startsWith(cliDir) || target.startsWith(sharedDir)) return undefined
            return {
              errors: [
                {
                  text: `src/cli imports ${args.path}: import the package's public entries (shapeguard, shapeguard/openapi, shapeguard/testing) or src/shared instead`,
                },
              ],
            }
          })
        },
      },
    ],
  },
])
