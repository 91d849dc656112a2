import type { IRNode, IRObject } from '../ir/types.js'
import { each, kinds, type Visitor, visit } from '../ir/visit.js'
import type { JsonSchemaOptions } from './json-schema-types.js'

type Io = JsonSchemaOptions['io']

/** Whether an object closes itself to unknown keys in this mode (strict, or strip on output). */
export function closed(node: IRObject, io: Io): boolean {
  return node.unknownKeys === 'strict' || (node.unknownKeys === 'strip' && io === 'output')
}

const closedThrough: Visitor<boolean, Io> = {
  object: closed,
  intersection: (n, io) => allClosed(n.left, io) && allClosed(n.right, io),
  readonly: (n, io) => allClosed(n.inner, io),
  recursive: (n, io) => allClosed(n.node, io),
  pipe: (n, io) => allClosed(io === 'input' ? n.in : n.out, io),
  // Any other kind: not known to end in closed objects only.
  ...each(
    kinds(
      'string number bigint boolean date literal enum null undefined nan unknown never array record tuple set union optional nullable default ref native',
    ),
    () => false,
  ),
}

/**
 * Whether every object an intersection member ends in is closed, so the intersection as a whole
 * admits exactly the keys some member declares (zod rejects a key only when every side does).
 */
export function allClosed(node: IRNode, io: Io): boolean {
  return visit(node, closedThrough, io)
}

/** This module's IR tables, for the test that each has a handler for every kind. */
export const tables = { closedThrough }
