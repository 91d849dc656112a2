import type { ExportVariable } from './model.js'
import { identifier } from './text.js'

/** The collection's variables: one name per key, unique after sanitising, in first-use order. */
export interface VariableTable {
  /** The variable for `key`, created with `wanted` as its name (made unique) on first use. */
  name(key: string, wanted: string, value: string, secret: boolean, description: string): string
  readonly list: ExportVariable[]
}

export function variableTable(): VariableTable {
  const byKey = new Map<string, string>()
  const used = new Set<string>()
  const list: ExportVariable[] = []
  return {
    list,
    name(key, wanted, value, secret, description) {
      const known = byKey.get(key)
      if (known !== undefined) return known
      const base = identifier(wanted, 'value')
      let name = base
      for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}${n}`
      used.add(name.toLowerCase())
      byKey.set(key, name)
      list.push({ name, value, secret, description })
      return name
    },
  }
}
