/**
 * The in-memory database behind the emulated API: named tables of JSON rows,
 * with a journal so that a request that fails changes nothing.
 *
 * Every write made inside `db.transaction(fn)` records how to undo itself; if
 * `fn` throws, the journal is replayed backwards. Rows are plain JSON values so
 * the whole database can be exported, imported and persisted as a snapshot.
 *
 * The tables, the journal and transactions are in journaled-tables.ts (the
 * base class), a table in table.ts, commits in commits.ts; this file adds the
 * snapshots: export, the checked import (whole or streamed), the trusted
 * load of this build's own files, and journal rows applied at startup.
 */
import { Table } from './table.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError, type Snapshot, type TableColumns, type RowsNow, type SnapshotImporter, type ExportProblem } from './snapshot-format.ts'
import type { CommitRow } from './commits.ts'
import { JournaledTables } from './journaled-tables.ts'

export class Database extends JournaledTables {
  /**
   * Apply committed rows (from a journal written by a CommitHook) outside a
   * transaction, checking each row against its table's schema first; on any
   * problem nothing changes and a SnapshotError says what is wrong.
   * `trusted`: rows this build wrote itself, checksummed on disk, are taken
   * as they are (no schema check: loading stays fast).
   */
  applyRows(rows: readonly CommitRow[], options: { trusted?: boolean } = {}): void {
    const checked: Array<[Table<unknown>, string, unknown]> = []
    for (const [index, entry] of rows.entries()) {
      if (this.retired.has(entry.table)) continue
      const table = this.tableNamed(entry.table)
      if (!table) throw new SnapshotError(`Unknown table "${entry.table}" in change ${index}.`)
      if (entry.row === null || options.trusted) {
        checked.push([table, entry.id, entry.row])
        continue
      }
      const result = table.schema.safeParse(entry.row)
      if (!result.success) {
        const issue = result.error.issues[0]
        throw new SnapshotError(`Table "${entry.table}" row "${entry.id}" is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}.`)
      }
      checked.push([table, entry.id, result.data])
    }
    for (const [table, id, row] of checked) {
      if (row === null) table.delete(id)
      else table.set(id, row)
    }
  }

  snapshot(now = new Date()): Snapshot {
    const tables: Snapshot['tables'] = {}
    for (const [name, table] of this.#snapshotTables()) tables[name] = table.dump()
    return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt: now.toISOString(), tables }
  }

  /**
   * The rows `snapshot` would hold, as columns (see RowsNow). Rows are
   * immutable, so they stay as they are now while later writes go on.
   */
  rowsNow(now = new Date()): RowsNow {
    return { exportedAt: now.toISOString(), tables: this.#snapshotTables().map(([, table]) => table.columns()) }
  }

  #snapshotTables(): Array<[string, Table<unknown>]> {
    // An empty table of a family (made on first use) is as good as none: a reload from saved rows would not make it.
    return [...this.tablesByName].filter(([name, table]) => table.size > 0 || !this.families.some(([pattern]) => pattern.test(name)))
  }

  /**
   * Replace the whole database with a snapshot, after checking all of it:
   * the format marker, the version, that every table is known, and every
   * row against its table's schema. On any problem nothing changes and a
   * SnapshotError says what is wrong (the first problem `checkExport` finds).
   */
  restore(input: unknown): void {
    const { problems, staged } = this.#checkExport(input)
    if (problems.length > 0) throw new SnapshotError((problems[0] as ExportProblem).message)
    this.#loadAll(staged)
  }

  /**
   * Every problem `restore` would refuse `input` for, in the order it finds
   * them, and the rows that pass, per table in the input's order: a damaged
   * file's report names each bad row, and its recovered copy keeps the rest.
   * A problem with the whole document (not an export, another version) comes
   * alone, with no rows.
   */
  checkExport(input: unknown): { problems: ExportProblem[]; tables: Array<[string, Array<[string, unknown]>]> } {
    const { problems, staged } = this.#checkExport(input)
    return { problems, tables: [...staged.values()].map((columns) => [columns.name, columns.ids.map((id, i) => [id, columns.rows[i]])]) }
  }

