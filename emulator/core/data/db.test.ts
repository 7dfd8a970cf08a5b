import { z } from 'zod'
import { Database } from './db.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError } from './snapshot-format.ts'

const rowSchema = z.object({ name: z.string(), n: z.number() })
type Row = z.infer<typeof rowSchema>

function setup() {
  const db = new Database()
  const items = db.table('items', rowSchema)
  return { db, items }
}

const tablesOf = (db: Database) => JSON.stringify(db.snapshot().tables)

test('a failed transaction undoes every write it made, in any table and sequence', async () => {
  const { db, items } = setup()
  const other = db.table('other', rowSchema)
  items.set('1', { name: 'one', n: 1 })
  const before = tablesOf(db)
  await expect(
    db.transaction(() => {
      items.set('2', { name: 'two', n: 2 })
      items.update('1', (r) => ({ ...r, n: 10 }))
      items.delete('1')
      db.nextId('items')
      other.set('x', { name: 'x', n: 0 })
      throw new Error('boom')
    }),
  ).rejects.toThrow('boom')
  expect(tablesOf(db)).toBe(before)
  expect(items.get('1')).toEqual({ name: 'one', n: 1 })
})

test('a rejected async transaction is rolled back after its awaits', async () => {
  const { db, items } = setup()
  const before = tablesOf(db)
  await expect(
    db.transaction(async () => {
      items.set('1', { name: 'one', n: 1 })
      await Promise.resolve()
      items.set('2', { name: 'two', n: 2 })
      throw new Error('late failure')
    }),
  ).rejects.toThrow('late failure')
  expect(tablesOf(db)).toBe(before)
})

test('overlapping transactions run one after the other, so one failing does not undo the other', async () => {
  const { db, items } = setup()
  const order: string[] = []
  const slow = db.transaction(async () => {
    order.push('a:start')
    items.set('1', { name: 'a', n: 1 })
    await new Promise((r) => setTimeout(r, 5))
    order.push('a:end')
    throw new Error('a fails')
  })
  const fast = db.transaction(() => {
    order.push('b')
    items.set('2', { name: 'b', n: 2 })
  })
  await expect(slow).rejects.toThrow('a fails')
  await fast
  expect(order).toEqual(['a:start', 'a:end', 'b'])
  expect(items.has('1')).toBe(false)
  expect(items.get('2')).toEqual({ name: 'b', n: 2 })
})

test('starting a transaction inside a running one throws instead of deadlocking', async () => {
  const { db } = setup()
  let inner: Promise<unknown> | undefined
  await db.transaction(() => {
    inner = db.transaction(() => 1)
  })
  await expect(inner).rejects.toThrow(/attempt/)
})

test('attempt undoes only its own writes and lets the transaction go on', async () => {
  const { db, items } = setup()
  await db.transaction(() => {
    items.set('1', { name: 'kept', n: 1 })
    expect(() =>
      db.attempt(() => {
        items.set('2', { name: 'dropped', n: 2 })
        throw new Error('item fails')
      }),
    ).toThrow('item fails')
    db.attempt(() => items.set('3', { name: 'kept too', n: 3 }))
  })
  expect([...items.values()].map((r) => r.name)).toEqual(['kept', 'kept too'])
})

test('writes of a successful attempt are undone when the surrounding transaction fails', async () => {
  const { db, items } = setup()
  await expect(
    db.transaction(() => {
      db.attempt(() => items.set('1', { name: 'one', n: 1 }))
      throw new Error('outer fails')
    }),
  ).rejects.toThrow('outer fails')
  expect(items.size).toBe(0)
})

test('change listeners hear committed writes only', async () => {
  const { db, items } = setup()
  const heard = vi.fn()
  db.onChange(heard)
  await db.transaction(() => items.set('1', { name: 'one', n: 1 }))
  await db.transaction(() => undefined)
  await db.transaction(() => items.set('2', { name: 'two', n: 2 })).catch(() => undefined)
  await expect(
    db.transaction(() => {
      items.set('3', { name: 'three', n: 3 })
      throw new Error('no')
    }),
  ).rejects.toThrow()
  expect(heard).toHaveBeenCalledTimes(2)
})

