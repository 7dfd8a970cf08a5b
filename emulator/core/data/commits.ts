/**
 * What a committed transaction hands on: the commit (rows written, tables
 * touched, the client that asked), the sinks that make it durable (group
 * commit, with rollback of what could not be made durable), and the errors
 * a transaction rejects with.
 */
import type { Undo } from './table.ts'

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
export interface Pending {
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
export type Written = Map<string, Set<string> | null>