  #checkExport(input: unknown): { problems: ExportProblem[]; staged: Map<Table<unknown>, TableColumns> } {
    const staged = new Map<Table<unknown>, TableColumns>()
    const refused = (message: string) => ({ problems: [{ message }], staged })
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return refused('Not a Ringside database export: expected a JSON object.')
    const snap = input as Partial<Snapshot>
    const header = this.#headerProblem(snap.format, snap.version)
    if (header) return refused(header)
    if (typeof snap.tables !== 'object' || snap.tables === null || Array.isArray(snap.tables)) return refused('Corrupt export: "tables" must be an object.')
    const problems: ExportProblem[] = []
    for (const [name, rows] of Object.entries(snap.tables)) {
      const table = this.#importTable(name, rows)
      if (table === 'retired') continue
      if (typeof table === 'string') {
        problems.push({ message: table, table: name })
        continue
      }
      for (const [index, entry] of (rows as unknown[]).entries()) {
        const problem = table.add(entry, index)
        if (problem) problems.push({ message: problem, table: name, row: index })
      }
      staged.set(table.table, table.columns)
    }
    return { problems, staged }
  }

  /** Why an export's "format" and "version" are not this build's, or undefined. */
  #headerProblem(format: unknown, version: unknown): string | undefined {
    if (format !== SNAPSHOT_FORMAT) return `Not a Ringside database export: "format" must be "${SNAPSHOT_FORMAT}".`
    if (version !== SNAPSHOT_VERSION) return `Unsupported export version ${JSON.stringify(version)}; this build reads version ${SNAPSHOT_VERSION}.`
    return undefined
  }

  /**
   * An export's table, ready to take its rows one at a time (each checked
   * against the table's schema, and for a repeated id): 'retired' for a
   * table whose rows are dropped, or the problem with it.
   */
  #importTable(name: string, rows: unknown): 'retired' | string | { table: Table<unknown>; columns: TableColumns & { ids: string[]; rows: unknown[] }; add(entry: unknown, index: number): string | undefined } {
    if (this.retired.has(name)) return 'retired'
    const table = this.tableNamed(name)
    if (!table) return `Corrupt export: unknown table "${name}".`
    if (!Array.isArray(rows)) return `Corrupt export: table "${name}" must be an array of [id, row] pairs.`
    const columns = { name, ids: [] as string[], rows: [] as unknown[] }
    const seen = new Set<string>()
    return {
      table,
      columns,
      add(entry, index) {
        if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') return `Corrupt export: table "${name}" row ${index} is not an [id, row] pair.`
        if (seen.has(entry[0])) return `Corrupt export: table "${name}" has id "${entry[0]}" twice.`
        seen.add(entry[0])
        const result = table.schema.safeParse(entry[1])
        if (!result.success) {
          const issue = result.error.issues[0]
          return `Corrupt export: table "${name}" row "${entry[0]}" is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}.`
        }
        columns.ids.push(entry[0])
        columns.rows.push(result.data)
        return undefined
      },
    }
  }

  /**
   * `restore`, fed a piece at a time (an import read as it streams): each
   * row is checked as it comes, exactly as `restore` checks it, and only the
   * checked row is kept, so the rows are never held twice. Every method
   * throws SnapshotError at the first problem; nothing changes until `load`.
   */
  importer(): SnapshotImporter {
    const staged = new Map<Table<unknown>, TableColumns>()
    const names = new Set<string>()
    let current: { add(entry: unknown, index: number): string | undefined } | null = null
    let index = 0
    let header = false
    let rows = 0
    return {
      header: (format, version) => {
        const problem = this.#headerProblem(format, version)
        if (problem) throw new SnapshotError(problem)
        header = true
      },
      table: (name, isArray = true) => {
        if (!header) throw new SnapshotError('Not a Ringside database export: "format" and "version" must come before "tables".')
        if (names.has(name)) throw new SnapshotError(`Corrupt export: table "${name}" appears twice.`)
        names.add(name)
        const table = this.#importTable(name, isArray ? [] : null)
        if (typeof table === 'string' && table !== 'retired') throw new SnapshotError(table)
        index = 0
        current = table === 'retired' ? { add: () => undefined } : table
        if (typeof table !== 'string') staged.set(table.table, table.columns)
      },
      row: (entry) => {
        if (current === null) throw new SnapshotError('Corrupt export: a row outside any table.')
        const problem = current.add(entry, index++)
        if (problem) throw new SnapshotError(problem)
        rows++
      },
      get rows() {
        return rows
      },
      load: () => {
        if (!header) throw new SnapshotError(`Not a Ringside database export: "format" must be "${SNAPSHOT_FORMAT}".`)
        this.#loadAll(staged)
      },
    }
  }

  /**
   * Replace the whole database with rows this build wrote itself (a
   * checksummed snapshot file), as columns: tables are checked to exist,
   * rows are taken as they are (no schema check, so that a large snapshot
   * loads fast).
   */
  restoreTrusted(tables: Iterable<TableColumns>): void {
    const staged = new Map<Table<unknown>, TableColumns>()
    for (const columns of tables) {
      if (this.retired.has(columns.name)) continue
      const table = this.tableNamed(columns.name)
      if (!table) throw new SnapshotError(`Unknown table "${columns.name}".`)
      staged.set(table, columns)
    }
    this.#loadAll(staged)
  }

  /** Empty every table (journaled: a failed transaction brings the rows back). */
  clear(): void {
    this.#loadAll(new Map())
  }

  #loadAll(staged: ReadonlyMap<Table<unknown>, TableColumns>): void {
    for (const table of this.tablesByName.values()) {
      const columns = staged.get(table)
      table.load(columns?.ids ?? [], columns?.rows ?? [])
    }
    this.changedOutsideTransaction()
  }
}
