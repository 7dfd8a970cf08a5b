/**
 * The export file: one JSON document (what `ringside export` and
 * GET /_ringside/v1/export give, and what older builds kept as
 * `snapshot.json`), written with one row per line so that a damaged file can
 * be reported by line. Here: writing it, and reading everything readable in
 * a damaged one, with each problem at its line.
 */
import type { Database, Snapshot } from '../../core/index.ts'
import { linesOf, readLine, type Damage } from './line-files.ts'
import { describe } from './data-folder.ts'

/**
 * An export file (one JSON document) with one row per line, so that a
 * damaged file can be reported by line and diffs stay readable.
 */
export function exportText(snapshot: Snapshot): string {
  const { tables, ...head } = snapshot
  const opening = JSON.stringify(head).slice(0, -1)
  const body = Object.entries(tables)
    .map(([name, rows]) => `${JSON.stringify(name)}:[${rows.map((row) => `\n${JSON.stringify(row)}`).join(',')}\n]`)
    .join(',\n')
  return `${opening},"tables":{\n${body}\n}}\n`
}

const NOT_A_PAIR = 'expected an [id, row] pair'

/**
 * Everything readable in a damaged export-shaped file (what `exportText`
 * writes, and what older builds kept as `snapshot.json`): the header line,
 * a line per table name, a line per row. Never throws: returns the rows of
 * every line that reads, and each line that does not (1-based); `lines`
 * holds the line of each table's name and of each of its entries (every
 * line under it that reads as JSON, an [id, row] pair or not).
 */
export function parseExportLines(text: string): {
  journalGeneration: unknown
  tables: Array<[string, Array<[string, unknown]>]>
  lines: Array<{ name: number; rows: number[] }>
  damage: Damage[]
} {
  const tables: Array<[string, Array<[string, unknown]>]> = []
  const lines: Array<{ name: number; rows: number[] }> = []
  const damage: Damage[] = []
  let journalGeneration: unknown
  let current: Array<[string, unknown]> | null = null
  let currentLines: number[] = []
  let closed = false
  let number = 0
  for (const { line } of linesOf(text)) {
    number++
    const trimmed = line.trim()
    if (number === 1) {
      const head = /^(\{.*),"tables":\{$/.exec(trimmed)
      const value = head ? readLine(`${head[1]}}`) : undefined
      if (value && 'value' in value && typeof value.value === 'object' && value.value !== null) journalGeneration = (value.value as { journalGeneration?: unknown }).journalGeneration
      else damage.push({ line: 1, problem: 'not the opening line of a Ringside export' })
      continue
    }
    if (trimmed === '' || trimmed === ']' || trimmed === '],') continue
    if (trimmed === '}}') {
      closed = true
      continue
    }
    const name = /^("(?:[^"\\]|\\.)*"):\[$/.exec(trimmed)
    if (name) {
      const read = readLine(name[1]!)
      current = []
      currentLines = []
      tables.push([String('value' in read ? read.value : name[1]), current])
      lines.push({ name: number, rows: currentLines })
      continue
    }
    const read = readLine(trimmed.endsWith(',') ? trimmed.slice(0, -1) : trimmed)
    if ('problem' in read) damage.push({ line: number, problem: read.problem })
    else if (current === null) damage.push({ line: number, problem: 'a row before any table name' })
    else {
      currentLines.push(number)
      if (!Array.isArray(read.value) || read.value.length !== 2 || typeof read.value[0] !== 'string') damage.push({ line: number, problem: NOT_A_PAIR })
      else current.push(read.value as [string, unknown])
    }
  }
  if (!closed) damage.push({ line: number + (text.endsWith('\n') || text.length === 0 ? 1 : 0), problem: 'the closing "}}" is missing: the file is cut short' })
  return { journalGeneration, tables, lines, damage }
}

/**
 * An older build's snapshot.json that parses but that `restore` refuses (a
 * row that breaks its table's schema, an unknown table, an id twice): each
 * problem at its line, and the rows that pass; undefined when the document
 * as a whole is refused (not an export, another version), which holds
 * nothing to recover. In a file of one row per line (what older builds
 * wrote) a row's problem is at the row's line, a table's at its name's line;
 * in any other layout at the line that starts with the table's name, else 1.
 */
export function legacyRuleDamage(db: Database, parsed: unknown, text: string): { damage: Damage[]; tables: Array<[string, Array<[string, unknown]>]> } | undefined {
  const { problems, tables } = db.checkExport(parsed)
  if (problems.some((problem) => problem.table === undefined)) return undefined
  const layout = parseExportLines(text)
  const rowsOf = (parsed as { tables: Record<string, unknown> }).tables
  const names = Object.keys(rowsOf)
  // The line-per-row reading holds the same tables and entries as the document: its lines are the entries' lines.
  const sameLayout =
    layout.damage.every((d) => d.problem === NOT_A_PAIR) &&
    layout.lines.length === names.length &&
    layout.tables.every(([name], i) => name === names[i] && Array.isArray(rowsOf[name]) && rowsOf[name].length === layout.lines[i]?.rows.length)
  const textLines = text.split('\n')
  const lineOf = (table: string | undefined, row: number | undefined): number => {
    if (table === undefined) return 1
    const at = names.indexOf(table)
    if (sameLayout) {
      const place = layout.lines[at] as { name: number; rows: number[] }
      return row === undefined ? place.name : (place.rows[row] ?? place.name)
    }
    const quoted = JSON.stringify(table)
    const found = textLines.findIndex((line) => line.trimStart().startsWith(`${quoted}:`))
    return found >= 0 ? found + 1 : 1
  }
  return { damage: problems.map((problem) => ({ line: lineOf(problem.table, problem.row), problem: problem.message })), tables }
}

/** The 1-based line of a JSON.parse failure: from the position V8 gives, else the first row line that does not parse, else the last line. */
export function jsonErrorLine(text: string, error: unknown): number {
  const position = /at position (\d+)/.exec(describe(error))
  if (position) return text.slice(0, Number(position[1])).split('\n').length
  const lines = text.split('\n')
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith('[')) continue
    try {
      JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)
    } catch {
      return index + 1
    }
  }
  return text.trimEnd().split('\n').length
}

export function truncatedHint(text: string): string {
  return text.trimEnd().endsWith('}') ? '' : ' The file looks truncated.'
}
