/**
 * DiskStorage on its own:
 * - commits become checksummed journal lines, a reset becomes a snapshot, and
 *   a journal left behind by a compaction that a crash cut short is
 *   recognised and not replayed over the newer snapshot;
 * - group commit, with a fake journal file that counts writes and fsyncs and
 *   can hold or fail an fsync: concurrent writes share fsyncs, none resolves
 *   before its fsync, lines keep commit order, a failed fsync undoes exactly
 *   the writes not yet durable, and a read waits for what it could see.
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { z } from 'zod'
import { Database } from '../../core/index.ts'
import type { Commit } from '../../core/index.ts'
import { createCrmService } from '../../core/index.ts'
import { DiskStorage } from '../storage/disk-storage.ts'
import { exportText } from '../storage/export-file.ts'
import type { JournalFile } from '../storage/journal-file.ts'
import { removeScratchDirs, scratchDir } from './support.ts'

afterAll(removeScratchDirs)

const HEADERS = { authorization: 'Bearer pat-local', 'content-type': 'application/json' }

async function createTicket(service: ReturnType<typeof createCrmService>, subject: string): Promise<string> {
  const response = await service.handle(new Request('http://local/crm/v3/objects/tickets', { method: 'POST', headers: HEADERS, body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }) }))
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

function opened(dir: string) {
  const service = createCrmService({ seed: false })
  const storage = new DiskStorage(dir)
  const report = storage.load(service.db)
  return { service, storage, report }
}

const journalLines = (dir: string) => readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n')

test('commits are checksummed journal lines; a restart continues the journal; a reset writes a snapshot and starts a new journal', async () => {
  const dir = scratchDir('storage')
  const service = createCrmService()
  const storage = new DiskStorage(dir)
  service.db.onCommit(await storage.start(service.db))

  const id = await createTicket(service, 'kept')
  expect(journalLines(dir)).toHaveLength(2)
  expect(journalLines(dir)[1]).toMatch(/^[0-9a-f]{8} \{"rows":\[/)
  await storage.close()
  const reopened = opened(dir)
  expect(reopened.report.journalEntries).toBe(1)
  expect(reopened.service.objects.get('tickets', id)).toBeDefined()
  // A clean journal is continued, not compacted: the restart writes no snapshot.
  reopened.service.db.onCommit(await reopened.storage.start(reopened.service.db))
  await createTicket(reopened.service, 'second')
  expect(journalLines(dir)).toHaveLength(3)
  await reopened.storage.close()

  // A reset is a replaced commit: a new snapshot without the ticket, an empty journal.
  const again = opened(dir)
  again.service.db.onCommit(await again.storage.start(again.service.db))
  const reset = await again.service.handle(new Request('http://local/_ringside/v1/reset', { method: 'POST' }))
  expect(reset.status).toBe(200)
  expect(journalLines(dir)).toHaveLength(1)
  await again.storage.close()
  expect(opened(dir).service.objects.get('tickets', id)).toBeUndefined()
})

test('a journal older than the snapshot (a crash between writing the two) is ignored, with a warning', async () => {
  const dir = scratchDir('storage-stale')
  const service = createCrmService()
  const storage = new DiskStorage(dir)
  service.db.onCommit(await storage.start(service.db))
  const id = await createTicket(service, 'before the reset')
  const staleJournal = join(dir, 'stale.jsonl')
  copyFileSync(join(dir, 'journal.jsonl'), staleJournal)
  await service.handle(new Request('http://local/_ringside/v1/reset', { method: 'POST' }))
  await storage.close()
  // As if the crash came after the new snapshot was renamed into place but before the new journal was.
  copyFileSync(staleJournal, join(dir, 'journal.jsonl'))

  const reopened = opened(dir)
  expect(reopened.report.journalEntries).toBe(0)
  expect(reopened.report.warnings.join('\n')).toContain('ignored a journal left by an interrupted compaction')
  expect(reopened.service.objects.get('tickets', id)).toBeUndefined()
})

/** A journal file in memory: counts appends and fsyncs; each fsync waits until the test lets it finish or fail. */
class FakeJournal implements JournalFile {
  text = ''
  durable = ''
  appends = 0
  syncs = 0
  truncations: number[] = []
  #waiting: Array<{ finish: () => void; fail: (error: Error) => void }> = []
  #holding = true

  append(text: string): Promise<void> {
    this.appends++
    this.text += text
    return Promise.resolve()
  }