function fill(items: ReturnType<typeof setup>['items'], count: number): void {
  for (let i = 1; i <= count; i++) items.set(String(i), { name: `r${i}`, n: i })
}

test('pageAfter returns the rows after the cursor and says whether more follow', () => {
  const { items } = setup()
  fill(items, 25)
  const first = items.pageAfter(undefined, 10, () => true)
  expect(first.rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  expect(first.more).toBe(true)
  const last = items.pageAfter(20, 10, () => true)
  expect(last.rows.map((r) => r.n)).toEqual([21, 22, 23, 24, 25])
  expect(last.more).toBe(false)
  expect(items.pageAfter(25, 10, () => true)).toEqual({ rows: [], more: false })
  expect(items.pageAfter(undefined, 10, (r: Row) => r.n % 2 === 0).rows.map((r) => r.n)).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20])
})

test('a cursor between ids (a deleted row) still pages from the next id', () => {
  const { items } = setup()
  fill(items, 10)
  items.delete('5')
  expect(items.pageAfter(5, 2, () => true).rows.map((r) => r.n)).toEqual([6, 7])
  expect(items.pageAfter(4, 2, () => true).rows.map((r) => r.n)).toEqual([6, 7])
})

test('a numeric id re-inserted below the last id takes its place in id order', () => {
  const { items } = setup()
  fill(items, 6)
  items.delete('3')
  items.set('3', { name: 'back', n: 3 })
  expect([...items.values()].map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6])
  expect(items.pageAfter(2, 2, () => true).rows.map((r) => r.name)).toEqual(['back', 'r4'])
})

test('undoing a delete puts the row back where it was', async () => {
  const { db, items } = setup()
  fill(items, 5)
  await db
    .transaction(() => {
      items.delete('3')
      throw new Error('undo')
    })
    .catch(() => undefined)
  expect([...items.values()].map((r) => r.n)).toEqual([1, 2, 3, 4, 5])
})

test('nextId counts per sequence and starts where asked', () => {
  const { db } = setup()
  expect([db.nextId('a'), db.nextId('a'), db.nextId('b', 100), db.nextId('a')]).toEqual([1, 2, 100, 3])
})

test('a snapshot restores into a fresh database with the same tables', () => {
  const { db, items } = setup()
  fill(items, 3)
  db.nextId('items')
  const snap = db.snapshot(new Date(0))
  expect(snap).toMatchObject({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt: '1970-01-01T00:00:00.000Z' })
  const other = setup()
  other.db.restore(JSON.parse(JSON.stringify(snap)))
  expect(tablesOf(other.db)).toBe(tablesOf(db))
  expect(other.db.nextId('items')).toBe(2)
})

const restoreRefusals: Array<[string, (valid: Record<string, unknown>) => unknown, RegExp]> = [
  ['not an object', () => 'hello', /expected a JSON object/],
  ['an array', () => [], /expected a JSON object/],
  ['another format', (v) => ({ ...v, format: 'other-db' }), /"format" must be/],
  ['another version', (v) => ({ ...v, version: 2 }), /Unsupported export version 2/],
  ['tables not an object', (v) => ({ ...v, tables: [] }), /"tables" must be an object/],
  ['an unknown table', (v) => ({ ...v, tables: { ...(v.tables as object), ghosts: [] } }), /unknown table "ghosts"/],
  ['a table that is not an array', (v) => ({ ...v, tables: { items: {} } }), /must be an array/],
  ['a row that is not a pair', (v) => ({ ...v, tables: { items: [['1']] } }), /row 0 is not an \[id, row\] pair/],
  ['a row failing its schema', (v) => ({ ...v, tables: { items: [['1', { name: 1, n: 1 }]] } }), /row "1" is invalid at name/],
  ['the same id twice', (v) => ({ ...v, tables: { items: [['1', { name: 'a', n: 1 }], ['1', { name: 'b', n: 2 }]] } }), /id "1" twice/],
]

