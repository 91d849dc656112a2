// How deep schema comparisons nest (see Nesting in context.ts): past `maxStack` comparisons on
// the stack a pair is compared later, from the top; past `maxInline` schemas nested in place a
// pair is not compared (a `schema-too-deep` finding says so).
export const maxStack = 64
export const maxInline = 64