  sync(): Promise<void> {
    this.syncs++
    const upTo = this.text
    if (!this.#holding) {
      this.durable = upTo
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({
        finish: () => {
          this.durable = upTo
          resolve()
        },
        fail: reject,
      })
    })
  }

  /** Bytes the real file held when it was opened (the header): offsets count them. */
  base = 0

  truncate(bytes: number): Promise<void> {
    this.truncations.push(bytes)
    this.text = Buffer.from(this.text).subarray(0, bytes - this.base).toString()
    return Promise.resolve()
  }

  close(): Promise<void> {
    return Promise.resolve()
  }

  /** Let the oldest waiting fsync finish (or fail); resolves once its effects have run. */
  async release(error?: Error): Promise<void> {
    await until(() => this.#waiting.length > 0)
    const next = this.#waiting.shift()!
    if (error) next.fail(error)
    else next.finish()
    await settle()
  }

  /** Stop holding fsyncs. */
  flowFreely(): void {
    this.#holding = false
    for (const waiting of this.#waiting.splice(0)) waiting.finish()
  }

  /** The ids in the journal's entry lines, in order. */
  ids(text = this.text): string[] {
    return text
      .split('\n')
      .filter((line) => line.includes('"rows"'))
      .flatMap((line) => (JSON.parse(line.slice(9)) as { rows: Array<{ id: string }> }).rows.map((row) => row.id))
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve))
  expect(condition()).toBe(true)
}

const itemSchema = z.object({ n: z.number() })

async function withFakeJournal() {
  const dir = scratchDir('storage-group')
  const db = new Database()
  const items = db.table('items', itemSchema)
  const file = new FakeJournal()
  const storage = new DiskStorage(dir, {
    openJournal: async (path) => {
      file.base = statSync(path).size
      return file
    },
  })
  db.onCommit(await storage.start(db))
  const write = (id: string) => db.transaction(() => items.set(id, { n: Number(id) }))
  return { db, items, file, storage, write }
}

test('writes that arrive together share one fsync, and none resolves before the fsync that covers it', async () => {
  const { file, write } = await withFakeJournal()
  const resolved: string[] = []
  const ids = Array.from({ length: 40 }, (_, i) => String(i + 1))
  const record = (id: string) => write(id).then(() => resolved.push(id))
  // 1-20 are committed in one turn of the event loop: the writer, idle until then, takes them all in one write.
  const first = ids.slice(0, 20).map(record)
  await until(() => file.syncs === 1)
  // 21-40 come while that fsync runs: they wait for the next one.
  const second = ids.slice(20).map(record)
  await settle()
  expect(resolved).toEqual([])
  expect(file.ids(file.text)).toEqual(ids.slice(0, 20))
  await file.release()
  await Promise.all(first)
  expect(resolved).toEqual(ids.slice(0, 20))
  expect(file.ids(file.durable)).toEqual(ids.slice(0, 20))
  await file.release()
  await Promise.all(second)
  expect(resolved).toEqual(ids)
  expect(file.syncs).toBe(2)
  expect(file.appends).toBe(2)
  // Lines are in commit order.
  expect(file.ids()).toEqual(ids)
  expect(file.ids(file.durable)).toEqual(ids)
})

test('a commit made as the one before it resolves (a handler\'s next transaction) is written at once, not left for a later commit', async () => {
  const db = new Database()
  const storage = new DiskStorage(scratchDir('storage-next'))
  const sink = await storage.start(db)
  const commit = (id: string) => (sink as { commit(c: Commit): Promise<void> }).commit({ rows: [{ table: 'items', id, row: { n: Number(id) } }], replaced: false, tables: ['items'] })
  try {
    // The second commit is made in the first one's resolution, just as the writer finds its queue empty.
    const second = commit('1').then(() => commit('2'))
    const outcome = await Promise.race([second.then(() => 'written'), new Promise((resolve) => setTimeout(() => resolve('still waiting after 1 s'), 1000))])
    expect(outcome).toBe('written')
  } finally {
    // Closes the journal's FileHandle: one left to the garbage collector makes Node print DEP0137.
    await storage.close()
  }
})

