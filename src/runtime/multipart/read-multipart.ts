import type { Readable } from 'node:stream'
import Busboy, { type BusboyFileStream, type BusboyInstance } from '@fastify/busboy'
import type { Request } from 'express'
import type { FileField, StoredFile, UploadedFile } from '../../shared/file-field.js'
import { AppError } from '../core/app-error.js'
import { limitError, Violation } from '../guards/guard-errors.js'
import type { GuardLimits } from '../guards/limits.js'
import { MAX_SENT_NAME, safeFilename } from './filename.js'
import { headerMeter } from './header-meter.js'
import { bodyBytes, type MultipartLimits } from './limits.js'
import {
  fileNameTooLong,
  fileTooLarge,
  fileTypeRefused,
  malformed,
  repeatedField,
  tooFewFiles,
  tooManyFiles,
  tooManyParts,
  undeclaredFile,
  unnamedField,
} from './refusals.js'
import { SNIFF_BYTES, typeAllowed, uploadType } from './sniff.js'
import { openSink, type Sink } from './storage.js'

/** What one route's multipart bodies are read by. */
export interface MultipartSpec {
  readonly fields: Readonly<Record<string, FileField>>
  readonly limits: MultipartLimits
  readonly guard: GuardLimits
  /** Text fields that may repeat (an array), and those always made an array, as a query's keys. */
  readonly repeatable: ReadonlySet<string>
  readonly lists: ReadonlySet<string>
  /** The upload directory, when a field stores on disk. */
  readonly dir: string | undefined
}

// The boundary as busboy takes it: the first parameter named exactly `boundary`, unquoted.
const boundaryParam = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i
function boundaryOf(type: string): string {
  const match = boundaryParam.exec(type)
  return match?.[1]?.replace(/\\(.)/g, '$1') ?? match?.[2] ?? ''
}

/** A body read to its end: the text fields and the files, both null-prototype objects. */
export interface Multipart {
  readonly body: Record<string, unknown>
  readonly files: Record<string, unknown>
}

type Kept = UploadedFile | StoredFile

/**
 * Reads a multipart body from `req` as it streams, refusing it (rejecting with its AppError) at
 * the first limit broken, before anything past the limit is kept. `sinks` collects every upload
 * kept, so the caller can remove them when the response ends, whatever happened.
 * @param onBytes told the size of each chunk read, for the drain after a refusal
 */
