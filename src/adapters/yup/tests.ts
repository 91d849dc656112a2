import { type ItemBounds, narrowItems } from '../../engine/ir/bounds.js'
import type { IRBound, IRStringCheck } from '../../engine/ir/types.js'
import { linearEquivalent, linearTestOptions } from './linear-patterns.js'
import type { YupTest } from './yup-test.js'

const isRef = (x: unknown) => typeof x === 'object' && x !== null && '__isYupRef' in x

// Built-in tests read only `this.resolve(param)`; a Ref param is rejected before we get here.
const testContext = { resolve: (x: unknown) => x }

/** Runs a built-in yup test on its own: the value when it passes, undefined otherwise. */
function runTest({ test }: YupTest['OPTIONS']): (s: string) => string | undefined {
  return (s) => (test.call(testContext, s, testContext) === true ? s : undefined)
}

const regexTests = new Set(['matches', 'email', 'url', 'uuid'])
const formatTests = new Set(['datetime', 'datetime_offset', 'datetime_precision'])
// Tests that hold by construction after the matching cast transform (non-strict schemas).
const castTests = new Set(['trim', 'string_case'])

/** Translates a yup string test (UTF-16 lengths, as yup counts); undefined when only yup can run it. */
export function stringTest(t: YupTest, strict: boolean): IRStringCheck | null | undefined {
  // A built-in pattern that backtracks badly is run through its linear-time equivalent.
  const options = linearTestOptions(t.OPTIONS) ?? t.OPTIONS
  const { name = '', params = {} } = options
  if (Object.values(params).some(isRef)) return undefined
  switch (name) {
    case 'required':
      return { kind: 'min_length', value: 1 }
    case 'min':
      return typeof params.min === 'number' ? { kind: 'min_length', value: params.min } : undefined
    case 'max':
      return typeof params.max === 'number' ? { kind: 'max_length', value: params.max } : undefined
    case 'length':
      return typeof params.length === 'number'
        ? { kind: 'length', value: params.length }
        : undefined
  }
  if (castTests.has(name))
    return strict ? { kind: 'format', format: name, run: runTest(options) } : null
  if (regexTests.has(name) && params.regex instanceof RegExp) {
    const re = linearEquivalent(params.regex) ?? params.regex
    // `excludeEmptyString` lives in the test's closure: when it changes nothing, the test is
    // `value.search(regex) !== -1`, which a test from lastIndex 0 reproduces.
    const plain = (options.test('', testContext) === true) === ''.search(re) >= 0
    return plain && !re.sticky
      ? { kind: 'pattern', pattern: re, format: name === 'matches' ? 'regex' : name }
      : { kind: 'format', format: name, run: runTest(options) }
  }
  if (formatTests.has(name)) return { kind: 'format', format: 'datetime', run: runTest(options) }
  return undefined
}

/** Applies a yup number test to the bounds; false when only yup can run it. */
export function numberTest(
  t: YupTest,
  out: { integer: boolean; checks: IRBound<number>[] },
): boolean {
  const { name = '', params = {} } = t.OPTIONS
  const bound = (kind: IRBound<number>['kind'], v: unknown) => {
    if (typeof v !== 'number' || Number.isNaN(v)) return false
    out.checks.push({ kind, value: v })
    return true
  }
  if (name === 'integer') {
    out.integer = true
    return true
  }
  if (name === 'min') return 'more' in params ? bound('gt', params.more) : bound('gte', params.min)
  if (name === 'max') return 'less' in params ? bound('lt', params.less) : bound('lte', params.max)
  return false
}

/** Applies a yup array test to the length bounds; false when only yup can run it. */
export function arrayTest(t: YupTest, len: ItemBounds): boolean {
  const { name = '', params = {} } = t.OPTIONS
  const n = name === 'min' ? params.min : name === 'max' ? params.max : params.length
  if (typeof n !== 'number') return false
  if (name !== 'min' && name !== 'max' && name !== 'length') return false
  narrowItems(len, name === 'max' ? undefined : n, name === 'min' ? undefined : n)
  return true
}
