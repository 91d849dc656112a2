// Writes docs/reference/api.md: every export of every subpath of package.json's `exports`, with
// its declaration printed from the source (internal type names replaced by public ones) and a
// one-line example from scripts/reference/api-examples.ts. test/readme/reference-api.test.ts
// fails when the committed page differs, when an export has no example, and when an example
// does not compile.
import { writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { createProgram, entryPoints } from '../options-reference.js'
import { examples } from './api-examples.js'
import { anchorOf, code, formatted, generatedNote, isMain } from './markdown.js'
import { PUBLIC_FOR, readableTypes } from './readable-types.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const srcDir = resolve(root, 'src')

/** Where the page is written. */
export const outputPath = resolve(root, 'docs/reference/api.md')

export type ExportKind = 'function' | 'class' | 'const' | 'type' | 'interface'

/** One export of one subpath. */
export interface ApiExport {
  readonly subpath: string
  readonly name: string
  readonly kind: ExportKind
  /** Whether it is a value (imported without `type`), a constant or class besides a type too. */
  readonly value: boolean
  /** Its declaration, printed without bodies and comments. */
  readonly signature: string
  /** The first paragraph of its JSDoc. */
  readonly summary: string
  /** The first `@example` of its JSDoc, on one line. */
  readonly jsdocExample: string | undefined
  /** The subpath it is documented under first, when another subpath exports it too. */
  readonly sameAs: string | undefined
}

const PUBLIC_FOR_VALUES = new Set(Object.values(PUBLIC_FOR))
const flat = (text: string) => text.replace(/\s+/g, ' ').trim()
const noComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')

/** `name<…>` in `text`, each replaced by what `by` makes of its top-level type arguments. */
function replaceGeneric(text: string, name: string, by: (args: string[]) => string): string {
  const pattern = new RegExp(`\\b${name}<`, 'g')
  let out = ''
  let at = 0
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    let depth = 1
    let i = m.index + m[0].length
    const args: string[] = []
    let start = i
    for (; i < text.length && depth > 0; i++) {
      const c = text[i]
      if (c === '<' || c === '(' || c === '[' || c === '{') depth++
      else if (c === '>' || c === ')' || c === ']' || c === '}') depth--
      if ((c === ',' && depth === 1) || depth === 0) {
        args.push(text.slice(start, i).trim())
        start = i + 1
      }
    }
    out += text.slice(at, m.index) + by(args)
    at = i
    pattern.lastIndex = i
  }
  return out + text.slice(at)
}

/**
 * Internal generic helpers of the signatures, written out as what they compute: a reader can look
 * up every name left. (Non-generic internal types are expanded by readable-types.ts.)
 */
function publicText(text: string): string {
  let out = replaceGeneric(text, 'SlotOf', ([s, slot]) => `${s}[${slot}]`)
  out = replaceGeneric(out, 'Events', ([e]) => `AsyncGenerator<StreamEvent<${e}>, void, undefined>`)
  out = replaceGeneric(out, 'Items', ([t]) => `AsyncGenerator<${t}, void, undefined>`)
  out = replaceGeneric(out, 'Optional', () => 'boolean')
  out = replaceGeneric(out, 'StorageOf', () => 'FileStorage')
  out = out.replace(/\bS & RouteOptions<S, T>/g, 'RouteDefinition<S, T>')
  out = out.replace(/\bRuleSpec\b/g, '{ readonly level: DiffLevel; readonly help: string }')
  return out.replaceAll('[ ]', '[]')
}