test('a failed fsync undoes exactly the writes not yet durable (newest first), rejects them, and the journal is cut back', async () => {
  const { db, file, items, write } = await withFakeJournal()
  const first = write('1')
  await file.release()
  await first
  const durableLength = Buffer.byteLength(file.durable)

  // 2 is being fsynced; 3 and two changes of row 1 queue behind it (undone newest first, row 1 is as durable).
  const outcomes: string[] = []
  const record = (promise: Promise<unknown>) => promise.then(() => outcomes.push('ok'), (error: Error) => outcomes.push(error.message))
  const failing = record(write('2'))
  await until(() => file.syncs === 2)
  const later = [failing, ...[write('3'), db.transaction(() => items.set('1', { n: 10 })), db.transaction(() => items.set('1', { n: 20 }))].map(record)]
  await settle()
  await file.release(new Error('EIO: fsync failed'))
  await Promise.all(later)
  expect(outcomes[0]).toBe('EIO: fsync failed')
  expect(outcomes.slice(1)).toEqual(Array(3).fill('An earlier write could not be made durable, so this one was undone too: EIO: fsync failed'))
  expect([...items.entries()]).toEqual([['1', { n: 1 }]])

  // The next write first cuts the journal back to what was durable, then goes on.
  const next = write('5')
  await file.release()
  await next
  expect(file.truncations).toEqual([file.base + durableLength])
  expect(file.ids()).toEqual(['1', '5'])
  expect([...items.entries()].map(([id]) => id)).toEqual(['1', '5'])
})

test('a read waits until every write it could have seen is durable, and fails with it', async () => {
  const { db, file, items, write } = await withFakeJournal()
  const pending = write('1')
  await until(() => file.syncs === 1)
  let read: number | undefined
  const reading = db.transaction(() => items.get('1')?.n).then((n) => (read = n))
  await settle()
  expect(read).toBeUndefined()
  await file.release()
  await Promise.all([pending, reading])
  expect(read).toBe(1)

  const lost = write('2').catch(() => 'rejected')
  await until(() => file.syncs === 2)
  const seen = db.transaction(() => items.get('2')?.n).then(
    () => 'answered',
    () => 'rejected',
  )
  await file.release(new Error('EIO'))
  expect(await lost).toBe('rejected')
  expect(await seen).toBe('rejected')
  file.flowFreely()
  expect(await db.transaction(() => items.get('2'))).toBeUndefined()
})

test('change listeners hear a commit only once it is durable, in commit order', async () => {
  const { db, file, write } = await withFakeJournal()
  const heard: string[] = []
  db.onChange((commit) => heard.push(commit.rows.map((row) => row.id).join(',')))
  const together = [write('1'), write('2'), write('3')]
  await until(() => file.syncs === 1)
  const later = write('4')
  await settle()
  expect(heard).toEqual([])
  await file.release()
  await Promise.all(together)
  expect(heard).toEqual(['1', '2', '3'])
  await file.release()
  await later
  expect(heard).toEqual(['1', '2', '3', '4'])
})

/** Every file of a data folder, by name. */
function filesOf(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]))
}

function folderWith(files: Map<string, Buffer>, name: string): string {
  const dir = scratchDir(name)
  for (const [file, content] of files) writeFileSync(join(dir, file), content)
  return dir
}

test('a crash at any step of a background compaction loses nothing acknowledged', async () => {
  const dir = scratchDir('storage-compaction')
  const db = new Database()
  const items = db.table('items', itemSchema)
  // The folder as it is when the new journal has just been opened: the snapshot is still to be written.
  let midway: Map<string, Buffer> | undefined
  let opens = 0
  const storage = new DiskStorage(dir, {
    compactEvery: 2,
    openJournal: async (path) => {
      if (++opens === 2) midway = filesOf(dir)
      const handle = await open(path, 'a')
      return { append: (text) => handle.appendFile(text), sync: () => handle.datasync(), truncate: (bytes) => handle.truncate(bytes), close: () => handle.close() }
    },
  })
  db.onCommit(await storage.start(db))
  await db.transaction(() => items.set('a', { n: 1 }))
  await db.transaction(() => items.set('b', { n: 2 })) // the second entry starts a compaction
  await db.transaction(() => items.set('c', { n: 3 }))
  await storage.close()
  const final = filesOf(dir)
  expect([...final.keys()].sort()).toEqual(['journal.jsonl', 'snapshot.ndjson'])
  expect(midway && [...midway.keys()].sort()).toEqual(['journal.jsonl', 'journal.old.jsonl', 'snapshot.ndjson'])
  const at = midway as Map<string, Buffer>

  const load = (folder: string) => {
    const fresh = new Database()
    const table = fresh.table('items', itemSchema)
    const report = new DiskStorage(folder).load(fresh)
    return { ids: [...table.entries()].map(([id]) => id), report }
  }
  // New journal started, snapshot not yet written (and a half-written temp snapshot left behind): both journals are replayed.
  const halfWritten = new Map([...at, ['.snapshot.ndjson.12345.tmp', Buffer.from('0000 {"format"')]])
  expect(load(folderWith(halfWritten, 'midway')).ids).toEqual(['a', 'b'])
  // The old journal renamed, the new one not yet in place.
  expect(load(folderWith(new Map([...at].filter(([name]) => name !== 'journal.jsonl')), 'renamed')).ids).toEqual(['a', 'b'])
  // The new snapshot in place, the old journal not yet removed: it is ignored, with a warning.
  const late = load(folderWith(new Map([...final, ['journal.old.jsonl', at.get('journal.old.jsonl') as Buffer]]), 'late'))
  expect(late.ids).toEqual(['a', 'b', 'c'])
  expect(late.report.warnings.join('\n')).toContain('journal.old.jsonl: ignored a journal left by an interrupted compaction')
  // A restart from the midway state goes on with the new journal and writes the snapshot in the background; the next start skips what it holds.
  const resumed = folderWith(new Map([...at, ['journal.jsonl', final.get('journal.jsonl') as Buffer]]), 'resumed')
  const again = new Database()
  const table = again.table('items', itemSchema)
  const restarted = new DiskStorage(resumed)
  restarted.load(again)
  again.onCommit(await restarted.start(again))
  await again.transaction(() => table.set('d', { n: 4 }))
  await restarted.close()
  expect(readdirSync(resumed).sort()).toEqual(['journal.jsonl', 'snapshot.ndjson'])
  expect(readFileSync(join(resumed, 'snapshot.ndjson'), 'utf8').split('\n')[0]).toContain('"journalSkip":1}')
  expect(load(resumed)).toMatchObject({ ids: ['a', 'b', 'c', 'd'], report: { journalEntries: 1 } })
  // The old snapshot with only the new journal (its predecessor gone): refused, not loaded with a gap.
  const gap = folderWith(new Map([['snapshot.ndjson', at.get('snapshot.ndjson') as Buffer], ['journal.jsonl', final.get('journal.jsonl') as Buffer]]), 'gap')
  expect(() => load(gap)).toThrow(/continues a journal of generation .* that is missing/)
})

