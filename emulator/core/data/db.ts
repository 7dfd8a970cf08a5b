/**
 * The in-memory database behind the emulated API: named tables of JSON rows,
 * with a journal so that a request that fails changes nothing.
 *
 * Every write made inside `db.transaction(fn)` records how to undo itself; if
 * `fn` throws, the journal is replayed backwards. Rows are plain JSON values so
 * the whole database can be exported, imported and persisted as a snapshot.
 *
 * Tables keep insertion order, except that numeric ids (from a sequence) are
 * kept ascending, so `pageAfter` can find a cursor by binary search: listing
 * a page costs O(log n + page), whatever the table's size.
 *
 * Transactions run one at a time (see `transaction`), so concurrent requests
 * never interleave their writes. Durability is a group commit: a finished
 * transaction hands its commit to the commit hooks and frees the queue at
 * once; its promise settles when the hooks have made it durable (see
 * `transaction` and CommitSink).
 */
import { z, type ZodType } from 'zod'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-format.ts'

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

type Undo = () => void

/**
 * Something kept in step with a table's rows (a search index, say): told of
 * every row that comes and goes, by a write, by the undo of a failed
 * transaction and by a load, so it can never disagree with the table.
 */
export interface TableIndex<Row> {
  add(id: string, row: Row): void
  remove(id: string, row: Row): void
  /** Every row is about to be replaced (a load); `add` follows for each new one. */
  clear(): void
}

/** A canonical non-negative integer id, as sequences produce. */
const NUMERIC_ID = /^(0|[1-9]\d*)$/

/** A table of rows keyed by string id. Writes are journaled by its database. */
export class Table<Row> {
  readonly name: string
  readonly schema: ZodType<Row>
  #rows = new Map<string, Row>()
  /** Ids in insertion order; numeric ids ascending (see `set`). */
  #order: string[] = []
  #db: Database
  #indexes: Array<TableIndex<Row>> = []

  constructor(db: Database, name: string, schema: ZodType<Row>) {
    this.#db = db
    this.name = name
    this.schema = schema
  }

  get size(): number {
    return this.#rows.size
  }

  get(id: string): Row | undefined {
    return this.#rows.get(id)
  }

  has(id: string): boolean {
    return this.#rows.has(id)
  }

  /** The row at a position of the table's order (0 is the first), or undefined. */
  at(position: number): Row | undefined {
    const id = this.#order[position]
    return id === undefined ? undefined : this.#rows.get(id)
  }

  /**
   * Keep `index` in step with the rows from now on: it is given every
   * current row now, then every change (writes, undos, loads) as it happens.
   */
  addIndex(index: TableIndex<Row>): void {
    for (const [id, row] of this.entries()) index.add(id, row)
    this.#indexes.push(index)
  }

  /** Stop telling `index` of changes. */
  removeIndex(index: TableIndex<Row>): void {
    this.#indexes = this.#indexes.filter((i) => i !== index)
  }

