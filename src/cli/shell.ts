/** Words as one POSIX shell command line: each quoted unless it is plainly safe. */
export function shellWords(words: readonly string[]): string {
  return words
    .map((word) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ')
}
