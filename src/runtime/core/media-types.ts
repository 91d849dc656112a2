/** The request media types a guarded route accepts, as every 415 answer lists them in `details`. */
export const contentTypesAllowed: readonly string[] = Object.freeze([
  'application/json',
  'application/*+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
])
