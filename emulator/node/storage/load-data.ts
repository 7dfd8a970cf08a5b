/**
 * Loading a data folder (see data-folder.ts) into a database, strictly:
 * damage stops the server with the file, the line and the reason, keeps the
 * files as they are, and writes a recovered copy of everything readable
 * beside them. The one exception is a torn last journal line: a crash in the
 * middle of an append, which was never acknowledged. The server then starts,
 * says so, and keeps the damaged file. A `snapshot.json` of an older build
 * (one JSON document, the export format) still loads; the first compaction
 * replaces it. A damaged one is read line by line, like the line files, for
 * the recovered copy; one that parses but breaks a table's rules is damage
 * too, each bad row named by its line.
 */
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Database } from '../../core/index.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError, type Snapshot, type TableColumns } from '../../core/index.ts'
import { isLineSnapshot, linesOfFile, pairsOf, parseLineSnapshot, type Damage } from './line-files.ts'
import { describe, removeTempFiles, StorageError, type DataPaths } from './data-folder.ts'
import { writeFileAtomic } from './atomic-write.ts'
import { readJournal, type JournalRead } from './journal-file.ts'
import { exportText, jsonErrorLine, legacyRuleDamage, parseExportLines, truncatedHint } from './export-file.ts'

export interface LoadReport {
  /** What was found: nothing (first run), or a snapshot and this many journal entries. */
  source: 'empty' | 'disk'
  journalEntries: number
  /** Rows in the snapshot. */
  snapshotRows: number
  /** How long reading and applying the files took. */
  ms: number
  /** Problems that were repaired (a torn last line), one sentence each. */
  warnings: string[]
}

/** What `loadData` found that `DiskStorage.start` acts on. */
export interface Loaded {
  /** The journal to go on with; null when a new one starts from a snapshot of the database. */
  journal: JournalRead | null
  compact: boolean
  /** Write the snapshot of an interrupted compaction in the background at start. */
  background: boolean
  /** journal.old.jsonl is left over from an interrupted compaction whose snapshot is on disk. */
  staleOld: boolean
}

/**
 * Load the snapshot and replay the journal(s) into `db` (whose tables must
 * be declared). Throws StorageError for damage, leaving the files as they
 * are and writing a recovered copy of everything readable beside them; a
 * torn last journal line is a warning (the damaged journal is copied
 * aside, when `locked`, and the line dropped at `start`). Temp files a
 * crash left are removed when `locked` (the folder is this process's).
 */
