import type { Request, Response } from 'express'
import { optionError } from '../../shared/error-codes.js'
import { type FileField, isFileField } from '../../shared/file-field.js'
import { isObject } from '../../shared/is-object.js'
import { isAppError, raise } from '../core/app-error.js'
import type { GuardLimits } from '../core/config.js'
import { hasBodyOnWire } from '../core/has-body.js'
import type { Step } from '../core/step.js'
import { guardBody } from '../guards/body-guard.js'
import { routeLimitsFor } from '../guards/limits.js'
import { bodyRead } from '../host/body-read.js'
import { routePatternOf } from '../host/route-pattern.js'
import { drainAfterRefusal } from './drain.js'
import { type MultipartLimits, multipartLimits } from './limits.js'
import { filesOf, type MultipartSpec, readMultipart } from './read-multipart.js'
import { encodedBody, notMultipart, tooFewFiles } from './refusals.js'
import type { Sink } from './storage.js'
import { uploadDirectory } from './storage.js'

/** The text fields of a body schema that take arrays, as `queryArrayKeys` finds them for a query. */
export interface ArrayKeys {
  readonly repeatable: ReadonlySet<string>
  readonly lists: ReadonlySet<string>
}

type Fields = Readonly<Record<string, FileField>>

function checkFiles(files: unknown, name: string): Fields {
  if (!isObject(files) || Array.isArray(files)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${name}: files must be an object of file() fields`,
    )
  }
  for (const key of Object.keys(files)) {
    if (!isFileField(files[key])) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: ${name}: files.${key} must be made by file() or file.many()`,
      )
    }
  }
  return files as Fields
}

// The body was read before this route (multer, express.raw()): a server mistake, answered 500 and
// logged with this text by the error handler; waiting for a body that never comes would hang.
function alreadyRead(req: Request): Error {
  return raise(
    'INTERNAL_ERROR',
    `shapeguard: ${req.method} ${routePatternOf(req) ?? 'a route'} declares files, but its multipart body was already read by another parser (multer, express.raw()…) before it: mount that parser only on routes without files`,
  )
}

const isMultipart = (type: string | undefined): boolean =>
  type !== undefined && /^multipart\/form-data\s*(;|$)/i.test(type.trimStart())

function missingRequired(fields: Fields): Error | undefined {
  for (const name in fields) if (fields[name]!.min > 0) return tooFewFiles(name, fields[name]!)
  return undefined
}

/**
 * The step of a route that declares `files`: reads its `multipart/form-data` body as it streams
 * (see read-multipart.ts), makes the text fields `req.body` (through the body guard) and the
 * uploads `req.files`, and removes every upload kept when the response ends, whatever happened.
 * @param arrayKeys the body schema's array keys: a repeated text field is an array only there
 * @param name the function given the route, as definition errors name it
 */
export function multipartStep(
  files: unknown,
  routeLimits: Partial<GuardLimits> | undefined,
  arrayKeys: ArrayKeys,
  name: string,
): Step {
  const fields = checkFiles(files, name)
  const onDisk = Object.values(fields).some((f) => f.storage === 'disk')
  const limitsFor = routeLimitsFor(routeLimits)
  const bounds = new WeakMap<GuardLimits, MultipartLimits>()
  const boundsFor = (guard: GuardLimits): MultipartLimits => {
    let limits = bounds.get(guard)
    if (limits === undefined) {
      limits = multipartLimits(fields, guard)
      bounds.set(guard, limits)
    }
    return limits
  }
  return function multipart(req: Request, res: Response, config) {
    const guard = limitsFor(config)
    if (!hasBodyOnWire(req)) {
      const missing = missingRequired(fields)
      if (missing !== undefined) throw missing
      ;(req as { files?: unknown }).files = filesOf(fields, {})
      return undefined
    }
    try {
      if (!isMultipart(req.headers['content-type'])) throw notMultipart()
      const encoding = req.headers['content-encoding']
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
        throw encodedBody()
    } catch (err) {
      drainAfterRefusal(req, res, 0)
      throw err
    }
    if (bodyRead(req) === true || req.readableFlowing === true) throw alreadyRead(req)
    const sinks: Sink[] = []
    res.once('close', () => {
      for (const sink of sinks) sink.discard()
    })
    let consumed = 0
    const read = (dir: string | undefined) => {
      const spec: MultipartSpec = {
        fields,
        limits: boundsFor(guard),
        guard,
        repeatable: arrayKeys.repeatable,
        lists: arrayKeys.lists,
        dir,
      }
      return readMultipart(req, spec, sinks, (n) => {
        consumed += n
      })
    }
    const reading = onDisk ? uploadDirectory().then(read) : read(undefined)
    return reading.then(
      (parsed) => {
        req.body = guardBody(parsed.body, guard)
        ;(req as { files?: unknown }).files = parsed.files
      },
      (err: unknown) => {
        if (isAppError(err)) drainAfterRefusal(req, res, consumed)
        throw err
      },
    )
  }
}