test("an older build's files (snapshot.json as one JSON document, a journal without checksums) load, and the first start replaces them", async () => {
  const dir = scratchDir('storage-legacy')
  const db = new Database()
  const items = db.table('items', itemSchema)
  items.set('a', { n: 1 })
  const generation = 'older-build'
  const snapshot = { ...db.snapshot(), journalGeneration: generation }
  writeFileSync(join(dir, 'snapshot.json'), `${JSON.stringify(snapshot)}\n`)
  writeFileSync(join(dir, 'journal.jsonl'), `${JSON.stringify({ journalGeneration: generation })}\n${JSON.stringify({ rows: [{ table: 'items', id: 'b', row: { n: 2 } }] })}\n`)

  const loaded = new Database()
  const table = loaded.table('items', itemSchema)
  const storage = new DiskStorage(dir)
  expect(storage.load(loaded).journalEntries).toBe(1)
  expect([...table.entries()]).toEqual([
    ['a', { n: 1 }],
    ['b', { n: 2 }],
  ])
  loaded.onCommit(await storage.start(loaded))
  await storage.close()
  expect(readdirSync(dir).sort()).toEqual(['journal.jsonl', 'snapshot.ndjson'])

  // A journal line of the older format is still checked against the schema.
  writeFileSync(join(dir, 'snapshot.json'), `${JSON.stringify(snapshot)}\n`)
  writeFileSync(join(dir, 'journal.jsonl'), `${JSON.stringify({ journalGeneration: generation })}\n${JSON.stringify({ rows: [{ table: 'items', id: 'c', row: { n: 'three' } }] })}\n`)
  rmSync(join(dir, 'snapshot.ndjson'))
  expect(() => new DiskStorage(dir).load(loadedWith(itemSchema))).toThrow(/journal.jsonl entry 1: Table "items" row "c" is invalid at n/)
})

test("a damaged snapshot.json of an older build: cut short, or written on one line, it still gets a recovered copy of what can be read", () => {
  const dir = scratchDir('storage-legacy-damaged')
  const db = new Database()
  const items = db.table('items', itemSchema)
  items.set('a', { n: 1 })
  items.set('b', { n: 2 })
  const snapshot = { ...db.snapshot(), journalGeneration: 'older-build' }
  const failure = () => loadFailure(dir)

  // Cut short after the first row: that row is kept, the file is named with the line where it stops.
  const text = exportText(snapshot as never)
  const kept = text.slice(0, text.indexOf('["b"'))
  writeFileSync(join(dir, 'snapshot.json'), kept)
  const cut = failure()
  expect(cut).toContain(`snapshot.json line ${kept.split('\n').length}: the closing "}}" is missing: the file is cut short`)
  expect(recoveredRows(dir, cut)).toMatchObject({ items: [['a', { n: 1 }]] })

  // One line (no row per line): the parser's position names the line; nothing can be read.
  writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(snapshot).slice(0, -20))
  const oneLine = failure()
  expect(oneLine).toMatch(/snapshot\.json line 1: not valid JSON .* The file looks truncated\./)
  expect(recoveredRows(dir, oneLine)).not.toHaveProperty('items')
})

