import { defineConfig } from 'tsup'

// One entry file per public subpath (API.md); each only re-exports.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'adapters/valibot': 'src/adapters/valibot/index.ts',
    'adapters/yup': 'src/adapters/yup/index.ts',
    'adapters/winston': 'src/adapters/winston/index.ts',
    'adapters/redis': 'src/adapters/redis/index.ts',
    openapi: 'src/openapi/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // Shared chunks keep one copy of module state (the logger singleton, caches) across subpaths.
  splitting: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  sourcemap: false,
  treeshake: true,
  // esbuild renames a class that refers to itself (`_AppError`): users see `err.name` and stacks.
  keepNames: true,
})
