import { toAdapter } from '../../adapters/resolve.js'
import { isAdapter } from '../../engine/adapter.js'
import { withMeta } from '../../engine/ir/meta.js'
import type { IRNode } from '../../engine/ir/types.js'
import { toJsonSchema } from '../../engine/json-schema/json-schema.js'
import type { JsonSchema } from '../../engine/json-schema/json-schema-types.js'
import { isPlainObject } from '../../shared/is-object.js'
import type { WarningSink } from './types.js'

const refPrefix = '#/components/schemas/'

/**
 * Writes the schemas of one document: every schema of any library through the engine's IR into
 * JSON Schema 2020-12, recursive and named ones into the shared `components/schemas`, and a warning
 * for each part documented wider than it validates (the library alone can check it).
 */
export class SchemaWriter {
  /** `components/schemas` of the document being written. */
  readonly components: Record<string, JsonSchema> = {}

  /** Schema objects given in the `components` option, by their name there. */
  private readonly given = new Map<unknown, string>()
  /** Their IR with the name as `meta.id`, one node per IR (so each is written once per mode). */
  private readonly namedIR = new WeakMap<IRNode, IRNode>()

  constructor(private readonly warn: WarningSink) {}

  /**
   * A schema as JSON Schema in `io` mode; `where` names it in warnings (`POST /users body`).
   * `coercion: 'json'` writes a converting leaf as its type or the strings the library reads as
   * it (a JSON body), `target` as the type it converts to (a parameter, a form field).
   */
  write(
    schema: unknown,
    io: 'input' | 'output',
    where: string,
    coercion: 'target' | 'json' = 'target',
  ): JsonSchema {
    if (isPlainJsonSchema(schema)) return schema
    const adapter = toAdapter(schema)
    if (adapter.ir === undefined) {
      this.warn(
        `shapeguard: ${where} is a ${adapter.library} schema shapeguard cannot read (wrap a valibot or yup schema in valibotAdapter() or yupAdapter() to document it); documented as any value`,
      )
      return {}
    }
    return toJsonSchema(this.named(schema, adapter.ir), {
      io,
      coercion,
      definitions: this.components,
      refPrefix,
      onWiden: (w) =>
        this.warn(
          `shapeguard: part of ${where} is checked by ${adapter.library} alone (${w.reason}${w.detail ? `: ${w.detail}` : ''}); documented as any value`,
        ),
      onRename: (id, name) =>
        this.warn(
          `shapeguard: two different schemas of ${where} are named ${JSON.stringify(id)}; the second is documented as ${name}`,
        ),
    })
  }

  /**
   * Names a schema of the `components` option: wherever a route uses that schema object itself
   * (as its body, response, …) it is written once under the name and referenced. Written now in
   * output mode, so it is listed even when no route uses it.
   */
  name(name: string, schema: unknown): void {
    this.given.set(schema, name)
    this.write(schema, 'output', `components.${name}`)
  }

  private named(schema: unknown, ir: IRNode): IRNode {
    const name = this.given.get(schema)
    if (name === undefined) return ir
    let node = this.namedIR.get(ir)
    if (node === undefined) {
      node = withMeta(ir, { id: name })
      this.namedIR.set(ir, node)
    }
    return node
  }
}

/**
 * A JSON Schema object given where a schema is (e.g. a response header's schema): a plain object
 * (a class instance is a schema library's) that is no adapter, Standard Schema or zod schema.
 */
function isPlainJsonSchema(value: unknown): value is JsonSchema {
  return isPlainObject(value) && !isAdapter(value) && !('~standard' in value || '_zod' in value)
}
