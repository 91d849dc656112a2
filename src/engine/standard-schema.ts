/**
 * The Standard Schema v1 interface (https://standardschema.dev), copied as its authors intend so
 * no dependency is needed. Zod, valibot, yup, ArkType, Effect Schema and others implement it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The version of the Standard Schema specification (1). */
  readonly version: 1
  /** The library that wrote the schema (`valibot`, `arktype`, …). */
  readonly vendor: string
  /** Validates a value; may answer with a promise. */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
  /** Phantom types, never set at run time. */
  readonly types?: StandardTypes<Input, Output> | undefined
}

/** The result of `~standard.validate`: a value, or issues. */
export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure

/** A successful Standard Schema validation. */
export interface StandardSuccess<Output> {
  readonly value: Output
  readonly issues?: undefined
}

/** A failed Standard Schema validation. */
export interface StandardFailure {
  readonly issues: readonly StandardIssue[]
}

/** One Standard Schema issue. */
export interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | StandardPathSegment)[] | undefined
}

/** A path segment given as an object. */
export interface StandardPathSegment {
  readonly key: PropertyKey
}

/** The input and output types a Standard Schema carries for type inference. */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input
  readonly output: Output
}

/** The type a Standard Schema accepts. */
export type StandardInput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['input']

/** The type a Standard Schema produces. */
export type StandardOutput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['output']
