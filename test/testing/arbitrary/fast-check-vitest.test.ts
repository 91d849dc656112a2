import { test } from '@fast-check/vitest'
import { expect } from 'vitest'
import * as z from 'zod'
import { arbitrary } from '../../../src/testing/index.js'

// The README's example, as it runs: arbitrary() inside @fast-check/vitest's test.prop.
const User = z.object({ name: z.string().min(1), email: z.email() })

test.prop([arbitrary(User), arbitrary(User, { mode: 'invalid' })], { numRuns: 50 })(
  'User takes what it should and nothing else',
  (user, miss) => {
    expect(User.safeParse(user).success).toBe(true)
    expect(User.safeParse(miss).success).toBe(false)
  },
)