test.each(restoreRefusals)('restore refuses %s with a SnapshotError and changes nothing', (_name, corrupt, message) => {
  const { db, items } = setup()
  fill(items, 2)
  const valid = db.snapshot() as unknown as Record<string, unknown>
  const before = tablesOf(db)
  expect(() => db.restore(corrupt(valid))).toThrow(SnapshotError)
  expect(() => db.restore(corrupt(valid))).toThrow(message)
  expect(tablesOf(db)).toBe(before)
})

test('rowsNow holds the rows of the moment as columns, in the order a snapshot has them; later writes leave it as it was', () => {
  const { db, items } = setup()
  items.set('2', { name: 'two', n: 2 })
  items.set('1', { name: 'one', n: 1 })
  items.set('x', { name: 'ex', n: 0 })
  const now = db.rowsNow(new Date(0))
  items.set('1', { name: 'uno', n: 1 })
  items.delete('2')
  const columns = now.tables.find((table) => table.name === 'items')
  expect(columns).toEqual({ name: 'items', ids: ['1', '2', 'x'], rows: [{ name: 'one', n: 1 }, { name: 'two', n: 2 }, { name: 'ex', n: 0 }] })
  expect(now.exportedAt).toBe(new Date(0).toISOString())
  // The same tables as a snapshot taken then would have had.
  expect(db.rowsNow().tables.map((table) => table.name)).toEqual(Object.keys(db.snapshot().tables))
})

test('a retired table: its rows in a snapshot, trusted rows and a journal load and are dropped; it is in no snapshot', () => {
  const { db, items } = setup()
  db.retireTable('old_index')
  const snapshot = { ...db.snapshot(), tables: { items: [['1', { name: 'one', n: 1 }]], old_index: [['k', 'v']] } }
  db.restore(snapshot)
  db.restoreTrusted([{ name: 'items', ids: ['2'], rows: [{ name: 'two', n: 2 }] }, { name: 'old_index', ids: ['k'], rows: ['v'] }])
  db.applyRows([{ table: 'old_index', id: 'k', row: 'v' }, { table: 'items', id: '3', row: { name: 'three', n: 3 } }])
  expect(items.dump().map(([id]) => id)).toEqual(['2', '3'])
  expect(Object.keys(db.snapshot().tables)).not.toContain('old_index')
  expect(() => db.retireTable('items')).toThrow(/declared/)
})

test('restore and clear inside a failed transaction are undone', async () => {
  const { db, items } = setup()
  fill(items, 3)
  const before = tablesOf(db)
  const empty = setup().db.snapshot()
  await expect(
    db.transaction(() => {
      db.restore(empty)
      items.set('9', { name: 'nine', n: 9 })
      db.clear()
      items.set('8', { name: 'eight', n: 8 })
      throw new Error('abort')
    }),
  ).rejects.toThrow('abort')
  expect(tablesOf(db)).toBe(before)
})

test('a restored table with ids out of order is put back in id order for paging', () => {
  const { db, items } = setup()
  const snap = db.snapshot()
  db.restore({
    ...snap,
    tables: { ...snap.tables, items: [['10', { name: 'ten', n: 10 }], ['2', { name: 'two', n: 2 }], ['7', { name: 'seven', n: 7 }]] },
  })
  expect(items.pageAfter(2, 5, () => true).rows.map((r) => r.n)).toEqual([7, 10])
})