  #indexed(id: string, removed: Row | undefined, added: Row | undefined): void {
    for (const index of this.#indexes) {
      if (removed !== undefined) index.remove(id, removed)
      if (added !== undefined) index.add(id, added)
    }
  }

  /**
   * Insert or replace a row. A new numeric id lower than the last one (a
   * record moved back from another table) is inserted at its place, so
   * numeric ids stay ascending and `pageAfter` can binary-search them.
   */
  set(id: string, row: Row): void {
    const had = this.#rows.has(id)
    const previous = this.#rows.get(id)
    this.#rows.set(id, row)
    if (!had) this.#insertInOrder(id)
    this.#indexed(id, previous, row)
    this.#db.record(this.name, id, () => {
      if (had) {
        this.#rows.set(id, previous as Row)
      } else {
        this.#rows.delete(id)
        this.#removeFromOrder(id)
      }
      this.#indexed(id, row, previous)
    })
  }

  /** Apply `change` to a copy of the row and store it; returns the new row. */
  update(id: string, change: (row: Row) => Row): Row {
    const current = this.#rows.get(id)
    if (current === undefined) throw new Error(`${this.name}: no row ${id}`)
    const next = change(current)
    this.set(id, next)
    return next
  }

  delete(id: string): boolean {
    if (!this.#rows.has(id)) return false
    const previous = this.#rows.get(id) as Row
    const index = this.#order.lastIndexOf(id)
    this.#rows.delete(id)
    if (index >= 0) this.#order.splice(index, 1)
    this.#indexed(id, previous, undefined)
    this.#db.record(this.name, id, () => {
      this.#rows.set(id, previous)
      this.#order.splice(index, 0, id)
      this.#indexed(id, undefined, previous)
    })
    return true
  }

  /** All rows in insertion order. */
  *values(): IterableIterator<Row> {
    for (const id of this.#order) {
      const row = this.#rows.get(id)
      if (row !== undefined) yield row
    }
  }

  *entries(): IterableIterator<[string, Row]> {
    for (const id of this.#order) {
      const row = this.#rows.get(id)
      if (row !== undefined) yield [id, row]
    }
  }

  /**
   * Up to `limit` rows accepted by `keep`, starting after the row whose
   * numeric id is `after` (ids compare as numbers). Returns the rows and
   * whether more accepted rows follow.
   */
  pageAfter(after: number | undefined, limit: number, keep: (row: Row) => boolean): { rows: Row[]; more: boolean } {
    let start = 0
    if (after !== undefined) {
      let lo = 0
      let hi = this.#order.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (Number(this.#order[mid]) <= after) lo = mid + 1
        else hi = mid
      }
      start = lo
    }
    const rows: Row[] = []
    for (let i = start; i < this.#order.length; i++) {
      const row = this.#rows.get(this.#order[i] as string)
      if (row === undefined || !keep(row)) continue
      if (rows.length === limit) return { rows, more: true }
      rows.push(row)
    }
    return { rows, more: false }
  }

  /**
   * Replace every row (Database.restore and clear) with `rows`, `ids[i]`
   * being the id of `rows[i]`. Journaled as one step. Numeric ids are put in
   * ascending order if they are not already.
   */
  load(ids: readonly string[], rows: readonly Row[]): void {
    const before = this.#rows
    const order = this.#order
    this.#rows = new Map()
    for (let i = 0; i < ids.length; i++) this.#rows.set(ids[i] as string, rows[i] as Row)
    this.#order = ids.slice()
    if (this.#order.every((id) => NUMERIC_ID.test(id)) && !this.#order.every((id, i, all) => i === 0 || Number(all[i - 1]) < Number(id))) {
      this.#order.sort((a, b) => Number(a) - Number(b))
    }
    this.#reindex()
    this.#db.record(this.name, null, () => {
      this.#rows = before
      this.#order = order
      this.#reindex()
    })
  }

  #reindex(): void {
    if (this.#indexes.length === 0) return
    for (const index of this.#indexes) index.clear()
    for (const [id, row] of this.entries()) for (const index of this.#indexes) index.add(id, row)
  }

  dump(): Array<[string, Row]> {
    return [...this.entries()]
  }

  /** Every id and row in order, as two arrays (no [id, row] pair per row: see Database.rowsNow). */
  columns(): TableColumns {
    const ids = new Array<string>(this.#rows.size)
    const rows = new Array<unknown>(this.#rows.size)
    let n = 0
    for (const id of this.#order) {
      const row = this.#rows.get(id)
      if (row === undefined) continue
      ids[n] = id
      rows[n++] = row
    }
    ids.length = rows.length = n
    return { name: this.name, ids, rows }
  }

  #insertInOrder(id: string): void {
    const last = this.#order[this.#order.length - 1]
    const n = Number(id)
    if (last === undefined || !NUMERIC_ID.test(id) || !NUMERIC_ID.test(last) || Number(last) < n) {
      this.#order.push(id)
      return
    }
    let lo = 0
    let hi = this.#order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (Number(this.#order[mid]) < n) lo = mid + 1
      else hi = mid
    }
    this.#order.splice(lo, 0, id)
  }

  #removeFromOrder(id: string): void {
    if (this.#order[this.#order.length - 1] === id) this.#order.pop()
    else {
      const index = this.#order.lastIndexOf(id)
      if (index >= 0) this.#order.splice(index, 1)
    }
  }
}

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION }

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

/**
 * What one committed transaction changed, for persistence and change feeds:
 * the final value of every row it wrote (null for a row it deleted), in the
 * order first written. `replaced` says the transaction replaced whole tables
 * (reset, import); a persister then saves a full snapshot instead of rows.
 */
export interface Commit {
  rows: CommitRow[]
  replaced: boolean
  /** The tables the transaction touched, in order (every table when replaced). */
  tables: string[]
  /** The client whose request made it, when the request named one (see TransactionOptions). */
  client?: string
}

