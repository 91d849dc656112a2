import type { YupTest } from './yup-test.js'

// yup 1's `string().url()` pattern, kept as text only to recognise it: it backtracks
// exponentially on recheck's attack strings, so it is never run.
const yupUrlSource = String.raw`^((https?|ftp):)?\/\/(((([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(%[\da-f]{2})|[!\$&'\(\)\*\+,;=]|:)*@)?(((\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5])\.(\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5])\.(\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5])\.(\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5]))|((([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.)+(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.?)(:\d*)?)(\/((([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(%[\da-f]{2})|[!\$&'\(\)\*\+,;=]|:|@)+(\/(([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(%[\da-f]{2})|[!\$&'\(\)\*\+,;=]|:|@)*)*)?)?(\?((([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(%[\da-f]{2})|[!\$&'\(\)\*\+,;=]|:|@)|[\uE000-\uF8FF]|\/|\?)*)?(\#((([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(%[\da-f]{2})|[!\$&'\(\)\*\+,;=]|:|@)|\/|\?)*)?$`

// The same atoms under the same flag (`i`, no `u`), so case folding and code units agree.
const wide = String.raw`\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF`
const unreserved = String.raw`a-z\d\-._~${wide}`
const pct = '%[\\da-f]{2}'
const pchar = `(?:[${unreserved}!$&'()*+,;=:@]|${pct})`
const octet = String.raw`(?:\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5])`

/**
 * yup's URL language, written so that every character has one way to be read. yup's labels may
 * hold dots, so its `(label\.)+` is one label and a dot; its host is then one run of unreserved
 * characters that starts with a letter, digit or wide character, ends with a letter or wide
 * character (before an optional final dot), and somewhere reads such a character, a dot, then a
 * letter or wide character (the label's end and the top label's start), which the lookahead
 * finds in one forward scan. Its path `\/(p+(\/p*)*)?` is `\/(p[p\/]*)?`.
 */
export const linearUrl = new RegExp(
  String.raw`^(?:(?:https?|ftp):)?\/\/` +
    `(?:(?:[${unreserved}!$&'()*+,;=:]|${pct})*@)?` +
    String.raw`(?:${octet}\.${octet}\.${octet}\.${octet}` +
    String.raw`|(?=[${unreserved}]*?[a-z\d${wide}]\.[a-z${wide}])[a-z\d${wide}][${unreserved}]*[a-z${wide}]\.?)` +
    String.raw`(?::\d*)?` +
    String.raw`(?:\/(?:${pchar}(?:${pchar}|\/)*)?)?` +
    String.raw`(?:\?(?:${pchar}|[\uE000-\uF8FF\/?])*)?` +
    String.raw`(?:#(?:${pchar}|[\/?])*)?$`,
  'i',
)

const equivalents = new Map<string, RegExp>([[`/${yupUrlSource}/i`, linearUrl]])

/** The linear-time equivalent of a yup built-in pattern that backtracks badly, else undefined. */
export function linearEquivalent(re: RegExp): RegExp | undefined {
  return equivalents.get(`/${re.source}/${re.flags}`)
}

// Built-in tests read only `this.resolve(param)`.
const testContext = { resolve: (x: unknown) => x }
// Tests already rebuilt here: rebuilding one again would only make a new copy.
const rebuilt = new WeakSet<object>()

/**
 * The options of a yup `matches()` test (url, email, …) rebuilt on the linear equivalent of its
 * pattern; undefined when the pattern has none. Name, message and params stay yup's own.
 */
export function linearTestOptions(options: YupTest['OPTIONS']): YupTest['OPTIONS'] | undefined {
  const re = options.params?.regex
  const linear = re instanceof RegExp ? linearEquivalent(re) : undefined
  if (linear === undefined || rebuilt.has(options.test)) return undefined
  // `matches()` tests `value === '' && excludeEmptyString || value.search(regex) !== -1`; the
  // flag lives in its closure, and the empty string (linear for any pattern) shows it.
  const emptyPasses = options.test.call(testContext, '', testContext) === true
  const test = (value: unknown) => (value === '' && emptyPasses) || linear.test(String(value))
  rebuilt.add(test)
  return { ...options, test }
}