describe('commits', () => {
  test('a commit lists the final value of each written row once, deletions as null, in first-written order', async () => {
    const { db, items } = setup()
    items.set('9', { name: 'gone', n: 9 })
    const commits: unknown[] = []
    db.onChange((commit) => commits.push(commit))
    await db.transaction(() => {
      items.set('1', { name: 'one', n: 1 })
      items.update('1', (r) => ({ ...r, n: 2 }))
      items.delete('9')
      db.nextId('items')
    })
    expect(commits).toEqual([
      {
        replaced: false,
        tables: ['items', '_sequences'],
        rows: [
          { table: 'items', id: '1', row: { name: 'one', n: 2 } },
          { table: 'items', id: '9', row: null },
          { table: '_sequences', id: 'items', row: 1 },
        ],
      },
    ])
  })

  test('a transaction that replaced tables commits as replaced, with every table named', async () => {
    const { db, items } = setup()
    const commits: Array<{ replaced: boolean; rows: unknown[]; tables: string[] }> = []
    db.onChange((commit) => commits.push(commit))
    await db.transaction(() => {
      db.clear()
      items.set('1', { name: 'one', n: 1 })
    })
    expect(commits).toEqual([{ replaced: true, rows: [], tables: ['_sequences', 'items'] }])
  })

  test('the commit hook runs before the transaction resolves; if it throws, the writes are undone and nobody is told', async () => {
    const { db, items } = setup()
    const seen: string[] = []
    db.onChange(() => seen.push('listener'))
    let fail = true
    db.onCommit(async (commit) => {
      await Promise.resolve()
      seen.push(`hook ${commit.rows.length}`)
      if (fail) throw new Error('disk full')
    })
    await expect(db.transaction(() => items.set('1', { name: 'one', n: 1 }))).rejects.toThrow('disk full')
    expect(items.get('1')).toBeUndefined()
    expect(seen).toEqual(['hook 1'])
    fail = false
    const done = db.transaction(() => items.set('1', { name: 'one', n: 1 })).then(() => seen.push('resolved'))
    await done
    expect(seen).toEqual(['hook 1', 'hook 1', 'listener', 'resolved'])
    expect(items.get('1')).toEqual({ name: 'one', n: 1 })
  })

  test('a read-only transaction reaches neither hooks nor listeners', async () => {
    const { db, items } = setup()
    const hook = vi.fn()
    db.onCommit(hook)
    db.onChange(hook)
    await db.transaction(() => items.get('1'))
    expect(hook).not.toHaveBeenCalled()
  })

  test('applyRows replays committed rows after checking all of them', async () => {
    const { db, items } = setup()
    items.set('2', { name: 'two', n: 2 })
    expect(() =>
      db.applyRows([
        { table: 'items', id: '1', row: { name: 'one', n: 1 } },
        { table: 'items', id: '3', row: { name: 'bad' } },
      ]),
    ).toThrow(SnapshotError)
    expect(items.get('1')).toBeUndefined()
    expect(() => db.applyRows([{ table: 'nope', id: '1', row: null }])).toThrow(/Unknown table "nope"/)
    db.applyRows([
      { table: 'items', id: '1', row: { name: 'one', n: 1 } },
      { table: 'items', id: '2', row: null },
    ])
    expect(items.dump()).toEqual([['1', { name: 'one', n: 1 }]])
  })
})

test('a rejected commit is undone once the running transaction ends: that one is undone too, the sink hears rolledBack, and the next commit goes on', async () => {
  const { db, items } = setup()
  const calls: string[] = []
  const outcomes: Array<(error?: Error) => void> = []
  db.onCommit({
    commit(commit) {
      calls.push(commit.rows.map((row) => row.id).join(','))
      return new Promise<void>((resolve, reject) => outcomes.push((error) => (error ? reject(error) : resolve())))
    },
    rolledBack: () => calls.push('rolledBack'),
  })
  const first = db.transaction(() => items.set('1', { name: 'one', n: 1 })).catch((error: Error) => error.message)
  let go!: () => void
  const second = db
    .transaction(async () => {
      items.set('2', { name: 'two', n: 2 })
      await new Promise<void>((resolve) => (go = resolve))
      // Still running while the first commit is rejected: it sees its own write and the first one's.
      return [items.get('1')?.n, items.get('2')?.n]
    })
    .catch((error: Error) => error.message)
  await new Promise((resolve) => setTimeout(resolve, 0))
  outcomes[0]!(new Error('EIO'))
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(items.get('2')).toEqual({ name: 'two', n: 2 })
  go()
  expect(await first).toBe('EIO')
  expect(await second).toBe('An earlier write could not be made durable, so this one was undone too: EIO')
  // The second commit never reached the sink: it came after the failure and before the rollback.
  expect(calls).toEqual(['1', 'rolledBack'])
  expect(tablesOf(db)).toBe(JSON.stringify({ _sequences: [], items: [] }))
  const third = db.transaction(() => items.set('3', { name: 'three', n: 3 }))
  await new Promise((resolve) => setTimeout(resolve, 0))
  outcomes[1]!()
  await third
  expect(calls).toEqual(['1', 'rolledBack', '3'])
})