export interface TransactionOptions {
  /** Who asked for the transaction (a page's id): its commit carries it, so a change feed can tell a page its own writes. */
  client?: string | undefined
}

export interface CommitRow {
  table: string
  id: string
  /** The row as committed; null when the row was deleted. */
  row: unknown
}

/**
 * Makes commits durable (a journal on disk, IndexedDB). `commit` is called
 * synchronously as each transaction that wrote something finishes, in commit
 * order, while the next transaction may already run; the transaction resolves
 * only once the promise returned for its commit, and for every earlier one,
 * has resolved. A sink must make commits durable in the order it was given
 * them: once it rejects one, it must reject (and never make durable) every
 * commit it was given after that one, until `rolledBack` is called.
 *
 * When a commit is rejected the database undoes it and every later commit
 * not yet durable, newest first, then calls `rolledBack`: memory again holds
 * exactly what is durable, and the sink may accept commits again. Each of
 * those transactions rejects, so a write that could not be made durable is
 * never acknowledged. A plain function is a sink without `rolledBack`.
 */
export interface CommitSink {
  commit(commit: Commit): Promise<void> | void
  rolledBack?(): void
}
export type CommitHook = CommitSink['commit'] | CommitSink

/** A commit handed to the sinks and not yet durable. */
interface Pending {
  commit: Commit
  /** How to undo it, if it cannot be made durable. */
  journal: Undo[]
  /** Resolves when it and every earlier commit are durable. */
  durable: Promise<void>
  /** What the transaction awaits: resolved with `durable`, rejected after the rollback. */
  settled: Promise<void>
  resolve: () => void
  reject: (error: unknown) => void
}

/** Thrown by a transaction undone because an earlier one could not be made durable. */
export class DurabilityError extends Error {
  override name = 'DurabilityError'
}

/** Writes of the running transaction: table → written ids (null id: the whole table was replaced). */
type Written = Map<string, Set<string> | null>

export class Database {
  #tables = new Map<string, Table<unknown>>()
  /** Tables an older build kept and this one derives instead (see retireTable): their saved rows are dropped. */
  #retired = new Set<string>()
  /** Families of tables declared on first use (see tableFamily): name pattern and row schema. */
  #families: Array<[RegExp, ZodType<unknown>]> = []
  #journal: Undo[] | null = null
  #written: Written | null = null
  #listeners = new Set<(commit: Commit) => void>()
  #sinks: CommitSink[] = []
  /** Commits handed to the sinks and not yet durable, oldest first. */
  #pending: Pending[] = []
  /** Resolves when every commit handed so far is durable. */
  #durableTail: Promise<void> = Promise.resolve()
  /** The oldest commit a sink rejected, while its rollback waits for the queue. */
  #failing: { entry: Pending; error: unknown } | null = null
  /** Tail of the queue of transactions: they run one at a time, in call order. */
  #queue: Promise<void> = Promise.resolve()
  /** True while a transaction's function runs its synchronous first part. */
  #entering = false

  constructor() {
    // Declared up front so that a snapshot of a fresh database can be restored.
    this.table('_sequences', numberSchema)
  }

  /** Declare a table. Each resource module declares its own tables once. */
  table<Row>(name: string, schema: ZodType<Row>): Table<Row> {
    const existing = this.#tables.get(name)
    if (existing) return existing as Table<Row>
    const table = new Table<Row>(this, name, schema)
    this.#tables.set(name, table as Table<unknown>)
    return table
  }

  /**
   * Declare a family of tables whose names follow `pattern` and which are
   * made on first use (one per custom object type, say): a snapshot or saved
   * rows that name such a table create it, instead of being refused.
   */
  tableFamily<Row>(pattern: RegExp, schema: ZodType<Row>): void {
    this.#families.push([pattern, schema as ZodType<unknown>])
  }

  /**
   * A table that an older build stored and this one no longer does (it
   * derives the rows in memory instead): snapshots, exports and journals
   * that still hold it load, and its rows are dropped.
   */
  retireTable(name: string): void {
    if (this.#tables.has(name)) throw new Error(`Table "${name}" is declared; it cannot be retired.`)
    this.#retired.add(name)
  }

  /** A declared table, or one of a declared family (made now). */
  #tableNamed(name: string): Table<unknown> | undefined {
    const existing = this.#tables.get(name)
    if (existing) return existing
    const family = this.#families.find(([pattern]) => pattern.test(name))
    return family ? this.table(name, family[1]) : undefined
  }

