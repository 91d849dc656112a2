/**
 * The intermediate representation every schema library is translated into. Plain readonly data:
 * the validator compiler, the JSON Schema generator and the tests all read the same objects.
 * Functions appear only where a library's own semantics must be reused verbatim (a default
 * getter, a string normaliser, a format check); a node never hides state.
 */

/**
 * How far the compiled path may be trusted for a node ("fast accept, native reject": the compiled
 * validator decides acceptance, the library itself every rejection).
 * `exact`: compiled acceptance and output equal the native parser's. `stricter`: the compiled path
 * rejects some inputs the native parser accepts (native then decides). `native`: the enclosing
 * request part must run on the native parser only.
 */
export type Safety = 'exact' | 'stricter' | 'native'

/**
 * Documentation carried by a node (title, description, examples, deprecated), and `id`, the name
 * the schema has in an OpenAPI document's `components/schemas` (zod `.meta({ id })`, valibot
 * `metadata({ id })`, yup `.meta({ id })`).
 */
export interface IRMeta {
  readonly id?: string
  readonly title?: string
  readonly description?: string
  readonly examples?: readonly unknown[]
  readonly deprecated?: boolean
}

interface Base<K extends string> {
  readonly kind: K
  readonly safety: Safety
  readonly meta?: IRMeta
}

/** A bound on a number, bigint or date (dates in epoch milliseconds). */
export interface IRBound<V> {
  readonly kind: 'gte' | 'gt' | 'lte' | 'lt' | 'multiple_of'
  readonly value: V
}

/** One step of a string's check list, applied in order to the evolving value. */
export type IRStringCheck =
  | { readonly kind: 'min_length' | 'max_length' | 'length'; readonly value: number }
  /** `format` names the rule for docs: regex, email, uuid, starts_with (with `affix`), … */
  | {
      readonly kind: 'pattern'
      readonly pattern: RegExp
      readonly format: string
      readonly affix?: string
    }
  /** A library's own check: returns the (possibly normalised) string, or undefined to reject. */
  | {
      readonly kind: 'format'
      readonly format: string
      readonly run: (s: string) => string | undefined
    }
  /** A value-changing step (trim, toLowerCase, …) whose function is the library's own. */
  | { readonly kind: 'transform'; readonly name: string; readonly apply: (s: string) => string }

/**
 * Coercion before a leaf's checks: `false` none; `true` JavaScript's own conversion (`String`,
 * `Number`, `BigInt`, `Boolean`, `new Date`) as zod's `coerce` does, on every value; a function is
 * the library's own cast (yup's), run as is on values not already of the node's type (which such a
 * cast leaves unchanged), a throw rejecting the value.
 */
export type IRCoerce = boolean | ((x: unknown) => unknown)

/** String; code-point lengths (`lengthUnit`) unless the library counts UTF-16 units. */
export interface IRString extends Base<'string'> {
  readonly coerce: IRCoerce
  readonly lengthUnit: 'code-point' | 'utf16'
  readonly checks: readonly IRStringCheck[]
}

/** Finite number; `integer` for integer formats; `format` names the format for docs (int32, …). */
export interface IRNumber extends Base<'number'> {
  readonly coerce: IRCoerce
  readonly integer: boolean
  readonly format?: string
  readonly checks: readonly IRBound<number>[]
}

/** BigInt (documented as an int64 integer). */
export interface IRBigInt extends Base<'bigint'> {
  readonly coerce: IRCoerce
  readonly checks: readonly IRBound<bigint>[]
}

/** Boolean; `coerce` is JavaScript truthiness (`Boolean(x)`). */
export interface IRBoolean extends Base<'boolean'> {
  readonly coerce: IRCoerce
}

/** Date instance (documented as a date-time string); bounds in epoch milliseconds. */
export interface IRDate extends Base<'date'> {
  readonly coerce: IRCoerce
  readonly checks: readonly IRBound<number>[]
}

/** One of the listed primitive values (compared with SameValueZero). */
export interface IRLiteral extends Base<'literal'> {
  readonly values: readonly (string | number | boolean | null | undefined | bigint)[]
}

/** One of the listed string or number values. */
export interface IREnum extends Base<'enum'> {
  readonly values: readonly (string | number)[]
}

/** Leaf kinds with no parameters: `unknown` accepts anything (any too), `never` nothing. */
export interface IRSimple extends Base<'null' | 'undefined' | 'nan' | 'unknown' | 'never'> {}

/** Array with item schema and length bounds. */
export interface IRArray extends Base<'array'> {
  readonly item: IRNode
  readonly minItems?: number
  readonly maxItems?: number
  /** yup's output: the input array itself when no item changed, or always (strict schemas). */
  readonly reuseInput?: 'unchanged' | 'always'
}

/**
 * How an object property behaves when the key is absent: `required` rejects; `optional` leaves it
 * out; `defaulted` runs the value node on `undefined` (which yields the default) and writes the key
 * unless the result is undefined and `outputOptional` is set.
 */
export type IRPresence = 'required' | 'optional' | 'defaulted'

/** One declared object property. */
export interface IRProperty {
  readonly key: string
  readonly value: IRNode
  readonly presence: IRPresence
  readonly outputOptional: boolean
}

