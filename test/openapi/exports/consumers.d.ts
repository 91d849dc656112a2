// The consumers the tests run have no usable types on their package entry (postman-collection's
// own types/index.d.ts is not linked from its package.json and lacks forEachItem; Bruno's packages
// ship none): declared here as far as the tests use them.

declare module 'postman-collection' {
  interface PropertyList<T> {
    all(): T[]
  }
  interface Url {
    path?: string[]
    query: PropertyList<{ key: string; value: string; disabled?: boolean }>
    getHost(): string
    toString(): string
    toJSON(): unknown
  }
  interface Request {
    method: string
    url: Url
    headers: PropertyList<{ key: string; value: string; disabled?: boolean }>
    body?: { mode: string; raw?: string }
    auth?: { type: string }
  }
  class Item {
    name: string
    request: Request
    parent(): unknown
  }
  class Collection {
    constructor(definition?: unknown)
    forEachItem(callback: (item: Item) => void): void
    toJSON(): unknown
  }
  const postman: { Collection: typeof Collection; Item: typeof Item }
  export default postman
}

declare module '@usebruno/converters' {
  export function openApiToBruno(spec: unknown, options?: Record<string, unknown>): any
  export function postmanToBruno(
    collection: unknown,
  ): Promise<{ collection: any; issues: unknown[] }>
}

declare module '@usebruno/schema' {
  export const collectionSchema: { validate(value: unknown): Promise<unknown> }
}

declare module 'openapi-to-postmanv2' {
  const converter: {
    convert(
      input: { type: 'json'; data: unknown },
      options: Record<string, unknown>,
      callback: (
        error: Error | null,
        result: { result: boolean; reason?: string; output: Array<{ data: any }> },
      ) => void,
    ): void
  }
  export default converter
}