export function loadData(paths: DataPaths, db: Database, locked: boolean): { report: LoadReport; loaded: Loaded; snapshotBytes: number | undefined } {
  let snapshotBytes: number | undefined
  const began = performance.now()
  const warnings: string[] = []
  const damage: Array<Damage & { file: string }> = []
  const { snapshot, legacySnapshot, journal, oldJournal } = paths
  if (locked) removeTempFiles(paths)

  // The snapshot: this build's line format, or an older build's JSON document.
  let generation: unknown = undefined
  /** Entries at the start of the journal that the snapshot already holds. */
  let skip = 0
  let snapshotTables: TableColumns[] = []
  /** An older build's snapshot.json, as [id, row] pairs per table. */
  let legacyTables: Array<[string, Array<[string, unknown]>]> = []
  let legacy = false
  const lineFile = existsSync(snapshot) && (snapshot !== legacySnapshot || isLineSnapshot(firstLine(snapshot)))
  if (lineFile) {
    snapshotBytes = statSync(snapshot).size
    // Line by line from the file: the text of the whole snapshot is never held.
    const read = parseLineSnapshot(linesOfFile(snapshot))
    generation = read.journalGeneration
    skip = read.journalSkip
    snapshotTables = read.tables
    damage.push(...read.damage.map((d) => ({ ...d, file: snapshot })))
  } else if (existsSync(legacySnapshot)) {
    legacy = true
    const text = readFileSync(legacySnapshot, 'utf8')
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      // Damaged: read it line by line for everything readable (the recovered copy below), and say where.
      const read = parseExportLines(text)
      generation = read.journalGeneration
      legacyTables = read.tables
      // A file of one line (written without a line per row) can only be placed by the parser's error.
      const lineByLine = read.damage.length > 0 && text.trimEnd().includes('\n')
      const found = lineByLine ? read.damage : [{ line: jsonErrorLine(text, error), problem: `not valid JSON (${describe(error)}).${truncatedHint(text)}` }]
      damage.push(...found.map((d) => ({ ...d, file: legacySnapshot })))
    }
    if (damage.length === 0) {
      generation = (parsed as { journalGeneration?: unknown } | null)?.journalGeneration
      try {
        db.restore(parsed)
        legacyTables = Object.entries((parsed as Snapshot).tables)
      } catch (error) {
        const checked = error instanceof SnapshotError ? legacyRuleDamage(db, parsed, text) : undefined
        // Not a Ringside export, or another version's: nothing in it is damaged or readable here.
        if (!checked) throw new StorageError(`${legacySnapshot}: ${describe(error)}`)
        // It reads as JSON but breaks a table's rules: damage like any other, each bad row at its line, the rest recovered.
        legacyTables = checked.tables
        damage.push(...checked.damage.map((d) => ({ ...d, file: legacySnapshot })))
      }
    }
  } else if (existsSync(journal) || existsSync(oldJournal)) {
    throw new StorageError(`${existsSync(journal) ? journal : oldJournal} exists but ${snapshot} does not: the journal only makes sense on top of its snapshot.`)
  }

  // The journals that continue it: journal.old.jsonl (a compaction was under way) then journal.jsonl.
  const old = existsSync(oldJournal) ? readJournal(oldJournal) : null
  const current = existsSync(journal) ? readJournal(journal) : null
  const replay: JournalRead[] = []
  if (old && old.generation === generation) {
    replay.push(old)
    if (current) {
      if (current.after !== old.generation) throw new StorageError(`${journal} does not continue ${oldJournal} (generation ${JSON.stringify(current.after)}, expected ${JSON.stringify(old.generation)}).`)
      replay.push(current)
    }
  } else {
    if (old) warnings.push(`${oldJournal}: ignored a journal left by an interrupted compaction (its changes are already in ${basename(snapshot)}).`)
    if (current && current.generation === generation) replay.push(current)
    else if (current && current.after !== undefined && current.after === generation) {
      throw new StorageError(`${journal} continues a journal of generation ${current.after} that is missing (${oldJournal}): changes between ${basename(snapshot)} and it would be lost.`)
    } else if (current && current.damage.length === 0 && current.generation !== '') {
      warnings.push(`${journal}: ignored a journal left by an interrupted compaction (its changes are already in ${basename(snapshot)}).`)
    } else if (current) replay.push(current)
  }
  for (const [index, read] of replay.entries()) {
    damage.push(...read.damage.map((d) => ({ ...d, file: read.path })))
    // Only the newest journal may end in a torn line; anywhere else it is damage.
    if (read.torn && index < replay.length - 1) damage.push({ ...read.torn, file: read.path })
  }

  if (damage.length > 0) {
    const readable = legacy ? legacyTables : snapshotTables.map((table): [string, Array<[string, unknown]>] => [table.name, pairsOf(table)])
    const recovered = writeRecovered(paths, Object.fromEntries(readable), replay)
    const first = damage[0] as Damage & { file: string }
    const more = damage.length > 1 ? ` (and ${damage.length - 1} more damaged line${damage.length > 2 ? 's' : ''})` : ''
    throw new StorageError(
      `${first.file} line ${first.line}: ${first.problem}${more}. Ringside did not start, so that no data is silently lost; the files are kept as they are. ` +
        `Everything readable was saved to ${recovered}: to start from it, run with --data ${paths.location} --fresh --import ${recovered} (--fresh moves the damaged files aside as *.previous).`,
    )
  }

  if (!legacy && lineFile) {
    try {
      db.restoreTrusted(snapshotTables)
    } catch (error) {
      throw new StorageError(`${snapshot}: ${describe(error)}`)
    }
  }
  let applied = 0
  for (const read of replay) {
    for (const [index, rows] of read.entries.entries()) {
      if (read.generation === generation && index < skip) continue
      try {
        db.applyRows(rows, { trusted: read.checksummed })
      } catch (error) {
        throw new StorageError(`${read.path} entry ${index + 1}: ${describe(error)}`)
      }
      applied++
    }
  }
  const last = replay[replay.length - 1]
  if (last?.torn && locked) {
    const kept = `${last.path}.damaged-${stamp()}`
    copyFileSync(last.path, kept)
    warnings.push(
      `${last.path} line ${last.torn.line}: dropped a torn last line (${last.torn.problem}): a write cut off by a crash, never acknowledged. ` +
        `The journal as it was is kept as ${kept}.`,
    )
  }
  // Go on with the journal when it is whole and this build's; after a compaction a crash cut short (two
  // journals), write the snapshot in the background at start, as that compaction would have.
  const continuing = !legacy && lineFile && current !== null && replay[replay.length - 1] === current && current.damage.length === 0
  const loaded: Loaded = { journal: continuing ? current : null, compact: !continuing, background: continuing && replay.length > 1, staleOld: old !== null && !replay.includes(old) }
  const snapshotRows = snapshotTables.reduce((sum, table) => sum + table.ids.length, 0) + legacyTables.reduce((sum, [, rows]) => sum + rows.length, 0)
  const report: LoadReport = { source: lineFile || legacy ? 'disk' : 'empty', journalEntries: applied, snapshotRows, ms: Math.round(performance.now() - began), warnings }
  return { report, loaded, snapshotBytes }
}

/** Everything readable, as an export file beside the damaged ones; returns its path. */
function writeRecovered(paths: DataPaths, snapshotTables: Record<string, Array<[string, unknown]>>, journals: JournalRead[]): string {
  const tables = new Map<string, Map<string, unknown>>()
  for (const [name, rows] of Object.entries(snapshotTables)) tables.set(name, new Map(rows))
  for (const read of journals) {
    for (const rows of read.entries) {
      for (const { table, id, row } of rows) {
        const map = tables.get(table) ?? tables.set(table, new Map()).get(table)!
        if (row === null) map.delete(id)
        else map.set(id, row)
      }
    }
  }
  const path = join(paths.dir, `recovered-${stamp()}.json`)
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt: new Date().toISOString(), tables: Object.fromEntries([...tables].map(([name, rows]) => [name, [...rows]])) }
  writeFileAtomic(path, exportText(snapshot))
  return path
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}

/** The first line of a file (up to 4 KB). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const text = buffer.subarray(0, readSync(fd, buffer)).toString('utf8')
    const end = text.indexOf('\n')
    return end >= 0 ? text.slice(0, end) : text
  } finally {
    closeSync(fd)
  }
}
