// Writes docs/options.md, the options reference, from the TypeScript types of the package's public
// entry points and their JSDoc (`npm run docs:options`). test/readme/options-reference.test.ts
// fails when the committed page differs from what this produces.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { anchorOf, formatted } from './reference/markdown.js'
import { PUBLIC_FOR, readableTypes } from './reference/readable-types.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const srcDir = resolve(root, 'src')

/** Where the reference is written. */
export const outputPath = resolve(root, 'docs/options.md')

/**
 * The functions documented, one section each, in the page's order. Functions in one group take
 * the same options type and share a section (the generator checks that they do).
 */
export const SECTIONS: readonly (readonly string[])[] = [
  ['shapeguard'],
  ['handle', 'validate', 'defineRoute'],
  ['file'],
  ['file.many'],
  ['errorHandler'],
  ['notFoundHandler'],
  ['createRouter'],
  ['configureLogger'],
  ['verifyWebhook'],
  ['redisStore'],
  ['health'],
  ['serve'],
  ['closeGracefully'],
  ['yupAdapter'],
  ['generateOpenAPI'],
  ['createDocs'],
  ['serveDocs'],
  ['serveScalar', 'serveRedoc'],
  ['serveSwaggerUI'],
  ['toPostman', 'toInsomnia', 'toBruno'],
  ['arbitrary'],
  ['fuzzRoutes'],
  ['junitReport', 'jsonReport'],
  ['harReport'],
  ['recordCoverage'],
  ['coverageReport'],
  ['mockRequest'],
  ['mockResponse'],
]

/**
 * The guide section that explains each section's options, by the section's first function: a
 * path relative to docs/ and a heading's anchor (test/readme/options-guides.test.ts checks that
 * each reaches a heading).
 */
export const GUIDES: Readonly<Record<string, readonly [title: string, target: string]>> = {
  shapeguard: ['Getting started', 'getting-started.md#the-api'],
  handle: ['Validation', 'validation.md#validation'],
  file: ['Files', 'validation.md#files'],
  'file.many': ['Files', 'validation.md#files'],
  errorHandler: ['Errors', 'responses-and-errors.md#errors'],
  notFoundHandler: ['Router', 'routing.md#router'],
  createRouter: ['Router', 'routing.md#router'],
  configureLogger: ['Logging', 'logging.md#logging'],
  verifyWebhook: ['Webhooks', 'webhooks.md#webhooks'],
  redisStore: [
    'Stores: memory, Redis and your own',
    'rate-limits-and-caching.md#stores-memory-redis-and-your-own',
  ],
  health: ['Health checks', 'production.md#health-checks'],
  serve: ['Graceful shutdown', 'production.md#graceful-shutdown'],
  closeGracefully: ['Graceful shutdown', 'production.md#graceful-shutdown'],
  yupAdapter: ['yup', 'validation.md#yup'],
  generateOpenAPI: ['OpenAPI', 'openapi.md#openapi'],
  createDocs: ['Docs pages', 'docs-pages-and-exports.md#docs-pages'],
  serveDocs: ['Docs pages', 'docs-pages-and-exports.md#docs-pages'],
  serveScalar: ['Docs pages', 'docs-pages-and-exports.md#docs-pages'],
  serveSwaggerUI: ['Docs pages', 'docs-pages-and-exports.md#docs-pages'],
  toPostman: ['Client exports', 'docs-pages-and-exports.md#client-exports'],
  arbitrary: ['Testing', 'testing.md#testing'],
  fuzzRoutes: ['Fuzz your API', 'testing.md#fuzz-your-api'],
  junitReport: ['Reports and replay', 'testing.md#reports-and-replay'],
  harReport: ['Reports and replay', 'testing.md#reports-and-replay'],
  recordCoverage: ['Coverage of your own tests', 'testing.md#coverage-of-your-own-tests'],
  coverageReport: ['Coverage of your own tests', 'testing.md#coverage-of-your-own-tests'],
  mockRequest: ['Testing', 'testing.md#testing'],
  mockResponse: ['Testing', 'testing.md#testing'],
}

/** One option: its dotted name, its type as written, its `@default` and its JSDoc. */
export interface OptionRow {
  readonly name: string
  readonly type: string
  /** The anchor of the section documenting this type, when another section does. */
  readonly link: string | undefined
  readonly required: boolean
  readonly default: string | undefined
  readonly description: string
}

