import { describe } from 'vitest'
import { recipeExample } from './recipe-example.js'

// docs/testing.md's unit-testing examples are tests themselves: imported while this file is
// collected, their it() calls register here and run as they are written in the guide.

describe('docs/testing.md: unit-testing a handler with the doubles', async () => {
  await recipeExample('testing-doubles', 'express 5')
})

describe('docs/testing.md: unit-testing a handle() route', async () => {
  await recipeExample('testing-handle', 'express 5')
})