/** Every export of every entry point, in the order each entry file lists them. */
export function readExports(): ApiExport[] {
  const entries = entryPoints()
  const program = createProgram([...entries.values()])
  const checker = program.getTypeChecker()
  const resolveAlias = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const inSrc = (node: ts.Node) => !relative(srcDir, node.getSourceFile().fileName).startsWith('..')

  const modules = [...entries].map(([subpath, file]) => {
    const source = program.getSourceFile(file)
    const module = source && checker.getSymbolAtLocation(source)
    if (module === undefined) throw new Error(`cannot read ${file}`)
    return [subpath, checker.getExportsOfModule(module)] as const
  })
  const publicNames = new Set(modules.flatMap(([, symbols]) => symbols.map((s) => s.name)))
  const readable = readableTypes(checker, publicNames, inSrc)
  // The types, constants and functions declared at the top of a file of src/, not exported.
  const internalNames = new Set<string>()
  for (const file of program.getSourceFiles()) {
    if (!inSrc(file)) continue
    for (const statement of file.statements) {
      const named = statement as { name?: ts.Identifier }
      if (
        named.name !== undefined &&
        ts.isIdentifier(named.name) &&
        !publicNames.has(named.name.text)
      )
        internalNames.add(named.name.text)
      if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations)
          if (ts.isIdentifier(d.name) && !publicNames.has(d.name.text))
            internalNames.add(d.name.text)
    }
  }

  /**
   * A declaration's text with each type node made readable, without comments or bodies; on one
   * line unless `lines` (an interface keeps a member a line).
   */
  function declarationText(decl: ts.Node, lines = false): string {
    const source = decl.getSourceFile().text
    const found: [ts.Node, string][] = []
    const walk = (n: ts.Node): void => {
      if (ts.isBlock(n)) {
        found.push([n, ''])
        return
      }
      // A type node (of a parameter, a return, a property, an alias): printed readable.
      if (n !== decl && isTypeNode(n)) {
        const text = readable(n as ts.TypeNode)
        if (flat(noComments(n.getText())) !== text) {
          found.push([n, text])
          return
        }
      }
      ts.forEachChild(n, walk)
    }
    walk(decl)
    let text = ''
    let at = decl.getStart()
    for (const [node, replacement] of found) {
      text += source.slice(at, node.getStart()) + replacement
      at = node.getEnd()
    }
    text += source.slice(at, decl.getEnd())
    const clean = noComments(text)
    const shown = lines
      ? clean
          .split('\n')
          .filter((line) => line.trim() !== '')
          .join('\n')
      : flat(clean)
    return shown
      .replace(/^export (?:default )?/, '')
      .replace(/ \{ \}$/, '')
      .replace(/\s*=\s*$/, '')
  }

  /** `type Name<Params>`: an alias computed by a conditional, mapped or indexed type. */
  function aliasHead(alias: ts.TypeAliasDeclaration): string {
    const params = alias.typeParameters?.map((p) => flat(noComments(p.getText())))
    return publicText(`type ${alias.name.text}${params ? `<${params.join(', ')}>` : ''}`)
  }

  /** `interface Name<Params>`, for an interface whose members name internal types. */
  function interfaceHead(iface: ts.InterfaceDeclaration): string {
    const params = iface.typeParameters?.map((p) => flat(noComments(p.getText())))
    return `interface ${iface.name.text}${params ? `<${params.join(', ')}>` : ''}`
  }

  /** Whether a text names a type of src/ that no entry point exports. */
  function namesInternal(text: string): boolean {
    return [...text.replace(/'[^']*'/g, '').matchAll(/\b[A-Z]\w*|\b[a-z]\w*(?=\]:)/g)].some(
      ([word]) => internalNames.has(word),
    )
  }

  const computed = (node: ts.TypeNode): boolean =>
    ts.isConditionalTypeNode(node) ||
    ts.isMappedTypeNode(node) ||
    ts.isIndexedAccessTypeNode(node) ||
    ts.isTypeOperatorNode(node)

  const isTypeNode = (n: ts.Node) =>
    ts.isTypeNode(n) && !ts.isExpressionWithTypeArguments(n) && !ts.isTypeParameterDeclaration(n)

  function signatureOf(symbol: ts.Symbol, name: string): { kind: ExportKind; signature: string } {
    const target = resolveAlias(symbol)
    const decls = target.declarations ?? []
    const fn = decls.filter(ts.isFunctionDeclaration)
    if (fn.length > 0) {
      // Overloads when there are, else the implementation.
      const shown = fn.length > 1 ? fn.filter((d) => d.body === undefined) : fn
      return {
        kind: 'function',
        signature: shown
          .map((d) => publicText(declarationText(d).replace(/^declare /, '')))
          .join('\n'),
      }
    }
    const cls = decls.find(ts.isClassDeclaration)
    if (cls !== undefined) {
      const heritage = cls.heritageClauses?.map((h) => flat(h.getText())).join(' ') ?? ''
      return { kind: 'class', signature: `class ${name}${heritage ? ` ${heritage}` : ''}` }
    }
    const iface = decls.find(ts.isInterfaceDeclaration)
    if (iface !== undefined) {
      const text = declarationText(iface, true)
      return { kind: 'interface', signature: namesInternal(text) ? interfaceHead(iface) : text }
    }
    const alias = decls.find(ts.isTypeAliasDeclaration)
    if (alias !== undefined) {
      // An alias a public name stands for is printed as written (`AuthConfig = AuthSchemes<…>`).
      if (PUBLIC_FOR_VALUES.has(name))
        return {
          kind: 'type',
          signature: flat(noComments(alias.getText())).replace(/^export /, ''),
        }
      const variable = decls.find(ts.isVariableDeclaration)
      const constant = variable?.type ? `\nconst ${name}: ${readable(variable.type)}` : ''
      return {
        kind: constant ? 'const' : 'type',
        signature:
          (computed(alias.type) || namesInternal(declarationText(alias, true))
            ? aliasHead(alias)
            : declarationText(alias, true)) + constant,
      }
    }
    const variable = decls.find(ts.isVariableDeclaration)
    if (variable !== undefined) {
      const type = variable.type
        ? readable(variable.type)
        : checker.typeToString(
            checker.getTypeOfSymbol(target),
            variable,
            ts.TypeFormatFlags.NoTruncation,
          )
      return { kind: 'const', signature: publicText(`const ${name}: ${type}`) }
    }
    throw new Error(`${name}: an export of a kind the reference does not know`)
  }

  /** The first `@example` of a symbol's JSDoc, when it is one line. */
  function exampleTag(symbol: ts.Symbol): string | undefined {
    const tag = symbol.getJsDocTags(checker).find((t) => t.name === 'example')
    const text = tag === undefined ? '' : ts.displayPartsToString(tag.text).trim()
    return text === '' || text.includes('\n') ? undefined : text
  }

  const seen = new Map<string, string>()
  const all: ApiExport[] = []
  for (const [subpath, symbols] of modules) {
    for (const symbol of symbols) {
      const { kind, signature } = signatureOf(symbol, symbol.name)
      const target = resolveAlias(symbol)
      const doc = ts.displayPartsToString(target.getDocumentationComment(checker))
      all.push({
        subpath,
        name: symbol.name,
        kind,
        value: (target.flags & ts.SymbolFlags.Value) !== 0,
        signature,
        summary: flat(doc.split(/\n\s*\n/)[0] ?? ''),
        jsdocExample: exampleTag(target),
        sameAs: seen.get(symbol.name),
      })
      if (!seen.has(symbol.name)) seen.set(symbol.name, subpath)
    }
  }
  return all
}

