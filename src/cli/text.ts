/** `1 route`, `2 routes`. */
export const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Words as one POSIX shell command line: each quoted unless it is plainly safe. */
export function shellWords(words: readonly string[]): string {
  return words
    .map((word) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ')
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
