/**
 * A table of the in-memory database: JSON rows keyed by string id, in
 * insertion order except that numeric ids (from a sequence) are kept
 * ascending, so `pageAfter` finds a cursor by binary search (a page costs
 * O(log n + page)). Every write is journaled by its database, and the
 * table's indexes (TableIndex) are told of every row that comes and goes.
 */
import type { ZodType } from 'zod'
import type { TableColumns } from './snapshot-format.ts'

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

export type Undo = () => void

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
/** What a table tells of each write: its database, which journals it (see JournaledTables.record). */
export interface WriteJournal {
  record(table: string, id: string | null, undo: Undo): void
}

export class Table<Row> {
  readonly name: string
  readonly schema: ZodType<Row>
  #rows = new Map<string, Row>()
  /** Ids in insertion order; numeric ids ascending (see `set`). */
  #order: string[] = []
  #db: WriteJournal
  #indexes: Array<TableIndex<Row>> = []

  constructor(db: WriteJournal, name: string, schema: ZodType<Row>) {
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