/** The options of one options object; a union of objects gives one table per object. */
export interface OptionTable {
  /** The object type's name, for one variant of a union. */
  readonly variant: string | undefined
  /** The variant's JSDoc. */
  readonly summary: string
  readonly rows: readonly OptionRow[]
}

export interface Section {
  readonly functions: readonly string[]
  readonly heading: string
  /** The subpath the first function is imported from. */
  readonly subpath: string
  /** Each function with its parameters, the options parameter marked. */
  readonly signatures: readonly string[]
  readonly typeName: string
  readonly tables: readonly OptionTable[]
}

export interface Reference {
  readonly sections: readonly Section[]
  /** Exported functions with a parameter typed `…Options` or `…Config` (each needs a section). */
  readonly optionTakers: readonly string[]
  /** Every name the entry points export (a type cell names no other type of src/). */
  readonly publicNames: ReadonlySet<string>
  readonly markdown: string
}

/** The public entry points: package.json's `exports`, mapped onto src/ by tsconfig's `paths`. */
export function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))
  const paths: Record<string, string[]> = JSON.parse(
    readFileSync(resolve(root, 'tsconfig.json'), 'utf8'),
  ).compilerOptions.paths
  const entries = new Map<string, string>()
  for (const key of Object.keys(pkg.exports)) {
    if (key === './package.json') continue
    const name = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`
    const file = sourceOf(name, paths)
    if (file === undefined || !existsSync(resolve(root, file))) {
      throw new Error(`no source file in tsconfig.json's paths for the export ${key}`)
    }
    entries.set(name, resolve(root, file))
  }
  return entries
}

// As TypeScript does: an exact key first, else the `*` key whose prefix matches.
function sourceOf(name: string, paths: Record<string, string[]>): string | undefined {
  if (paths[name] !== undefined) return paths[name][0]
  for (const [key, [target]] of Object.entries(paths)) {
    const prefix = key.slice(0, -1)
    if (key.endsWith('*') && target !== undefined && name.startsWith(prefix)) {
      return target.replace('*', name.slice(prefix.length))
    }
  }
  return undefined
}

export function createProgram(files: readonly string[]): ts.Program {
  const configFile = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root)
  return ts.createProgram({ rootNames: files, options })
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The first sentence of a comment: up to a full stop that ends it (not `e.g.`, not in code). */
export function firstSentence(text: string): string {
  const s = flat(text)
  let code = false
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '`') code = !code
    if (code || c !== '.' || (i + 1 < s.length && s[i + 1] !== ' ')) continue
    if (/(?:^|[\s(])(?:e\.g|i\.e|vs|etc)$/.test(s.slice(0, i))) continue
    return s.slice(0, i + 1)
  }
  return s
}