/** The libraries an example may use, by the name it uses them under. */
const libraries: Readonly<Record<string, string>> = {
  z: "import { z } from 'zod'",
  v: "import * as v from 'valibot'",
  yup: "import * as yup from 'yup'",
  fc: "import fc from 'fast-check'",
  express: "import express from 'express'",
  winston: "import winston from 'winston'",
}

/** The names test/readme/api-givens.ts gives the examples. */
export const givenNames = [
  'app',
  'handler',
  'users',
  'User',
  'CreateUser',
  'spec',
  'report',
  'coverage',
  'server',
]

/**
 * An example as a module of its own: imports of the exports it names (from the entry's own subpath
 * when that exports them), of the libraries and of the givens (`givens` is their module's path).
 */
export function exampleModule(entry: ApiExport, all: readonly ApiExport[], givens: string): string {
  const line = examples[entry.name] ?? ''
  const code = line.replace(/'[^']*'|`[^`]*`|\/\/.*$/g, "''")
  const declared = new Set(
    [...code.matchAll(/\b(?:const|let|type|function|class)\s+(\w+)/g)].map((m) => m[1]),
  )
  const used = new Set(
    [...code.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)/g)]
      .map((m) => m[1] ?? '')
      .filter((n) => !declared.has(n)),
  )
  const bySubpath = new Map<string, string[]>()
  for (const name of used) {
    const candidates = all.filter((e) => e.name === name)
    const chosen = candidates.find((e) => e.subpath === entry.subpath) ?? candidates[0]
    if (chosen === undefined) continue
    const spec = chosen.value ? name : `type ${name}`
    bySubpath.set(chosen.subpath, [...(bySubpath.get(chosen.subpath) ?? []), spec])
  }
  const imports = [...bySubpath].map(
    ([subpath, names]) => `import { ${names.join(', ')} } from '${subpath}'`,
  )
  for (const [name, statement] of Object.entries(libraries))
    if (used.has(name)) imports.push(statement)
  const fromGivens = givenNames.filter((n) => used.has(n))
  if (fromGivens.length > 0) imports.push(`import { ${fromGivens.join(', ')} } from '${givens}'`)
  return `${imports.join('\n')}\n${line}\nexport {}\n`
}

