import { randomUUID } from 'node:crypto'
import { createWriteStream, type WriteStream } from 'node:fs'
import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FileStorage } from '../../shared/file-field.js'

// Where an upload's bytes go while it streams: a list of chunks (memory), or a temporary file in
// a directory only this process may read (mkdtemp makes it 0o700, each file is 0o600).

let directory: Promise<string> | undefined

// A failed mkdtemp is not kept: the next upload tries again.
function makeDirectory(): Promise<string> {
  const made = mkdtemp(join(tmpdir(), 'shapeguard-uploads-'))
  directory = made
  made.catch(() => {
    if (directory === made) directory = undefined
  })
  return made
}

/**
 * The process's private upload directory, made on the first disk upload, and made anew when a
 * tmp cleaner (systemd-tmpfiles, tmpreaper) removed it.
 */
export async function uploadDirectory(): Promise<string> {
  const current = directory ?? makeDirectory()
  const dir = await current
  try {
    await access(dir)
    return dir
  } catch {
    return directory === current ? makeDirectory() : uploadDirectory()
  }
}

/** One upload being kept: bytes in, then its buffer or its path; `discard` frees it. */
export interface Sink {
  /** False when the caller should wait for `drain` before writing more. */
  write(chunk: Buffer): boolean
  onDrain(resume: () => void): void
  /** Called once if keeping the bytes fails (a full disk): the read fails at once. */
  onError(fail: (err: Error) => void): void
  /** Resolves once every byte is kept (the file flushed and closed). */
  end(): Promise<{ buffer: Buffer } | { path: string }>
  /** Drops what was kept: the chunks, or the file (closed, then removed). */
  discard(): void
}

function memorySink(): Sink {
  let chunks: Buffer[] = []
  return {
    write(chunk) {
      chunks.push(chunk)
      return true
    },
    onDrain() {},
    onError() {},
    end: async () => ({ buffer: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }),
    discard() {
      chunks = []
    },
  }
}

// The file is opened when the first bytes come (after the type check), and removed by `discard`,
// which the request's cleanup calls when the response ends whatever happened.
function diskSink(dir: string): Sink {
  const path = join(dir, randomUUID())
  const out: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o600 })
  // An error (a full disk) fails the read at once: the stream is destroyed, so a 'drain' the
  // upload waits for never comes, and the waiting callback is released here instead.
  let failure: Error | undefined
  let failed: ((err: Error) => void) | undefined
  let waiting: (() => void) | undefined
  out.on('error', (err) => {
    failure = err
    failed?.(err)
    const resume = waiting
    waiting = undefined
    resume?.()
  })
  out.on('drain', () => {
    const resume = waiting
    waiting = undefined
    resume?.()
  })
  let discarded = false
  return {
    write: (chunk) => out.write(chunk),
    onDrain(resume) {
      waiting = resume
    },
    onError(fail) {
      failed = fail
      if (failure !== undefined) fail(failure)
    },
    // Settled once the descriptor is closed, so that a handler never sees a file still open.
    end: () =>
      new Promise((resolve, reject) => {
        if (failure !== undefined) return reject(failure)
        out.once('close', () => (failure === undefined ? resolve({ path }) : reject(failure)))
        out.end()
      }),
    discard() {
      if (discarded) return
      discarded = true
      out.destroy()
      // Removed once closed: unlinking first would leave the descriptor to the close anyway.
      const remove = () => void rm(path, { force: true }).catch(() => {})
      if (out.closed) remove()
      else out.once('close', remove)
    },
  }
}

/** A sink for a field's storage: a disk sink in `dir`, from `uploadDirectory()`. */
export function openSink(storage: FileStorage, dir: string | undefined): Sink {
  return storage === 'disk' && dir !== undefined ? diskSink(dir) : memorySink()
}
