/**
 * Keeps the emulated CRM across page reloads, one committed transaction at a
 * time. DOM-free: the storage is a RowStore (IndexedDB in the browser, see
 * browser/indexeddb-store.ts; a Map in tests).
 *
 * What is stored: a base snapshot of the whole database, plus every row
 * written since, keyed by table and id (a deleted row is kept as null until
 * the next snapshot). A commit that changed rows stores just those rows; a
 * commit that replaced the database (reset, import) stores a new snapshot and
 * drops the rows. Loading restores the snapshot and replays the rows.
 *
 * Durability: the save runs as the database's commit sink, so a request is
 * answered only once its rows are stored; if the store fails, the
 * transaction (and any later one not yet stored) is undone and the request
 * fails. A 2xx is never lost. Saves are one IndexedDB write per commit, in
 * commit order.
 *
 * Saved data that cannot be loaded (corrupt, or from another version) is
 * kept, never overwritten: the service then answers every request with a
 * 503 that says what is wrong, except the three ways out: export (returns
 * the saved data as it is, to repair by hand), import and reset.
 */
import type { CommitRow } from './commits.ts'
import type { Snapshot } from './snapshot-format.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-format.ts'
import { ApiError, Category } from '../http/errors.ts'
import { json } from '../http/http.ts'
import type { CrmService } from '../service.ts'

/** One saved row: a CommitRow plus its place in the table's order (`pos`, ascending in order of first save). */
export interface StoredRow extends CommitRow {
  pos: number
}

/** Everything a RowStore holds. */
export interface StoredData {
  /** The base snapshot; undefined if none was ever saved. */
  snapshot: unknown
  /** Rows saved since the snapshot, one per table+id (the last value written). */
  rows: StoredRow[]
}

/** One atomic save: a new base snapshot (which drops every saved row), or rows to upsert. */
export type StoreWrite = { snapshot: Snapshot } | { rows: StoredRow[] }

export interface RowStore {
  load(): Promise<StoredData>
  /** Save atomically; resolves once the data is stored (all or nothing). */
  write(change: StoreWrite): Promise<void>
}

/** Paths that work while the saved data cannot be loaded. */
export const RECOVERY_PATHS = {
  export: '/_ringside/v1/export',
  import: '/_ringside/v1/import',
  reset: '/_ringside/v1/reset',
} as const