  /** Internal: tables call this for every write (id null: the whole table was replaced). */
  record(table: string, id: string | null, undo: Undo): void {
    this.#journal?.push(undo)
    const written = this.#written
    if (!written) return
    if (id === null) {
      written.set(table, null)
      return
    }
    let ids = written.get(table)
    if (ids === null) return
    if (ids === undefined) written.set(table, (ids = new Set()))
    ids.add(id)
  }

  /** Whether a transaction is running. */
  get inTransaction(): boolean {
    return this.#journal !== null
  }

  /** The next value of a named sequence (journaled like any write). */
  nextId(sequence: string, start = 1): number {
    const seq = this.table<number>('_sequences', numberSchema)
    const next = (seq.get(sequence) ?? start - 1) + 1
    seq.set(sequence, next)
    return next
  }

  /**
   * Run `fn` as one all-or-nothing unit: if it throws (or its promise
   * rejects), every write it made is undone and the error rethrown; if it
   * succeeds and wrote something, its commit goes to the commit sinks and
   * the transaction resolves once the commit is durable; change listeners
   * hear of it then.
   *
   * Transactions never overlap: a second one waits until the first has
   * finished, even across awaits (the router runs every request in one, so
   * concurrent requests from a page cannot see or undo each other's writes).
   * The queue moves on as soon as a transaction's function has finished
   * (early lock release), so commits waiting for the disk share one write.
   * A transaction that wrote nothing still waits until every commit it could
   * have seen is durable, and rejects if one of them is undone.
   * Consequently a transaction must not start another one; inside one, use
   * `attempt` for a nested all-or-nothing step. Calling `transaction` from
   * the synchronous part of a transaction throws rather than deadlocking.
   * `options.client` is carried by the commit (Commit.client).
   */
  async transaction<T>(fn: () => Promise<T> | T, options: TransactionOptions = {}): Promise<T> {
    if (this.#entering) throw new Error('Database.transaction called inside a transaction; use db.attempt(fn) for a nested step.')
    const release = await this.#takeQueue()
    const journal: Undo[] = []
    const written: Written = new Map()
    this.#journal = journal
    this.#written = written
    let result: T
    try {
      this.#entering = true
      let pending: Promise<T> | T
      try {
        pending = fn()
      } finally {
        this.#entering = false
      }
      result = await pending
    } catch (error) {
      this.#journal = null
      this.#written = null
      undo(journal)
      release()
      throw error
    }
    this.#journal = null
    this.#written = null
    const settled = journal.length > 0 ? this.#hand(this.#commitOf(written, options.client), journal) : this.#seen()
    release()
    await settled
    return result
  }

  /** Wait for the queue; returns the function that frees it. */
  async #takeQueue(): Promise<() => void> {
    const previous = this.#queue
    let release!: () => void
    this.#queue = new Promise<void>((resolve) => (release = resolve))
    await previous
    return release
  }

