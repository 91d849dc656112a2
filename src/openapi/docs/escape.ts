const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)
}

const SCRIPT_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * JSON for a `<script type="application/json">` element: no `<`, `>` or `&` is left, so nothing
 * can close the element or open a comment, and U+2028/2029 and lone surrogates are `\u` escapes
 * (JSON.stringify escapes the latter itself), so `JSON.parse(el.textContent)` gives the value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] ?? c)
}

/** CSS for a `<style>` element: `<` becomes the CSS escape `\3c `, so `</style` cannot close it. */
export function cssForStyle(css: string): string {
  return css.replace(/</g, '\\3c ')
}