function generate(): Reference {
  const entries = entryPoints()
  const program = createProgram([...entries.values()])
  const checker = program.getTypeChecker()

  const resolveAlias = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const inSrc = (node: ts.Node) => !relative(srcDir, node.getSourceFile().fileName).startsWith('..')

  // Every exported function of the entry points, by name, with the subpath it is first found in.
  // A function assigned to a property of an exported function (`file.many = function …`) is
  // documented under its dotted name.
  type Fn = ts.FunctionDeclaration | ts.FunctionExpression
  const exported = new Map<string, { subpath: string; decl: Fn }>()
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file)
    const module = source && checker.getSymbolAtLocation(source)
    if (module === undefined) throw new Error(`cannot read ${file}`)
    for (const symbol of checker.getExportsOfModule(module)) {
      const decl = resolveAlias(symbol).declarations?.find(ts.isFunctionDeclaration)
      if (decl === undefined || exported.has(symbol.name)) continue
      exported.set(symbol.name, { subpath, decl })
      for (const member of checker.getTypeOfSymbol(resolveAlias(symbol)).getProperties()) {
        const assigned = member.valueDeclaration?.parent
        if (assigned !== undefined && ts.isBinaryExpression(assigned)) {
          const fn = assigned.right
          if (ts.isFunctionExpression(fn))
            exported.set(`${symbol.name}.${member.name}`, { subpath, decl: fn })
        }
      }
    }
  }

  // Every name an entry point exports: a type cell may name these.
  const publicTypes = new Set<string>()
  for (const file of entries.values()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)
    for (const symbol of module ? checker.getExportsOfModule(module) : [])
      publicTypes.add(symbol.name)
  }

  const typeOf = (p: ts.Symbol) => checker.getTypeOfSymbol(p)
  const isFunctionType = (type: ts.Type) =>
    type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0

  /** The options parameter: the last one that is neither a function nor `unknown`/`object`. */
  function optionsParameter(fn: Fn): ts.ParameterDeclaration {
    const candidates = fn.parameters.filter((p) => {
      const type = checker.getNonNullableType(checker.getTypeAtLocation(p))
      const opaque = ts.TypeFlags.Unknown | ts.TypeFlags.Any | ts.TypeFlags.NonPrimitive
      return !isFunctionType(type) && !(type.flags & opaque) && p.dotDotDotToken === undefined
    })
    const param = candidates.at(-1)
    if (param === undefined) throw new Error(`${fn.name?.text}() takes no options object`)
    return param
  }

  const typeOfParameter = (p: ts.ParameterDeclaration) =>
    checker.getNonNullableType(checker.getTypeAtLocation(p))

  // The options type of every section, so that an option of that type links to its section.
  const sectionOf = new Map<ts.Symbol, string>()
  const found = SECTIONS.map((names) => {
    const fns = names.map((name) => {
      const hit = exported.get(name)
      if (hit === undefined) throw new Error(`${name} is not exported by any entry point`)
      return hit
    })
    const anchor = anchorOf(headingOf(names))
    const symbol = typeOfParameter(optionsParameter(fns[0]!.decl)).getSymbol()
    if (symbol !== undefined && !sectionOf.has(symbol)) sectionOf.set(symbol, anchor)
    return { names, fns, anchor }
  })

  /** An alias of a union with `undefined` (`SchemaSlot`): its other members. */
  function definedMembers(alias: ts.Declaration | undefined): string | undefined {
    if (alias === undefined || !ts.isTypeAliasDeclaration(alias) || !ts.isUnionTypeNode(alias.type))
      return undefined
    const types = alias.type.types
    if (!types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword)) return undefined
    return types
      .filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword)
      .map((t) => flat(t.getText()))
      .join(' | ')
  }

  /**
   * A type reference naming a type parameter, an alias of a union with `undefined` or an alias of
   * a few literals: what it stands for, minus the `undefined` an optional property already allows.
   */
  function referenceText(node: ts.TypeReferenceNode): string | undefined {
    const symbol = checker.getSymbolAtLocation(node.typeName)
    const decl = symbol && resolveAlias(symbol).declarations?.[0]
    const defined = definedMembers(decl)
    if (defined !== undefined) return defined
    if (decl !== undefined && ts.isTypeParameterDeclaration(decl) && decl.constraint) {
      // `body?: B` with `B extends SchemaSlot`: the constraint.
      const c = decl.constraint
      const target = ts.isTypeReferenceNode(c) ? checker.getSymbolAtLocation(c.typeName) : undefined
      const alias = target && resolveAlias(target).declarations?.find(ts.isTypeAliasDeclaration)
      return definedMembers(alias) ?? flat(c.getText())
    }
    const type = checker.getTypeAtLocation(node)
    if (type.isUnion() && type.types.length <= 8 && type.types.every((t) => t.isLiteral())) {
      return type.types
        .map((t) => (t.isStringLiteral() ? `'${t.value}'` : checker.typeToString(t)))
        .join(' | ')
    }
    return undefined
  }

  const isProperty = (d: ts.Declaration): d is ts.PropertySignature | ts.PropertyDeclaration =>
    ts.isPropertySignature(d) || ts.isPropertyDeclaration(d)

  /**
   * Where an option is declared, for its type as written and its JSDoc: a property mapped from a
   * type parameter (a route's slots: `S[K]`) has no declaration of its own, its constraint's has.
   */
  function declaredAs(prop: ts.Symbol, type: ts.Type): ts.Symbol {
    if (prop.declarations?.some(isProperty)) return prop
    for (const part of type.isIntersection() ? type.types : [type]) {
      if (!(part.flags & ts.TypeFlags.IndexedAccess)) continue
      const constraint = checker.getBaseConstraintOfType((part as ts.IndexedAccessType).objectType)
      return (constraint && checker.getPropertyOfType(constraint, prop.name)) ?? prop
    }
    return prop
  }

  function typeText(prop: ts.Symbol, type: ts.Type, nested: boolean): string {
    const decl = prop.declarations?.find(isProperty)
    const node = decl?.type
    if (node === undefined) return checker.typeToString(type)
    // Its keys are listed below it.
    if (nested) return 'object'
    return (ts.isTypeReferenceNode(node) && referenceText(node)) || readable(node)
  }

  const readable = readableTypes(checker, publicTypes, inSrc, PUBLIC_FOR)

  /**
   * Whether an option's type is an options object to list key by key: an object type declared in
   * src/ (every property declared there), not a function, array, Record or index signature, with
   * at least one option that is not a function (a `Logger` is an interface to implement).
   */
  function isOptionsObject(type: ts.Type): boolean {
    if (!(type.flags & ts.TypeFlags.Object) || type.isUnion()) return false
    if (isFunctionType(type) || checker.isArrayType(type) || checker.isTupleType(type)) return false
    if (checker.getIndexInfosOfType(type).length > 0) return false
    const props = checker.getPropertiesOfType(type)
    if (props.length === 0) return false
    const declared = props.every((p) => p.declarations?.some(inSrc) === true)
    const plain = props.some((p) => !isFunctionType(checker.getNonNullableType(typeOf(p))))
    return declared && plain
  }

  function rowsOf(type: ts.Type, prefix: string, path: readonly ts.Type[]): OptionRow[] {
    const rows: OptionRow[] = []
    for (const prop of checker.getPropertiesOfType(type)) {
      const propType = checker.getNonNullableType(typeOf(prop))
      const declared = declaredAs(prop, propType)
      const tags = declared.getJsDocTags(checker)
      const def = tags.find((t) => t.name === 'default')
      const link = propType.getSymbol() && sectionOf.get(propType.getSymbol()!)
      const nested = link === undefined && isOptionsObject(propType) && !path.includes(propType)
      rows.push({
        name: prefix + prop.name,
        type: typeText(declared, propType, nested),
        link,
        required: (prop.flags & ts.SymbolFlags.Optional) === 0,
        default: def === undefined ? undefined : flat(ts.displayPartsToString(def.text)),
        description: flat(ts.displayPartsToString(declared.getDocumentationComment(checker))),
      })
      if (nested) rows.push(...rowsOf(propType, `${prefix}${prop.name}.`, [...path, propType]))
    }
    return rows
  }

  function tablesOf(type: ts.Type): OptionTable[] {
    if (!type.isUnion())
      return [{ variant: undefined, summary: '', rows: rowsOf(type, '', [type]) }]
    return type.types.map((variant) => {
      const symbol = variant.getSymbol()
      if (symbol === undefined || !isOptionsObject(variant))
        throw new Error(`a variant of an options union is not an options object`)
      return {
        variant: symbol.name,
        summary: flat(ts.displayPartsToString(symbol.getDocumentationComment(checker))),
        rows: rowsOf(variant, '', [variant]),
      }
    })
  }

  /** The options parameter's type as written, or its constraint's when it names a type parameter. */
  function typeNode(param: ts.ParameterDeclaration): ts.TypeNode | undefined {
    const node = param.type
    if (node === undefined || !ts.isTypeReferenceNode(node)) return node
    const symbol = checker.getSymbolAtLocation(node.typeName)
    const decl = symbol && resolveAlias(symbol).declarations?.[0]
    return decl !== undefined && ts.isTypeParameterDeclaration(decl)
      ? (decl.constraint ?? node)
      : node
  }

  const sections = found.map(({ names, fns }): Section => {
    let tables: OptionTable[] | undefined
    let typeName = ''
    const signatures = fns.map(({ decl }, i) => {
      const param = optionsParameter(decl)
      const these = tablesOf(typeOfParameter(param))
      if (tables === undefined) {
        tables = these
        typeName = flat(typeNode(param)?.getText() ?? '').replace(/<.*$/, '')
      } else if (JSON.stringify(these) !== JSON.stringify(tables)) {
        throw new Error(
          `${names[i]}() and ${names[0]}() take different options: give each a section`,
        )
      }
      const params = decl.parameters.map((p) => {
        const optional = p.questionToken !== undefined || p.initializer !== undefined
        return `${p.dotDotDotToken ? '...' : ''}${p.name.getText()}${optional ? '?' : ''}`
      })
      return `${names[i]}(${params.join(', ')})`
    })
    return {
      functions: names,
      heading: headingOf(names),
      subpath: fns[0]!.subpath,
      signatures,
      typeName,
      tables: tables ?? [],
    }
  })

  // Exported functions with a parameter whose type is named like an options type.
  const optionTakers = [...exported]
    .filter(([, { decl }]) =>
      decl.parameters.some((p) => {
        const node = p.type
        return (
          node !== undefined &&
          ts.isTypeReferenceNode(node) &&
          /(?:Options|Config)$/.test(node.typeName.getText())
        )
      }),
    )
    .map(([name]) => name)
    .sort()

  return { sections, optionTakers, publicNames: publicTypes, markdown: render(sections) }
}

