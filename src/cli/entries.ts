import { createRequire } from 'node:module'

// The package's own entries, loaded from its build as the app loads them: the ESM build for an
// ESM app, the CommonJS one for a CommonJS app, so that both share one copy of the runtime
// (its logger, which fuzzing silences, and its caches).
const requireHere = createRequire(import.meta.url)

export type OpenAPIEntry = typeof import('shapeguard/openapi')
export type TestingEntry = typeof import('shapeguard/testing')

/** `shapeguard/openapi`, from the build the app uses. */
export async function openapiEntry(cjs: boolean): Promise<OpenAPIEntry> {
  return cjs ? requireHere('shapeguard/openapi') : import('shapeguard/openapi')
}

/** `shapeguard/testing`, from the build the app uses. */
export async function testingEntry(cjs: boolean): Promise<TestingEntry> {
  return cjs ? requireHere('shapeguard/testing') : import('shapeguard/testing')
}
