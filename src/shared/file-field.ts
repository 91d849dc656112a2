import { checkBoolean, checkKnownKeys, checkString } from './check-option.js'
import { optionError } from './error-codes.js'
import { isObject } from './is-object.js'
import { mediaRange } from './media-type.js'

// A route's `files` slot holds one field per upload, made by `file()` or `file.many()`: the
// runtime reads multipart bodies by it, generateOpenAPI documents it and the fuzzer sends it.

/** Where an upload is kept while the request runs: in memory (`buffer`) or a temporary file (`path`). */
export type FileStorage = 'memory' | 'disk'

/** The options of `file()`. */
export interface FileOptions<Storage extends FileStorage = FileStorage> {
  /**
   * Media types accepted, exact (`image/png`) or a family (`image/*`); checked against the type
   * sniffed from the content's first bytes where the format has a signature, else the part's own.
   * A family takes only a type the signature confirmed: a type without one (`image/svg+xml`,
   * `text/csv`) is taken only when listed exactly.
   * @default any type
   */
  readonly types?: readonly string[]
  /** The largest file accepted, in bytes; a larger one is refused with 413 while it streams. @default 10_000_000 */
  readonly maxBytes?: number
  /** The field may be absent. @default false */
  readonly optional?: boolean
  /** `'disk'` writes the upload to a temporary file (`path`), removed when the response ends. @default 'memory' */
  readonly storage?: Storage
  /** What the field is, for the document. */
  readonly description?: string
}

/** The options of `file.many()`: `file()`'s, for each file, and how many files the field takes. */
export interface FileManyOptions<Storage extends FileStorage = FileStorage>
  extends FileOptions<Storage> {
  /** The most files the field takes. @default 10 */
  readonly max?: number
  /** The fewest files the field takes; not with `optional`, which means 0. @default 1, or 0 when `optional` */
  readonly min?: number
}

const fieldMark: unique symbol = Symbol.for('shapeguard.file')

/**
 * One file field of a route's `files`, as `file()` or `file.many()` made it: every option
 * resolved, frozen. `M` tells one file from many, `O` an optional field, `S` the storage.
 */
export interface FileField<
  M extends boolean = boolean,
  O extends boolean = boolean,
  S extends FileStorage = FileStorage,
> {
  readonly [fieldMark]: true
  readonly many: M
  readonly optional: O
  readonly storage: S
  /** The accepted media types, lower-cased; undefined accepts any. */
  readonly types: readonly string[] | undefined
  readonly maxBytes: number
  /** Files the field takes: 0 or 1 for `file()`. */
  readonly min: number
  readonly max: number
  readonly description: string | undefined
}

/** A file uploaded to a field with `storage: 'memory'` (the default), as the handler sees it. */
export interface UploadedFile {
  /** The client's filename, reduced to its last path segment without control characters or separators; may be empty. */
  readonly name: string
  /** The media type sniffed from the content where the format has a signature, else the part's declared type. */
  readonly type: string
  /** Bytes received. */
  readonly size: number
  readonly buffer: Buffer
}

/** A file uploaded to a field with `storage: 'disk'`: a temporary file removed when the response ends. */
export interface StoredFile extends Omit<UploadedFile, 'buffer'> {
  /** The temporary file's absolute path. */
  readonly path: string
}

type FileValue<S> = S extends 'disk' ? StoredFile : UploadedFile

/**
 * What `req.files[name]` holds for a field: a file (`| undefined` when optional); for
 * `file.many()` always an array, empty when no file came.
 */
export type FileOf<F> =
  F extends FileField<infer M, infer O, infer S>
    ? M extends true
      ? FileValue<S>[]
      : O extends true
        ? FileValue<S> | undefined
        : FileValue<S>
    : never

/** The type of `req.files` for a route's `files` slot. */
export type FilesOf<F> = { [K in keyof F]: FileOf<F[K]> }