function headingOf(names: readonly string[]): string {
  return names.map((n) => `\`${n}()\``).join(', ')
}

/** A code span; one holding a backtick is fenced with two (padded only where it starts or ends with one). */
function code(text: string): string {
  if (!text.includes('`')) return `\`${text}\``
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `\`\`${pad}${text}${pad}\`\``
}

// A default that reads as a value (`300`, `'sha256'`, `true`) is code; prose stays prose.
const literal =
  /^(?:-?\d[\d_.]*|'[^']*'|"[^"]*"|true|false|null|undefined|\[\]|\{\}|[\w$.]+\(.*\))$/

function defaultCell(row: OptionRow): string {
  if (row.required) return 'required'
  if (row.default === undefined || row.default === '') return '—'
  return literal.test(row.default) ? code(row.default) : row.default
}

function typeCell(row: OptionRow): string {
  return row.link === undefined ? code(row.type) : `[${code(row.type)}](#${row.link})`
}

/** An option as a list item: its name, type, default or "required", and its whole JSDoc. */
function item(row: OptionRow): string {
  const def = row.required
    ? 'required'
    : row.default === undefined || row.default === ''
      ? undefined
      : `default ${defaultCell(row)}`
  const about = def === undefined ? typeCell(row) : `${typeCell(row)}; ${def}`
  return `- **${code(row.name)}** (${about}): ${row.description}`
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

function render(sections: readonly Section[]): string {
  const lines = [
    '# Options reference',
    '',
    'Every option of the functions that take an options object: its type, its default, and its',
    'JSDoc. A dotted name is an option of the object above it (`logger.level` is',
    '`shapeguard({ logger: { level } })`); "required" means the option must be given. Each section',
    'links the guide that explains its options. This page is generated from the types in `src/` by',
    '`scripts/options-reference.ts`; do not edit it by hand: after changing an option, run',
    '`npm run docs:options` (a test fails until the page matches the types).',
  ]
  for (const s of sections) {
    const signatures = list(s.signatures.map((sig) => `\`${sig}\``))
    const takes = s.signatures.length > 1 ? 'take' : 'takes'
    const article = /^[AEIOU]/.test(s.typeName) ? 'an' : 'a'
    const union = s.tables.length > 1 ? ': one of these objects' : ''
    const guide = GUIDES[s.functions[0] ?? '']
    lines.push('', `## ${s.heading}`, '')
    lines.push(
      `${signatures} (from \`${s.subpath}\`) ${takes} ${article} \`${s.typeName}\`${union}.${guide ? ` Guide: [${guide[0]}](${guide[1]}).` : ''}`,
    )
    for (const t of s.tables) {
      if (t.variant !== undefined) lines.push('', `### \`${t.variant}\``, '', t.summary)
      lines.push('', ...t.rows.map(item))
    }
  }
  return formatted(`${lines.join('\n')}\n`, outputPath)
}

/** Builds the reference from the types (a few seconds: it type-checks the entry points). */
export function optionsReference(): Reference {
  return generate()
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { markdown, sections } = optionsReference()
  writeFileSync(outputPath, markdown)
  const count = sections.reduce((n, s) => n + s.tables.reduce((m, t) => m + t.rows.length, 0), 0)
  console.log(`${relative(root, outputPath)}: ${sections.length} sections, ${count} options`)
}