test("an older build's snapshot.json that parses but breaks a table's rules is damage: each bad row named by its line, the file kept, the rest recovered", () => {
  const dir = scratchDir('storage-legacy-rules')
  const db = new Database()
  const items = db.table('items', itemSchema)
  for (const [id, n] of [['a', 1], ['b', 2], ['c', 3]] as const) items.set(id, { n })
  const snapshot = { ...db.snapshot(), journalGeneration: 'older-build' }
  const legacy = join(dir, 'snapshot.json')
  const failure = () => loadFailure(dir)

  // One row per line, as older builds wrote it: row b breaks the schema, and c comes twice.
  const lines = exportText(snapshot as never).split('\n')
  const a = lines.indexOf('["a",{"n":1}],')
  lines.splice(a, 3, '["a",{"n":1}],', '["b",{"n":"two"}],', '["c",{"n":3}],', '["c",{"n":4}]')
  const b = a + 1
  const text = lines.join('\n')
  writeFileSync(legacy, text)
  expect(() => JSON.parse(text)).not.toThrow()
  const message = failure()
  expect(message).toMatch(new RegExp(`^${legacy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line ${b + 1}: Corrupt export: table "items" row "b" is invalid at n: .* \\(and 1 more damaged line\\)\\. Ringside did not start`))
  expect(readFileSync(legacy, 'utf8')).toBe(text)
  expect(recoveredRows(dir, message).items).toEqual([['a', { n: 1 }], ['c', { n: 3 }]])

  // The same document on one line: line 1, the same recovered rows.
  writeFileSync(legacy, `${JSON.stringify(JSON.parse(text))}\n`)
  const oneLine = failure()
  expect(oneLine).toMatch(/snapshot\.json line 1: Corrupt export: table "items" row "b" is invalid at n/)
  expect(recoveredRows(dir, oneLine).items).toEqual([['a', { n: 1 }], ['c', { n: 3 }]])

  // A document of another version is refused as a whole: nothing in it is readable here, so no recovered copy.
  const files = readdirSync(dir).length
  writeFileSync(legacy, JSON.stringify({ ...snapshot, version: 99 }))
  expect(failure()).toBe(`${legacy}: Unsupported export version 99; this build reads version 1.`)
  expect(readdirSync(dir)).toHaveLength(files)
})

/** The message of the StorageError that loading `dir` throws. */
function loadFailure(dir: string): string {
  try {
    new DiskStorage(dir).load(loadedWith(itemSchema))
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`${dir} loaded, though it is damaged`)
}

/** The tables of the recovered copy a load failure's `message` names (beside the damaged files, in `dir`). */
function recoveredRows(dir: string, message: string): Record<string, unknown> {
  const path = /saved to (\S+recovered-\S+\.json):/.exec(message)?.[1] ?? ''
  expect(dirname(path)).toBe(dir)
  return (JSON.parse(readFileSync(path, 'utf8')) as { tables: Record<string, unknown> }).tables
}

function loadedWith(schema: typeof itemSchema): Database {
  const db = new Database()
  db.table('items', schema)
  return db
}

test('a reset whose files cannot be written is undone; the next write first rewrites the files from memory, so the disk never keeps the undone reset', async () => {
  const dir = scratchDir('storage-resync')
  const db = new Database()
  const items = db.table('items', itemSchema)
  let opens = 0
  const storage = new DiskStorage(dir, {
    onWarning: () => {},
    openJournal: async (path) => {
      // The reset's new journal cannot be opened (after its snapshot was written).
      if (++opens === 2) throw new Error('EMFILE: too many open files')
      const handle = await open(path, 'a')
      return { append: (text) => handle.appendFile(text), sync: () => handle.datasync(), truncate: (bytes) => handle.truncate(bytes), close: () => handle.close() }
    },
  })
  db.onCommit(await storage.start(db))
  await db.transaction(() => items.set('a', { n: 1 }))
  await expect(db.transaction(() => db.clear())).rejects.toThrow('EMFILE')
  expect([...items.entries()].map(([id]) => id)).toEqual(['a'])
  await db.transaction(() => items.set('b', { n: 2 }))
  await storage.close()

  const reloaded = new Database()
  const table = reloaded.table('items', itemSchema)
  new DiskStorage(dir).load(reloaded)
  expect([...table.entries()].map(([id]) => id)).toEqual(['a', 'b'])
})