/** True for a field made by `file()` or `file.many()`. */
export function isFileField(value: unknown): value is FileField {
  return isObject(value) && (value as { [fieldMark]?: unknown })[fieldMark] === true
}

/** The default `maxBytes` of a file field: 10 MB. */
export const defaultMaxBytes = 10_000_000
const defaultMax = 10

const oneKeys = ['types', 'maxBytes', 'optional', 'storage', 'description'] as const
const manyKeys = [...oneKeys, 'max', 'min'] as const

function count(value: unknown, name: string, fallback: number, least: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${name}: must be an integer of at least ${least}`,
    )
  }
  return value
}

function build(options: unknown, many: boolean): FileField {
  const name = many ? 'file.many()' : 'file()'
  if (options !== undefined && !isObject(options)) {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: options must be an object`)
  }
  const o = (options ?? {}) as FileManyOptions
  checkKnownKeys(o, many ? manyKeys : oneKeys, name)
  let types: string[] | undefined
  if (o.types !== undefined) {
    if (!Array.isArray(o.types) || o.types.length === 0) {
      throw optionError(
        'SG_ERR_INVALID_OPTION',
        `shapeguard: ${name}: types must be a non-empty array of media types, e.g. ['image/png', 'image/*']`,
      )
    }
    types = o.types.map((t: unknown, i) => {
      const lower = typeof t === 'string' ? t.trim().toLowerCase() : ''
      if (!mediaRange.test(lower)) {
        throw optionError(
          'SG_ERR_INVALID_OPTION',
          `shapeguard: ${name}: types[${i}] must be a media type, e.g. 'image/png' or 'image/*'`,
        )
      }
      return lower
    })
  }
  const optional = checkBoolean(o.optional, `${name}: optional`) ?? false
  const storage = o.storage ?? 'memory'
  if (storage !== 'memory' && storage !== 'disk') {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: ${name}: storage must be 'memory' or 'disk'`,
    )
  }
  const maxBytes = count(o.maxBytes, `${name}: maxBytes`, defaultMaxBytes, 1)
  const max = many ? count(o.max, `${name}: max`, defaultMax, 1) : 1
  const min = many ? count(o.min, `${name}: min`, optional ? 0 : 1, 0) : optional ? 0 : 1
  if (min > max) {
    throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${name}: min must be at most max`)
  }
  if (optional && min > 0) {
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      `shapeguard: ${name}: optional and min ${min} cannot go together, give one of them`,
    )
  }
  const description = checkString(o.description, `${name}: description`)
  return Object.freeze({
    [fieldMark]: true as const,
    many,
    optional: min === 0,
    storage,
    types: types === undefined ? undefined : Object.freeze(types),
    maxBytes,
    min,
    max,
    description,
  })
}

type Optional<O> = O extends { readonly optional: true } ? true : false
type StorageOf<O> = O extends { readonly storage: 'disk' } ? 'disk' : 'memory'

/**
 * One uploaded file, for a route's `files` slot: `req.files.<name>` is `{ name, type, size,
 * buffer }` (or `path` with `storage: 'disk'`). `file.many()` takes several files under one
 * name, an array in `req.files.<name>`, with `max` (default 10) and `min` (default 1, 0 when
 * `optional`). Throws a TypeError naming a bad option.
 * @example handle({ files: { avatar: file({ types: ['image/png', 'image/jpeg'], maxBytes: 2_000_000 }), photos: file.many({ types: ['image/*'], max: 5 }) } }, handler)
 */
export function file<const O extends FileOptions = {}>(
  options?: O,
): FileField<false, Optional<O>, StorageOf<O>> {
  return build(options, false) as never
}

/**
 * Several files under one field name, an array in `req.files.<name>`.
 * @example handle({ files: { photos: file.many({ types: ['image/*'], max: 5 }) } }, handler)
 */
file.many = function many<const O extends FileManyOptions = {}>(
  options?: O,
): FileField<true, Optional<O>, StorageOf<O>> {
  return build(options, true) as never
}
