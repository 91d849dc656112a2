/** `1 route`, `2 routes`. */
export const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

// Control characters (C0 and DEL) need bash's $'…' quoting to survive a copy and paste.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const control = /[\x00-\x1f\x7f]/g

/** `word` quoted for a POSIX shell: in '…', or in bash's $'…' when it holds a control character. */
export function shellQuote(word: string): string {
  if (word.search(control) === -1) return `'${word.replaceAll("'", `'\\''`)}'`
  const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  return `$'${word.replace(/[\\']/g, '\\$&').replace(control, hex)}'`
}

/** Words as one POSIX shell command line: each quoted unless it is plainly safe. */
export function shellWords(words: readonly string[]): string {
  return words.map((word) => (/^[\w./:@%+=,-]+$/.test(word) ? word : shellQuote(word))).join(' ')
}

/** `text` broken into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width = 80): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line].join('\n')
}
