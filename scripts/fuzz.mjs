// `npm run fuzz [runs]`: the differential parity suites (zod, valibot, yup), the guard
// properties, the linear-pattern equivalence (yup's url against its linear rewrite) and the
// hostile-request properties through real Express apps, with far more generated cases than
// `npm test` runs. Default 20,000 schemas per parity suite (× 20 inputs each = 400,000 pairs per
// library), 200,000 URL-like strings and 100,000 hostile requests (FUZZ_REQUESTS); the OpenAPI
// property (every accepted body validates against its generated schema) at the same run count,
// and the webhook tampering properties at 2,000 signed deliveries per provider and host
// (FUZZ_WEBHOOK_RUNS).
import { spawnSync } from 'node:child_process'

const runs = process.argv[2] ?? process.env.FUZZ_RUNS ?? '20000'
const requests = process.env.FUZZ_REQUESTS ?? '100000'
const webhookRuns = process.env.FUZZ_WEBHOOK_RUNS ?? '2000'
const suites = [
  'test/engine/parity.test.ts',
  'test/engine/parity-valibot.test.ts',
  'test/engine/parity-yup.test.ts',
  'test/runtime/guards/properties.test.ts',
  'test/adapters/yup/linear-patterns.test.ts',
  'test/adapters/yup/linear-schema.test.ts',
  'test/e2e/hostile.test.ts',
  'test/openapi/generate/schema-property.test.ts',
  'test/e2e/webhook-properties.test.ts',
  'test/testing/arbitrary/arbitrary.test.ts',
  'test/e2e/fuzz-routes.test.ts',
  'test/e2e/demo-fuzz.test.ts',
]
// Runs grow a hundredfold here: a test's default 5-second limit is no measure of a hang any more.
const timeout = '600000'
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'unit',
    '--project',
    'e2e',
    `--testTimeout=${timeout}`,
    `--hookTimeout=${timeout}`,
    ...suites,
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: runs,
      FUZZ_REQUESTS: requests,
      FUZZ_WEBHOOK_RUNS: webhookRuns,
    },
    shell: process.platform === 'win32',
  },
)
process.exit(run.status ?? 1)
