import { relative } from 'node:path'
import type { DiffFinding, diffRules } from 'shapeguard/openapi'
import { printable } from '../../shared/printable.js'
import { count } from '../text.js'

/** The two sides as the report names them: their paths as given, and resolved. */
export interface Sides {
  readonly base: string
  readonly head: string
  readonly baseFile: string
  readonly headFile: string
}

type RuleTable = typeof diffRules

const sarifLevel = { breaking: 'error', warning: 'warning', info: 'note' } as const

// A pointer names a document's keys, which may hold a control character or a line separator:
// printable() writes each as \uXXXX so a finding stays on its lines and no line starts with a key
// (a CI log reads `::` at a line's start as a workflow command). Messages come escaped the same way.

function tally(findings: readonly DiffFinding[]): string {
  const n = (level: DiffFinding['level']) => findings.filter((f) => f.level === level).length
  return `${n('breaking')} breaking, ${count(n('warning'), 'warning')}, ${n('info')} info`
}

/** One finding per two lines (level, rule and reason, then where), then the count of `all`. */
export function textReport(
  findings: readonly DiffFinding[],
  all: readonly DiffFinding[],
  sides: Sides,
): string {
  const lines = findings.map(
    (f) =>
      `${f.level.padEnd(8)} ${f.rule}: ${printable(f.message)}\n         at ${f.document === 'base' ? sides.base : sides.head}#${printable(f.pointer)}\n`,
  )
  return `${lines.join('')}diff: ${sides.base} → ${sides.head}: ${tally(all)}\n`
}

// Code scanning reads paths relative to the repository's root, with forward slashes.
const uriOf = (file: string, cwd: string) => relative(cwd, file).split('\\').join('/')

/**
 * SARIF 2.1.0 as GitHub code scanning takes it: each rule with its help, each finding a result at
 * line 1 of its document (a finding has a JSON pointer, not a line) and the pointer as its
 * logical location.
 */
export function sarifReport(
  findings: readonly DiffFinding[],
  rules: RuleTable,
  sides: Sides,
  cwd: string,
  version: string,
): object {
  const ids = Object.keys(rules) as (keyof RuleTable)[]
  const index = new Map(ids.map((id, i) => [id, i]))
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'shapeguard diff',
            version,
            informationUri: 'https://github.com/shapeguard/shapeguard/blob/main/docs/cli.md',
            rules: ids.map((id) => ({
              id,
              name: id.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
              shortDescription: { text: id.replaceAll('-', ' ') },
              fullDescription: { text: rules[id].help },
              help: { text: rules[id].help },
              defaultConfiguration: { level: sarifLevel[rules[id].level] },
              properties: { tags: ['openapi', 'breaking-change'] },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: index.get(f.rule),
          level: sarifLevel[f.level],
          message: { text: printable(f.message) },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  uri: uriOf(f.document === 'base' ? sides.baseFile : sides.headFile, cwd),
                },
                region: { startLine: 1 },
              },
              logicalLocations: [{ fullyQualifiedName: f.pointer, kind: 'member' }],
            },
          ],
          partialFingerprints: { openapiPointer: `${f.rule}:${f.document}:${f.pointer}` },
        })),
      },
    ],
  }
}
