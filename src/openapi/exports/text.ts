// Text from the document placed where the tools expand templates. Postman and Bruno expand
// `{{name}}` everywhere (URL, headers, bodies); Insomnia runs Nunjucks (`{{ }}`, `{% %}`, `{# #}`).
// A hostile document could otherwise make a request carry `{{anotherApiSecret}}` from the user's
// environment to its own server, or run an Insomnia template tag.

const opener = /\{(?=[{%#])/g

/** Breaks every template opener (`{{`, `{%`, `{#`) with a space: `{ {`. */
export function inert(text: string): string {
  return wellFormed(text).replace(opener, '{ ')
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The text without lone surrogates (which JSON tools and URL encoders reject). */
export function wellFormed(text: string): string {
  return text.replace(loneSurrogate, '\ufffd')
}

/** JSON text whose strings carry `{` as `\u007b` where it opens a template: same JSON value. */
export function inertJson(json: string): string {
  return json.replace(opener, '\\u007b')
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/** One line of display text: controls become spaces, runs of spaces one, at most `max` chars. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(controls, ' ').replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const unreserved = /[A-Za-z0-9\-._~!$&'()*+,;=@]/

/**
 * A literal piece of a path segment, percent-encoded where a tool would read it as syntax
 * (`:` starts a path variable, `{` a template, `?` and `#` end the path); `%XX` is kept.
 */
export function encodePathText(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) out += ch
    else if (unreserved.test(ch)) out += ch
    else {
      const code = text.codePointAt(i)!
      const char = String.fromCodePoint(code)
      if (char.length === 2) i++
      // A lone surrogate cannot be encoded: it is dropped.
      if (code >= 0xd800 && code <= 0xdfff) continue
      out += encodeURIComponent(char)
    }
  }
  return out
}

const reserved = new Set(['__proto__', 'constructor', 'prototype', '_'])

/**
 * A variable name every tool reads as one identifier: letters, digits and `_`, not starting with
 * a digit, never a name that reaches into JavaScript objects (`__proto__`, `constructor`).
 */
export function identifier(text: string, fallback: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .slice(0, 8)
  if (words.length === 0) return fallback
  let name =
    words[0]! +
    words
      .slice(1)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('')
  name = name.slice(0, 64)
  if (/^[0-9]/.test(name)) name = `_${name}`
  if (reserved.has(name) || name.startsWith('__')) name = `v${name}`
  return name
}

/**
 * A query name or value for a URL's text: what would end or split the query (`&`, `#`, `+`, `%`,
 * `=` in a name, spaces) is percent-encoded, and a `{{variable}}` of ours stays readable. Text
 * from the document reaches here already inert.
 */
export function queryText(text: string, name: boolean): string {
  let out = ''
  for (const ch of text) {
    if (
      ch === '&' ||
      ch === '#' ||
      ch === '+' ||
      ch === '%' ||
      (name && ch === '=') ||
      /\s/.test(ch)
    ) {
      out += encodeURIComponent(ch)
    } else {
      out += ch
    }
  }
  return out
}
