// Types printed for a reader: each type of src/ that no entry point exports replaced by the
// public type that stands for it, or by the object type or type it names. Used by the options
// reference (scripts/options-reference.ts) and the API reference (scripts/reference/api.ts).
import ts from 'typescript'

/**
 * Types of src/ that no entry point exports, printed as a public type that stands for them (the
 * others are expanded into the object type they name).
 */
export const PUBLIC_FOR: Readonly<Record<string, string>> = {
  // generateOpenAPI()'s `auth` takes what shapeguard({ auth }) takes.
  AuthSchemes: 'AuthConfig',
  // A route's `transform` receives its body schema's output.
  ValidatedBody: 'SchemaOutput<typeof body>',
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

// Prints a type node on one line, without comments, members of an object type separated by `;`.
const printer = ts.createPrinter({ removeComments: true })
const printed = (node: ts.Node) =>
  flat(printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())).replaceAll(
    '; }',
    ' }',
  )

/**
 * A printer of type nodes for a program: `publicNames` are the names the entry points export,
 * `inSrc` whether a declaration is the package's own, `publicFor` internal names to print as a
 * public one.
 */
export function readableTypes(
  checker: ts.TypeChecker,
  publicNames: ReadonlySet<string>,
  inSrc: (node: ts.Node) => boolean,
  publicFor: Readonly<Record<string, string>> = PUBLIC_FOR,
): (node: ts.TypeNode) => string {
  const resolveAlias = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

  /**
   * A type as written, with each type of src/ that no entry point exports replaced by the public
   * type that stands for it (PUBLIC_FOR), or by the object type or the type it names: a reader
   * can look up every name left.
   */
  function readable(node: ts.TypeNode, depth = 0): string {
    const found: [ts.TypeNode, string][] = []
    const walk = (n: ts.Node): void => {
      const r = ts.isTypeReferenceNode(n)
        ? replacement(n, depth)
        : ts.isIndexedAccessTypeNode(n)
          ? // `ResolvedConfig['errors']['onError']`: the type it picks, as the checker names it.
            checker.typeToString(checker.getTypeAtLocation(n)).replace(/ \| undefined$/, '')
          : undefined
      if (r !== undefined) found.push([n as ts.TypeNode, r])
      else ts.forEachChild(n, walk)
    }
    walk(node)
    if (found.length === 0) return printed(node)
    const source = node.getSourceFile().text
    let text = ''
    let at = node.getStart()
    for (const [ref, r] of found) {
      text += source.slice(at, ref.getStart()) + r
      at = ref.getEnd()
    }
    text += source.slice(at, node.getEnd())
    return flat(text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '')).replaceAll(
      '; }',
      ' }',
    )
  }

  function replacement(ref: ts.TypeReferenceNode, depth: number): string | undefined {
    const symbol = checker.getSymbolAtLocation(ref.typeName)
    const target = symbol && resolveAlias(symbol)
    const decl = target?.declarations?.[0]
    if (target === undefined || decl === undefined || !inSrc(decl)) return undefined
    if (publicNames.has(target.name) || ts.isTypeParameterDeclaration(decl)) return undefined
    const mapped = publicFor[target.name]
    if (mapped !== undefined) return mapped
    if (depth > 3) return undefined
    if (ts.isInterfaceDeclaration(decl) && !decl.typeParameters && !decl.heritageClauses) {
      const members = decl.members.map((m) =>
        ts.isPropertySignature(m) && m.type !== undefined
          ? `${m.name.getText()}${m.questionToken ? '?' : ''}: ${readable(m.type, depth + 1)}`
          : flat(m.getText().replace(/\/\*[\s\S]*?\*\//g, '')).replace(/;$/, ''),
      )
      return `{ ${members.join('; ')} }`
    }
    if (ts.isTypeAliasDeclaration(decl) && !decl.typeParameters)
      return readable(decl.type, depth + 1)
    return undefined
  }

  return (node) => readable(node)
}
