/**
 * The name, version and shapes of an export of the database (`db.ts`
 * writes and checks them, `line-files.ts` reads them). Kept apart from
 * `db.ts` so that a page that only reads a data file, the harness's Database
 * import, does not load the database and its table schemas.
 */
export const SNAPSHOT_FORMAT = 'ringside-crm-db'
export const SNAPSHOT_VERSION = 1

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  exportedAt: string
  tables: Record<string, Array<[string, unknown]>>
}

/** One table's ids and rows in order, in two arrays (ids[i] is the id of rows[i]). */
export interface TableColumns {
  name: string
  ids: readonly string[]
  rows: readonly unknown[]
}

/**
 * What a snapshot holds, as columns: the form in which the server writes
 * its data files. Taking it costs two arrays per table, where a Snapshot
 * costs an [id, row] pair per row.
 */
export interface RowsNow {
  exportedAt: string
  tables: TableColumns[]
}

/** See `Database.importer`. */
export interface SnapshotImporter {
  /** The export's "format" and "version": refused at once unless they are this build's. */
  header(format: unknown, version: unknown): void
  /** The rows that follow belong to this table (a retired table's are dropped); `isArray` false: its value is not an array. */
  table(name: string, isArray?: boolean): void
  /** One [id, row] pair of the current table. */
  row(entry: unknown): void
  /** Rows taken so far. */
  readonly rows: number
  /** Replace the database with the checked rows (inside a transaction, undone if it fails). */
  load(): void
}

/** What `Database.checkExport` found wrong: the message, and where (a table's, or a row's by its index in the table). */
export interface ExportProblem {
  message: string
  table?: string
  row?: number
}

/** Thrown by `restore` for a snapshot that is not ours or is corrupt. */
export class SnapshotError extends Error {
  override name = 'SnapshotError'
}
