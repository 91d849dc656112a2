// busboy keeps the first `headerSize` bytes of a part's headers and drops the rest without a
// word, so a 1 MB header would pass. This meter watches the body as it streams past, finds each
// delimiter (`\r\n--boundary`) and counts the header bytes up to the blank line after it, until
// the closing delimiter (`--boundary--`), after which an epilogue is no header.

const blankLine = Buffer.from('\r\n\r\n')

/**
 * A function fed every chunk of a multipart body in order; it returns false once a part's
 * headers run past `max` bytes. Searches with `indexOf` over each chunk (no copy), and over a
 * seam of a few bytes where a delimiter may straddle two chunks.
 */
export function headerMeter(boundary: string, max: number): (chunk: Buffer) => boolean {
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1')
  const keep = delimiter.length - 1
  let inHeader = false
  let headerBytes = 0
  // The dashes seen right after a delimiter: two make it the closing one.
  let dashes = 0
  let closed = false
  // The body opens with `--boundary`: the CRLF before it is taken as already seen.
  let tail: Buffer = Buffer.from('\r\n')

  // Where `needle` ends in `chunk`, searching from `from` (and across the seam at 0), or -1.
  function end(chunk: Buffer, needle: Buffer, from: number): number {
    if (from === 0 && tail.length > 0) {
      const seam = Buffer.concat([tail, chunk.subarray(0, needle.length - 1)])
      const i = seam.indexOf(needle)
      if (i >= 0) return i + needle.length - tail.length
    }
    const i = chunk.indexOf(needle, from)
    return i < 0 ? -1 : i + needle.length
  }

  function keepTail(chunk: Buffer, from: number): void {
    const rest = chunk.subarray(from)
    tail =
      rest.length >= keep
        ? Buffer.from(rest.subarray(rest.length - keep))
        : Buffer.concat([tail, rest]).subarray(-keep)
  }

  return (chunk) => {
    if (closed) return true
    let pos = 0
    while (pos < chunk.length) {
      if (inHeader && dashes < 2) {
        if (chunk[pos] !== 0x2d) dashes = 2
        else if (++dashes === 2) {
          closed = true
          return true
        } else {
          pos++
          headerBytes++
          continue
        }
      }
      const found = end(chunk, inHeader ? blankLine : delimiter, pos)
      if (found < 0) {
        if (inHeader) headerBytes += chunk.length - pos
        keepTail(chunk, pos)
        return headerBytes <= max
      }
      if (inHeader) {
        headerBytes += found - pos
        if (headerBytes > max) return false
      }
      inHeader = !inHeader
      headerBytes = 0
      dashes = 0
      tail = Buffer.alloc(0)
      pos = Math.max(found, 0)
    }
    return true
  }
}