export interface Persistence {
  /** Whether saved data was restored at start (false: a fresh account, now saved). */
  readonly restored: boolean
  /**
   * Why the saved data could not be loaded, or undefined when it was (or
   * there was none). Cleared by a successful reset or import.
   */
  readonly problem: string | undefined
  /** `service.handle`, but while `problem` is set only export, import and reset are served. */
  handle(request: Request): Promise<Response>
  /** Stop saving (later commits are not stored). */
  detach(): void
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Load the saved data into `service` (or save the fresh account if there is
 * none), then save every commit before it is acknowledged.
 */
export async function attachPersistence(service: CrmService, store: RowStore): Promise<Persistence> {
  const { db } = service
  let restored = false
  /** Set while the saved data cannot be used: why, and the data as loaded (for export). */
  let broken: { problem: string; saved: StoredData } | undefined
  /** Saved rows' places: `table\0id` → pos. */
  const positions = new Map<string, number>()
  let nextPos = 0

  let saved: StoredData | undefined
  try {
    saved = await store.load()
    if (saved.snapshot === undefined && saved.rows.length === 0) {
      await store.write({ snapshot: db.snapshot() })
    } else {
      if (saved.snapshot === undefined) throw new Error(`${saved.rows.length} saved rows have no base snapshot to apply to.`)
      db.restore(saved.snapshot)
      const rows = [...saved.rows].sort((a, b) => a.pos - b.pos)
      db.applyRows(rows)
      for (const row of rows) positions.set(keyOf(row), row.pos)
      nextPos = rows.length === 0 ? 0 : (rows[rows.length - 1] as StoredRow).pos + 1
      restored = true
    }
  } catch (error) {
    broken = {
      saved: saved ?? { snapshot: undefined, rows: [] },
      problem:
        `The CRM data saved in this browser could not be loaded: ${message(error)} ` +
        'It has been kept unchanged. Export it (Developer → Database → Export, or GET /_ringside/v1/export) to repair and import it, ' +
        'or reset to a fresh account (Developer → Database → Reset, or POST /_ringside/v1/reset).',
    }
  }

  // Writes go one at a time, in commit order (the database hands over the next commit while one is
  // being stored). After a failed write every write queued behind it fails too, and so does every
  // commit handed over before the database has undone them all (rolledBack starts a new epoch).
  let chain: Promise<void> = Promise.resolve()
  let failure: { error: unknown } | undefined
  let epoch = 0
  const unhook = db.onCommit({
    commit(commit) {
      if (failure) return Promise.reject(failure.error)
      const mine = epoch
      // Taken now: by the time the write runs, memory may hold later commits.
      const snapshot = commit.replaced ? db.snapshot() : undefined
      const save = async () => {
        if (failure || mine !== epoch) throw failure?.error ?? new Error('An earlier write could not be stored.')
        if (snapshot) {
          await store.write({ snapshot })
          positions.clear()
          nextPos = 0
          broken = undefined
          return
        }
        if (broken !== undefined) throw new Error('The saved CRM data could not be loaded; only export, import and reset are possible.')
        let pos = nextPos
        const rows = commit.rows.map((row) => ({ ...row, pos: positions.get(keyOf(row)) ?? pos++ }))
        await store.write({ rows })
        for (const row of rows) positions.set(keyOf(row), row.pos)
        nextPos = pos
      }
      const written = chain.then(save).catch((error: unknown) => {
        if (mine === epoch) failure ??= { error }
        throw error
      })
      chain = written.catch(() => {})
      return written
    },
    rolledBack() {
      epoch++
      failure = undefined
    },
  })

  return {
    restored,
    get problem() {
      return broken?.problem
    },
    async handle(request) {
      if (broken === undefined) return service.handle(request)
      const path = new URL(request.url).pathname
      if (request.method === 'GET' && path === RECOVERY_PATHS.export) return json(rawExport(broken.saved))
      if (request.method === 'POST' && (path === RECOVERY_PATHS.import || path === RECOVERY_PATHS.reset)) return service.handle(request)
      const correlationId = crypto.randomUUID()
      return json(new ApiError(503, Category.INTERNAL_ERROR, broken.problem).toBody(correlationId), 503, { 'x-hubspot-correlation-id': correlationId })
    },
    detach: unhook,
  }
}

function keyOf(row: CommitRow): string {
  return `${row.table}\u0000${row.id}`
}

/**
 * The saved data as one export, unchecked, so that a user can repair it and
 * import it: the snapshot's tables with the saved rows applied over them.
 */
export function rawExport(saved: StoredData, now = new Date()): Record<string, unknown> {
  const base = saved.snapshot
  const readable = typeof base === 'object' && base !== null && !Array.isArray(base)
  const baseTables = readable ? (base as { tables?: unknown }).tables : undefined
  // Per table, id → [id, row] in order; an entry that is not a pair keeps its place under a key of its own.
  const tables = new Map<string, Map<unknown, unknown>>()
  const tableOf = (name: string) => tables.get(name) ?? tables.set(name, new Map()).get(name)!
  /** Tables that are not arrays at all, kept as they are. */
  const odd: Record<string, unknown> = {}
  if (typeof baseTables === 'object' && baseTables !== null) {
    for (const [name, rows] of Object.entries(baseTables)) {
      if (!Array.isArray(rows)) {
        odd[name] = rows
        continue
      }
      const table = tableOf(name)
      for (const entry of rows as unknown[]) table.set(Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : Symbol(), entry)
    }
  }
  for (const { table, id, row } of [...saved.rows].sort((a, b) => a.pos - b.pos)) {
    if (row === null) tableOf(table).delete(id)
    else tableOf(table).set(id, [id, row])
  }
  return {
    ...(readable ? (base as Record<string, unknown>) : { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION }),
    ...(!readable && base !== undefined && { unreadableSnapshot: base }),
    exportedAt: now.toISOString(),
    tables: { ...odd, ...Object.fromEntries([...tables].map(([name, rows]) => [name, [...rows.values()]])) },
  }
}