/** Object: declared properties in output order, then unknown keys per `unknownKeys`. */
export interface IRObject extends Base<'object'> {
  readonly properties: readonly IRProperty[]
  /** strip: drop unknown keys; strict: reject them; catchall: validate them with `catchall`. */
  readonly unknownKeys: 'strip' | 'strict' | 'catchall'
  readonly catchall?: IRNode
  /** Unknown keys the library never copies to the output (valibot: `constructor`, `prototype`). */
  readonly ignoredKeys?: readonly string[]
  /** Unknown keys are the input's own keys only (valibot); else inherited enumerable ones too (zod). */
  readonly ownKeysOnly?: boolean
  /**
   * yup's output. `unchanged`: its cast returns the input object itself when no property changed,
   * otherwise a new object with the properties that are not undefined (in `properties` order), then
   * unknown keys; `always`: nothing is cast (strict schemas), the input is the output.
   */
  readonly reuseInput?: 'unchanged' | 'always'
}

/** Record with string keys (`key` constrains them) and a value schema. */
export interface IRRecord extends Base<'record'> {
  readonly key: IRNode
  readonly value: IRNode
  /** Keys the library never copies to the output (valibot: `constructor`, `prototype`). */
  readonly ignoredKeys?: readonly string[]
}

/** Tuple of fixed required items, then optional `rest` items. */
export interface IRTuple extends Base<'tuple'> {
  readonly items: readonly IRNode[]
  readonly rest?: IRNode
  /** Without `rest`, what the library does with extra items: rejects them (default) or drops them (valibot's plain tuple). */
  readonly extraItems?: 'reject' | 'strip'
}

/** Set of items (documented as an array with uniqueItems). */
export interface IRSet extends Base<'set'> {
  readonly item: IRNode
  readonly minItems?: number
  readonly maxItems?: number
}

/** First option that accepts wins; with `discriminator`, the option is chosen by that key. */
export interface IRUnion extends Base<'union'> {
  readonly options: readonly IRNode[]
  readonly discriminator?: string
}

/** Both sides must accept; outputs are deep-merged. */
export interface IRIntersection extends Base<'intersection'> {
  readonly left: IRNode
  readonly right: IRNode
}

/** Wrappers: `optional` accepts undefined, `nullable` null, `readonly` freezes the output. */
export interface IRWrapper extends Base<'optional' | 'nullable' | 'readonly'> {
  readonly inner: IRNode
}

/**
 * Default applied when the input is undefined (or, per `on`, null); `get` must validate the
 * default itself where the library does (valibot), zod does not.
 */
export interface IRDefault extends Base<'default'> {
  readonly inner: IRNode
  /** Which inputs take the default: `undefined` (absent, the default), `null`, or either. */
  readonly on?: 'undefined' | 'null' | 'nullish'
  /** The default for docs when it is static JSON data, otherwise undefined. */
  readonly value: unknown
  /** Produces the default exactly as the library does (a fresh copy or a function call). */
  readonly get: () => unknown
}

/** The output of `in` is parsed by `out`. */
export interface IRPipe extends Base<'pipe'> {
  readonly in: IRNode
  readonly out: IRNode
}

/** A schema that refers to itself: `node` may contain `ref` nodes with the same `id`. */
export interface IRRecursive extends Base<'recursive'> {
  readonly id: string
  readonly node: IRNode
}

/** A reference to the enclosing `recursive` node with this `id`. */
export interface IRRef extends Base<'ref'> {
  readonly id: string
}

/**
 * Why a node can only run on the library's parser. Consumers branch on this code, never on prose;
 * `unsupported` is a library kind the IR does not model, `unreadable` a schema object the adapter
 * could not read.
 */
export type NativeReason =
  // user code the IR cannot see into
  | 'refine'
  | 'custom'
  | 'transform'
  | 'preprocess'
  | 'codec'
  | 'async'
  // a library rule the compiled path does not reproduce exactly
  | 'check'
  | 'catch'
  | 'fallback'
  | 'prefault'
  | 'nonoptional'
  | 'success'
  | 'strip'
  | 'when'
  | 'lazy'
  | 'variant'
  | 'intersect'
  | 'literal'
  | 'date'
  | 'field'
  | 'mixed'
  | 'one-of'
  | 'not-one-of'
  | 'template-literal'
  | 'exclusive-union'
  | 'empty-union'
  | 'empty-intersect'
  | 'optional-tuple-items'
  | 'record-keys'
  | 'symbol-keys'
  | 'property-presence'
  | 'exact-optional'
  | 'field-order'
  // kinds the IR does not model
  | 'map'
  | 'symbol'
  | 'promise'
  | 'function'
  | 'file'
  | 'unsupported'
  | 'unreadable'

/**
 * Something only the library can run (refine, transform, catch, custom, async, unknown kinds).
 * `inner` describes the accepted input for docs when known; `output` the produced value.
 */
export interface IRNative extends Base<'native'> {
  readonly reason: NativeReason
  /** The library's own name for an `unsupported` kind, for people reading the IR; never branched on. */
  readonly detail?: string
  readonly inner?: IRNode
  readonly output?: IRNode
}

/** Any IR node, discriminated by `kind`. */
export type IRNode =
  | IRString
  | IRNumber
  | IRBigInt
  | IRBoolean
  | IRDate
  | IRLiteral
  | IREnum
  | IRSimple
  | IRArray
  | IRObject
  | IRRecord
  | IRTuple
  | IRSet
  | IRUnion
  | IRIntersection
  | IRWrapper
  | IRDefault
  | IRPipe
  | IRRecursive
  | IRRef
  | IRNative

/** Every `kind` an IR node can have. */
export type IRKind = IRNode['kind']
