import { describe, expect, it, vi } from 'vitest'

describe('test setup', () => {
  it('lets a test that spies on console keep its output', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    console.warn('expected')
    expect(warn).toHaveBeenCalledWith('expected')
    warn.mockRestore()
  })
})