  /** What a read waits for: every commit handed so far, durable (rejects if the newest is undone). */
  #seen(): Promise<void> {
    const newest = this.#pending[this.#pending.length - 1]
    return newest ? newest.settled : Promise.resolve()
  }

  /** Give a commit to the sinks (synchronously, in commit order); returns what its transaction awaits. */
  #hand(commit: Commit, journal: Undo[]): Promise<void> {
    let written: Promise<unknown>
    if (this.#failing) {
      written = Promise.reject(this.#failing.error)
    } else {
      const results: unknown[] = []
      try {
        for (const sink of this.#sinks) results.push(sink.commit(commit))
        written = Promise.all(results)
      } catch (error) {
        written = Promise.all(results).then(() => Promise.reject(error))
      }
    }
    const durable = Promise.all([this.#durableTail, written]).then(() => {})
    let resolve!: () => void
    let reject!: (error: unknown) => void
    const settled = new Promise<void>((yes, no) => {
      resolve = yes
      reject = no
    })
    const entry: Pending = { commit, journal, durable, settled, resolve, reject }
    this.#pending.push(entry)
    this.#durableTail = durable
    written.catch((error: unknown) => this.#fail(entry, error))
    // Registered here, in the committing request's async context (listeners may read it), and in commit order.
    durable.then(
      () => {
        this.#pending.splice(this.#pending.indexOf(entry), 1)
        this.#emit(commit)
        resolve()
      },
      () => {},
    )
    return settled
  }

  /** A sink rejected `entry`: once the queue is free, undo it and every later commit, newest first. */
  #fail(entry: Pending, error: unknown): void {
    if (!this.#pending.includes(entry)) return
    if (this.#failing) {
      if (this.#pending.indexOf(entry) < this.#pending.indexOf(this.#failing.entry)) this.#failing = { entry, error }
      return
    }
    this.#failing = { entry, error }
    void this.#takeQueue().then((release) => {
      const failed = this.#failing as { entry: Pending; error: unknown }
      const from = this.#pending.indexOf(failed.entry)
      const undone = this.#pending.splice(from)
      for (let i = undone.length - 1; i >= 0; i--) undo((undone[i] as Pending).journal)
      this.#durableTail = this.#pending[this.#pending.length - 1]?.durable ?? Promise.resolve()
      this.#failing = null
      const message = failed.error instanceof Error ? failed.error.message : String(failed.error)
      for (const [i, pending] of undone.entries()) {
        pending.reject(i === 0 ? failed.error : new DurabilityError(`An earlier write could not be made durable, so this one was undone too: ${message}`))
      }
      for (const sink of this.#sinks) sink.rolledBack?.()
      release()
    })
  }

  /**
   * Run the synchronous `fn` as a nested all-or-nothing step: if it throws,
   * only its own writes are undone (the surrounding transaction carries on);
   * if it succeeds, its writes join the surrounding transaction. Batch
   * routes use it so that one failed item leaves no trace.
   */
  attempt<T>(fn: () => T): T {
    const outer = this.#journal
    const inner: Undo[] = []
    this.#journal = inner
    try {
      const result = fn()
      if (result instanceof Promise) throw new Error('Database.attempt takes a synchronous function.')
      outer?.push(...inner)
      return result
    } catch (error) {
      undo(inner)
      throw error
    } finally {
      this.#journal = outer
    }
  }

  /**
   * Called after every committed transaction that wrote something, and after
   * a restore or clear made outside a transaction (as a `replaced` commit).
   */
  onChange(listener: (commit: Commit) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Make every committed transaction durable through `hook` before it
   * resolves (see CommitSink). Changes made outside a transaction (a restore
   * at startup) do not reach hooks.
   */
  onCommit(hook: CommitHook): () => void {
    const sink: CommitSink = typeof hook === 'function' ? { commit: hook } : hook
    this.#sinks.push(sink)
    return () => {
      this.#sinks = this.#sinks.filter((s) => s !== sink)
    }
  }

  /** The names of every declared table. */
  get tableNames(): string[] {
    return [...this.#tables.keys()]
  }

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
      if (this.#retired.has(entry.table)) continue
      const table = this.#tableNamed(entry.table)
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
    return [...this.#tables].filter(([name, table]) => table.size > 0 || !this.#families.some(([pattern]) => pattern.test(name)))
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
    if (this.#retired.has(name)) return 'retired'
    const table = this.#tableNamed(name)
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
      if (this.#retired.has(columns.name)) continue
      const table = this.#tableNamed(columns.name)
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
    for (const table of this.#tables.values()) {
      const columns = staged.get(table)
      table.load(columns?.ids ?? [], columns?.rows ?? [])
    }
    this.#changedOutsideTransaction()
  }

  /** Inside a transaction the commit tells listeners; outside, tell them now. */
  #changedOutsideTransaction(): void {
    if (this.#journal === null) this.#emit({ rows: [], replaced: true, tables: this.tableNames })
  }

  #commitOf(written: Written, client: string | undefined): Commit {
    const rows: CommitRow[] = []
    let replaced = false
    for (const [name, ids] of written) {
      if (ids === null) {
        replaced = true
        continue
      }
      const table = this.#tables.get(name) as Table<unknown>
      for (const id of ids) rows.push({ table: name, id, row: table.get(id) ?? null })
    }
    const commit: Commit = { rows: replaced ? [] : rows, replaced, tables: replaced ? this.tableNames : [...written.keys()] }
    if (client !== undefined) commit.client = client
    return commit
  }

  #emit(commit: Commit): void {
    for (const listener of this.#listeners) listener(commit)
  }
}

const numberSchema = z.number().int()

function undo(journal: Undo[]): void {
  for (let i = journal.length - 1; i >= 0; i--) journal[i]!()
}
