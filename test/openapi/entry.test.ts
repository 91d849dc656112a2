import { describe, expect, it } from 'vitest'
import * as main from '../../src/index.js'
import * as openapi from '../../src/openapi/index.js'

describe('generateOpenAPI entry points', () => {
  it('is exported from shapeguard and shapeguard/openapi as one function', () => {
    expect(typeof openapi.generateOpenAPI).toBe('function')
    expect(main.generateOpenAPI).toBe(openapi.generateOpenAPI)
  })
})
