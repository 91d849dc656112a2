import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cssForStyle, escapeHtml, jsonForScript } from '../../../src/openapi/docs/escape.js'

describe('jsonForScript', () => {
  it('gives back the same value and leaves nothing that can end or change a script element', () => {
    const text = fc.string({ unit: 'binary' })
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), text, (value, extra) => {
        const doc = { value, extra, breakout: '</script><!--<script>\u2028\u2029\ud800' }
        const out = jsonForScript(doc)
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(doc)))
        expect(out).not.toMatch(/[<>&\u2028\u2029]/)
        expect((out as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true)
      }),
    )
  })
})

describe('escapeHtml', () => {
  it('escapes every character that can end a text node or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;',
    )
  })
})

describe('cssForStyle', () => {
  it('cannot close its style element', () => {
    expect(cssForStyle('a{}</style><script>x</script>')).not.toMatch(/</)
  })
})
