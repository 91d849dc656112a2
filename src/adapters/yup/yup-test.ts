/** One test of a yup schema, as yup keeps it (`schema.tests[i]`). */
export interface YupTest {
  readonly OPTIONS: {
    readonly name?: string
    readonly params?: Record<string, unknown>
    readonly test: (this: unknown, value: unknown, ctx: unknown) => unknown
  }
}
