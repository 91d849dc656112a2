// The README's typed-client block imports `./api-types.js`, the file `openapi-typescript` writes:
// here, the types generated from the demo's document (test/openapi/fixtures/demo-paths.ts).
export type { paths } from '../openapi/fixtures/demo-paths.js'