const subpathIntro: Readonly<Record<string, string>> = {
  shapeguard:
    'The middleware, routes, responses, errors, logging, webhooks, and the OpenAPI document.',
  'shapeguard/testing':
    'Test doubles, `arbitrary`, `fuzzRoutes` and its reports, the coverage of your tests.',
  'shapeguard/adapters/valibot': 'The valibot adapter.',
  'shapeguard/adapters/yup': 'The yup adapter.',
  'shapeguard/adapters/winston': "A winston logger as shapeguard's logger.",
  'shapeguard/adapters/redis': 'A Redis store for rate limits.',
  'shapeguard/openapi':
    'The OpenAPI document, its diff, the docs pages and the client collections.',
  'shapeguard/client': 'Readers of Server-Sent Events and NDJSON streams, for browsers and Node.',
}

const kindLabel: Readonly<Record<ExportKind, string>> = {
  function: 'Function',
  class: 'Class',
  const: 'Constant',
  type: 'Type',
  interface: 'Interface',
}

/** The page, from the exports as they are now. */
export function apiReference(all: readonly ApiExport[] = readExports()): string {
  const seen = new Map<string, number>()
  const anchorFor = new Map<string, string>()
  const heading = (text: string) => {
    const base = anchorOf(text)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    return n === 0 ? base : `${base}-${n}`
  }
  const subpaths = [...new Set(all.map((e) => e.subpath))]
  const lines = [
    '# API reference',
    '',
    generatedNote(
      "the entry points of package.json's exports and scripts/reference/api-examples.ts",
    ),
    '',
    'Every export of every subpath of the package, with its declaration as the types give it and a',
    'line that uses it. Options objects are described field by field in the',
    '[options reference](../options.md); the `res.*` helpers in [Response helpers](response-helpers.md).',
    '',
    ...subpaths.map((sp) => `- [${code(sp)}](#${anchorOf(sp)}): ${subpathIntro[sp] ?? ''}`),
  ]
  for (const subpath of subpaths) {
    heading(subpath)
    lines.push('', `## ${subpath}`, '', subpathIntro[subpath] ?? '')
    for (const e of all.filter((x) => x.subpath === subpath)) {
      const title = e.kind === 'function' ? `${e.name}()` : e.name
      const anchor = heading(title)
      lines.push('', `### ${title}`, '')
      if (e.sameAs !== undefined) {
        lines.push(
          `The same ${e.kind === 'function' ? 'function' : e.kind} as [${code(e.name)}](#${anchorFor.get(e.name)}) of ${code(e.sameAs)}.`,
        )
        continue
      }
      anchorFor.set(e.name, anchor)
      lines.push(`${kindLabel[e.kind]}.${e.summary ? ` ${e.summary}` : ''}`, '')
      lines.push(
        '<!-- readme: skip a declaration printed from the types, not a program -->',
        '```ts',
      )
      lines.push(e.signature, '```', '')
      lines.push(`For example: ${code(examples[e.name] ?? '')}`)
    }
  }
  return formatted(`${lines.join('\n')}\n`, outputPath)
}

if (isMain(import.meta.url)) {
  const all = readExports()
  writeFileSync(outputPath, apiReference(all))
  console.log(`${relative(root, outputPath)}: ${all.length} exports`)
}
