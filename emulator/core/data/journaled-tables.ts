/**
 * The tables of the in-memory database and the journal that makes a request
 * all-or-nothing: every write made inside `db.transaction(fn)` records how
 * to undo itself; if `fn` throws, the journal is replayed backwards.
 *
 * Transactions run one at a time (see `transaction`), so concurrent requests
 * never interleave their writes. Durability is a group commit: a finished
 * transaction hands its commit to the commit sinks and frees the queue at
 * once; its promise settles when the sinks have made it durable (see
 * `transaction` and CommitSink in commits.ts).
 */
import { z, type ZodType } from 'zod'
import { Table, type Undo } from './table.ts'
import { DurabilityError, type Commit, type CommitRow, type CommitSink, type CommitHook, type TransactionOptions, type Pending, type Written } from './commits.ts'

/** The tables of a database, the journal of their writes, and transactions; Database (db.ts) adds snapshots. */
export abstract class JournaledTables {
  protected readonly tablesByName = new Map<string, Table<unknown>>()
  /** Tables an older build kept and this one derives instead (see retireTable): their saved rows are dropped. */
  protected readonly retired = new Set<string>()
  /** Families of tables declared on first use (see tableFamily): name pattern and row schema. */
  protected families: Array<[RegExp, ZodType<unknown>]> = []
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
    const existing = this.tablesByName.get(name)
    if (existing) return existing as Table<Row>
    const table = new Table<Row>(this, name, schema)
    this.tablesByName.set(name, table as Table<unknown>)
    return table
  }

  /**
   * Declare a family of tables whose names follow `pattern` and which are
   * made on first use (one per custom object type, say): a snapshot or saved
   * rows that name such a table create it, instead of being refused.
   */
  tableFamily<Row>(pattern: RegExp, schema: ZodType<Row>): void {
    this.families.push([pattern, schema as ZodType<unknown>])
  }

  /**
   * A table that an older build stored and this one no longer does (it
   * derives the rows in memory instead): snapshots, exports and journals
   * that still hold it load, and its rows are dropped.
   */
  retireTable(name: string): void {
    if (this.tablesByName.has(name)) throw new Error(`Table "${name}" is declared; it cannot be retired.`)
    this.retired.add(name)
  }

  /** A declared table, or one of a declared family (made now). */
  protected tableNamed(name: string): Table<unknown> | undefined {
    const existing = this.tablesByName.get(name)
    if (existing) return existing
    const family = this.families.find(([pattern]) => pattern.test(name))
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
    return [...this.tablesByName.keys()]
  }

  /** Inside a transaction the commit tells listeners; outside, tell them now. */
  protected changedOutsideTransaction(): void {
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
      const table = this.tablesByName.get(name) as Table<unknown>
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

export function undo(journal: Undo[]): void {
  for (let i = journal.length - 1; i >= 0; i--) journal[i]!()
}