export function readMultipart(
  req: Request,
  spec: MultipartSpec,
  sinks: Sink[],
  onBytes: (n: number) => void,
): Promise<Multipart> {
  return new Promise((resolve, reject) => {
    const { fields, limits } = spec
    let boy: BusboyInstance
    let boundary = ''
    try {
      boy = new Busboy({
        headers: req.headers as never,
        limits,
        preservePath: true,
        // A file is a part with a filename, or any part of a declared file field.
        isPartAFile: (name, _type, filename) =>
          filename !== undefined || (name !== undefined && Object.hasOwn(fields, name)),
      })
      boundary = boundaryOf(req.headers['content-type']!)
    } catch {
      reject(malformed('multipart/form-data needs a boundary parameter'))
      return
    }
    const body: Record<string, unknown> = Object.create(null)
    const kept: Record<string, Kept[]> = Object.create(null)
    const counts = new Map<string, number>()
    let pending = 0
    let parsed = false
    let settled = false

    function fail(err: AppError): void {
      if (settled) return
      settled = true
      stop()
      for (const sink of sinks) sink.discard()
      reject(err)
    }

    function finish(): void {
      if (settled || !parsed || pending > 0) return
      for (const name in fields) {
        if ((counts.get(name) ?? 0) < fields[name]!.min) {
          fail(tooFewFiles(name, fields[name]!))
          return
        }
      }
      settled = true
      stop()
      resolve({ body, files: filesOf(fields, kept) })
    }

    const meter = headerMeter(boundary, limits.headerSize)
    // The body can never hold more than its route allows: every file at its maxBytes, the text
    // budget and the delimiters. Counted here, so that no part is needed to refuse it.
    const maxBody = bodyBytes(limits, boundary)
    let received = 0
    let textBytes = 0
    function onData(chunk: Buffer): void {
      onBytes(chunk.length)
      if (settled) return
      received += chunk.length
      if (received > maxBody) fail(tooManyParts('bytes', maxBody))
      else if (!meter(chunk)) fail(tooManyParts('header bytes in one part', limits.headerSize))
      else if (!boy.write(chunk)) req.pause()
    }
    const onDrain = () => req.resume()
    const onEnd = () => boy.end()
    // A request cut off (a client that stops mid-file): the body is incomplete.
    const onClose = () => {
      if (!req.complete) fail(malformed('Request was aborted before its body ended'))
    }
    const onError = () => fail(malformed('Request was aborted before its body ended'))
    function stop(): void {
      req.off('data', onData)
      req.off('end', onEnd)
      boy.off('drain', onDrain)
    }

    boy.on('file', (name, stream, filename, _encoding, mime) => {
      // A part cut off by the end of the body: Dicer's error, answered by boy's own.
      stream.on('error', () => fail(malformed()))
      if (settled) return void stream.resume()
      const field = name !== undefined && Object.hasOwn(fields, name) ? fields[name] : undefined
      if (field === undefined) {
        stream.resume()
        return fail(undeclaredFile(name))
      }
      if (filename !== undefined && filename.length > MAX_SENT_NAME) {
        stream.resume()
        return fail(fileNameTooLong(name, MAX_SENT_NAME))
      }
      // A browser sends an empty file input as a part with `filename=""`: counted once it has bytes.
      if (filename !== '' && !admit(name, field)) return void stream.resume()
      pending++
      receive(stream, name, field, filename, mime)
    })

    function admit(name: string, field: FileField): boolean {
      const n = (counts.get(name) ?? 0) + 1
      counts.set(name, n)
      if (n <= field.max) return true
      fail(tooManyFiles(name, field))
      return false
    }

    function receive(
      stream: BusboyFileStream,
      name: string,
      field: FileField,
      filename: string | undefined,
      mime: string,
    ): void {
      let head: Buffer[] = []
      let size = 0
      let sink: Sink | undefined
      let type = ''
      const write = (chunk: Buffer) => {
        if (!sink!.write(chunk)) {
          stream.pause()
          sink!.onDrain(() => stream.resume())
        }
      }
      // The type is checked on the first SNIFF_BYTES, before any byte is kept.
      const start = (): boolean => {
        if (filename === '' && !admit(name, field)) return false
        const first = head.length === 1 ? head[0]! : Buffer.concat(head)
        head = []
        type = uploadType(first.subarray(0, SNIFF_BYTES), mime)
        if (!typeAllowed(type, field.types)) {
          fail(fileTypeRefused(name, field.types!))
          return false
        }
        sink = openSink(field.storage, spec.dir)
        sinks.push(sink)
        sink.onError((err) => fail(AppError.fromUnknown(err)))
        if (first.length > 0) write(first)
        return true
      }
      stream.on('data', (chunk: Buffer) => {
        if (settled) return
        size += chunk.length
        if (size > field.maxBytes) return fail(fileTooLarge(name, field.maxBytes))
        if (sink !== undefined) return write(chunk)
        head.push(chunk)
        if (size >= SNIFF_BYTES) start()
      })
      stream.on('end', () => {
        if (settled) return
        // An empty file input (no file chosen): no file at all, as the browser means it.
        if (sink === undefined && size === 0 && filename === '') {
          pending--
          return finish()
        }
        if (sink === undefined && !start()) return
        sink!.end().then(
          (where) => {
            const file = { name: safeFilename(filename), type, size, ...where } as Kept
            const list = kept[name]
            if (list === undefined) kept[name] = [file]
            else list.push(file)
            pending--
            finish()
          },
          (err: unknown) => fail(AppError.fromUnknown(err)),
        )
      })
    }

    boy.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (settled) return
      if (name === undefined) return fail(unnamedField())
      // Refused as each field arrives, not once the whole body is kept.
      if (valueTruncated || value.length > spec.guard.maxStringLength)
        return fail(limitError(Violation.stringTooLong, 'Body', spec.guard))
      textBytes += name.length + value.length
      if (textBytes > limits.textBytes)
        return fail(tooManyParts('bytes of text fields', limits.textBytes))
      const prior = body[name]
      if (prior === undefined) body[name] = spec.lists.has(name) ? [value] : value
      else if (!spec.repeatable.has(name)) fail(repeatedField(name))
      else if (Array.isArray(prior)) prior.push(value)
      else body[name] = [prior, value]
    })
    boy.on('partsLimit', () => fail(tooManyParts('parts', limits.parts)))
    boy.on('fieldsLimit', () => fail(tooManyParts('fields', limits.fields)))
    boy.on('filesLimit', () => fail(tooManyParts('files', limits.files)))
    boy.on('error', () => fail(malformed()))
    boy.on('finish', () => {
      parsed = true
      finish()
    })
    boy.on('drain', onDrain)
    const source: Readable = req
    source.on('data', onData)
    source.on('end', onEnd)
    source.on('close', onClose)
    source.on('error', onError)
  })
}

// `req.files`: one file or undefined for `file()`, an array (maybe empty) for `file.many()`.
export function filesOf(
  fields: Readonly<Record<string, FileField>>,
  kept: Readonly<Record<string, readonly unknown[]>>,
): Record<string, unknown> {
  const files: Record<string, unknown> = Object.create(null)
  for (const name in fields) {
    const list = kept[name]
    if (fields[name]!.many) files[name] = list ?? []
    else if (list !== undefined) files[name] = list[0]
  }
  return files
}
