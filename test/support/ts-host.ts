import ts from 'typescript'

/**
 * A compiler host that reads `files` (path → source text) from memory and everything else from
 * disk: type tests compile code that is not in the repository without writing it out.
 */
export function inMemoryHost(
  options: ts.CompilerOptions,
  files: ReadonlyMap<string, string>,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (name) => files.has(name) || fileExists(name)
  host.readFile = (name) => files.get(name) ?? readFile(name)
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name)
    return text === undefined
      ? getSourceFile(name, version, ...rest)
      : ts.createSourceFile(name, text, version)
  }
  return host
}
