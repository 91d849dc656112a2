import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

// What the tests read from a document by themselves, to compare each export against.

type Json = Record<string, any>

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** One operation as the document states it. */
export interface DocOperation {
  readonly method: string
  readonly path: string
  readonly name: string
  readonly folder: string | undefined
  readonly operation: Json
  readonly pointer: string
  /** Query and header parameters (own and the path item's), `$ref`s followed. */
  readonly parameters: Json[]
  readonly requestBody: Json | undefined
}

function deref(doc: Json, value: any): any {
  let node = value
  for (let i = 0; i < 10 && node && typeof node.$ref === 'string'; i++) {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce((n: any, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
  }
  return node
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

export function operationsOf(doc: any): DocOperation[] {
  const out: DocOperation[] = []
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of Object.keys(item).filter((m) => methods.includes(m))) {
      const operation = item[method] as Json
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) =>
        deref(doc, p),
      )
      out.push({
        method: method.toUpperCase(),
        path,
        name: operation.summary ?? operation.operationId ?? `${method.toUpperCase()} ${path}`,
        folder: operation.tags?.[0],
        operation,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
        parameters,
        requestBody: deref(doc, operation.requestBody),
      })
    }
  }
  return out
}

/** The path with every parameter written `{}`, whatever a tool's syntax for it. */
export function pathShape(path: string): string {
  return path
    .replace(/\{\{[^}]*\}\}/g, '{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/(^|\/):[A-Za-z0-9_]+/g, '$1{}')
}

/**
 * Whether a tool's path (after its base URL variable) is the document's path: a whole-segment
 * parameter may be written in any syntax (`:id`, `{{ _.id }}`, `{{id}}`), a parameter inside a
 * segment (`{id}.json`) as any text, and literal text percent-encoded.
 */
export function pathMatches(actual: string, docPath: string): boolean {
  const mine = actual.split('?')[0]!.split('/')
  const theirs = docPath.split('/')
  if (mine.length !== theirs.length) return false
  return theirs.every((segment, i) => {
    const got = decodeURIComponent(mine[i]!)
    if (/^\{[^}]*\}$/.test(segment)) return /^(:\w+|\{\{[^}]*\}\}|\{[^}]*\})$/.test(got)
    if (!segment.includes('{')) return got === segment
    const pattern = segment
      .split(/\{[^}]*\}/)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')
    return new RegExp(`^${pattern}$`).test(got) || pathShape(got) === pathShape(segment)
  })
}

// OpenAPI 3.0's schema dialect, written as JSON Schema: `nullable`, boolean exclusive bounds.
function from30(node: any): any {
  if (Array.isArray(node)) return node.map(from30)
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) out[key] = from30(value)
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null']
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound]
      delete out[bound]
    } else if (out[flag] === false) delete out[flag]
  }
  return out
}

/** Validates a value against the schema at `pointer` in the document, with ajv and its formats. */
export function schemaValidator(doc: any): (pointer: string, value: unknown) => string[] {
  const is30 = String(doc.openapi).startsWith('3.0')
  const ajv = is30 ? new Ajv({ strict: false }) : new Ajv2020({ strict: false })
  addFormats(ajv)
  ajv.addSchema({ ...(is30 ? from30(doc) : doc), $id: 'doc.json' })
  return (pointer, value) => {
    const validate = ajv.compile({ $ref: `doc.json${pointer}` })
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}

/** The pointer to the schema of the operation's request body for one media type. */
export function bodySchemaPointer(op: DocOperation, mediaType: string): string {
  const body = op.operation.requestBody
  const base = body?.$ref ?? `${op.pointer}/requestBody`
  return `${base}/content/${escapePointer(mediaType)}/schema`
}
