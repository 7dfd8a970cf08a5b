/**
 * Durable, single-writer storage of the server's database in one folder
 * (data-folder.ts names its files): loaded at startup (load-data.ts), then
 * written a commit at a time to the journal (journal-file.ts), compacted
 * into a new snapshot as the journal grows.
 *
 * Group commit: commits are queued in commit order; one write and one fsync
 * take every line queued while the previous fsync ran, and a write that
 * starts from idle takes every line of the event loop's current turn (the
 * requests that arrived together). A commit's promise
 * resolves once its line is on disk. If a write or fsync fails, that batch
 * and everything queued behind it is rejected (the database undoes them), and
 * the journal is cut back to its last durable byte before the next write.
 *
 * Compaction never blocks requests: at a commit the tables' current entries
 * are taken (rows are immutable, so this is a cheap copy of references), new
 * commits go to a new journal whose header says it continues the old one, and
 * the snapshot is written in the background, a chunk at a time. The old
 * journal is removed only once the new snapshot is durable. A reset or import
 * (a commit that replaced whole tables) writes its snapshot before it resolves.
 */
import { existsSync, renameSync, statSync, truncateSync } from 'node:fs'
import { rename, unlink } from 'node:fs/promises'
import { setImmediate as endOfTurn } from 'node:timers/promises'
import { randomUUID } from 'node:crypto'
import type { Database } from '../../core/index.ts'
import type { Commit, CommitSink } from '../../core/index.ts'
import type { RowsNow } from '../../core/index.ts'
import { checksummed, writeLineSnapshot } from './line-files.ts'
import { dataPaths, describe, hasData, releaseFolder, setAside, takeFolder, type DataPaths } from './data-folder.ts'
import { fsyncDirAsync, tempPath, writeFileAtomicAsync } from './atomic-write.ts'
import { openJournalFile, type JournalFile, type OpenJournal } from './journal-file.ts'
import { loadData, type LoadReport, type Loaded } from './load-data.ts'

export interface StorageOptions {
  /** Compact after this many journal entries (default 100000; the byte bound usually comes first). */
  compactEvery?: number
  /** Compact once the journal holds this many bytes, or half the snapshot's size if that is more (default 8 MB). */
  compactBytes?: number
  /** How the journal is opened (tests). */
  openJournal?: OpenJournal
  /** Told about a background compaction that failed (it is retried at the next one). */
  onWarning?: (message: string) => void
}

/** Items of the writer's queue, in commit order. */
type Item =
  | { kind: 'line'; text: string; resolve: () => void; reject: (error: unknown) => void }
  | { kind: 'replace'; snapshot: RowsNow; resolve: () => void; reject: (error: unknown) => void }
  | { kind: 'switch'; snapshot: RowsNow }
  /** After a failure that left no usable journal: the durable state (taken at the rollback), as a new snapshot. */
  | { kind: 'resync'; snapshot: RowsNow }

export class DiskStorage {
  readonly paths: DataPaths
  readonly #compactEvery: number
  readonly #compactBytes: number
  readonly #openJournal: OpenJournal
  readonly #onWarning: (message: string) => void
  #file: JournalFile | null = null
  #generation = ''
  /** Bytes of the journal known to be on disk. */
  #durableBytes = 0
  /** Entries and bytes queued into the current journal since it began. */
  #entries = 0
  #bytes = 0
  #snapshotBytes = 0
  #queue: Item[] = []
  /** The writer's run, while it runs (see #drain). */
  #writing: Promise<void> | null = null
  /** Set when a write failed, until the database has undone what was queued (rolledBack). */
  #broken: { error: unknown } | null = null
  /** A failed write may have left part of a batch: cut the journal back before the next one. */
  #repair = false
  /** The files must be rewritten from memory after the next rollback (see the resync item). */
  #resync = false
  /** A compaction is under way (queued, or its snapshot being written). */
  #compacting = false
  /** The background snapshot write in flight. */
  #background: Promise<void> | null = null
  /** A compaction whose snapshot could not be written: retried at the next one. */
  #unwritten: { snapshot: RowsNow; generation: string; journalSkip: number } | null = null
  /** The text of the lock this storage holds; null when it holds none. */
  #locked: string | null = null

  constructor(location: string, options: StorageOptions = {}) {
    this.paths = dataPaths(location)
    this.#compactEvery = options.compactEvery ?? 100_000
    this.#compactBytes = options.compactBytes ?? 8 * 1024 * 1024
    this.#openJournal = options.openJournal ?? openJournalFile
    this.#onWarning = options.onWarning ?? ((message) => console.warn(`ringside: ${message}`))
  }

  /**
   * Take the folder: refuse if another live server holds its lock. A lock
   * left by a process that no longer runs (kill -9), or whose pid now belongs
   * to another process, is taken over (see data-lock.ts).
   */
  lock(): void {
    this.#locked = takeFolder(this.paths)
  }

  /** Whether there is saved data to load. */
  hasData(): boolean {
    return hasData(this.paths)
  }

  /** What `load` found that `start` acts on. */
  #loaded: Loaded = { journal: null, compact: true, background: false, staleOld: false }

  /**
   * Load the snapshot and replay the journal(s) into `db` (whose tables must
   * be declared). Throws StorageError for damage, leaving the files as they
   * are and writing a recovered copy of everything readable beside them; a
   * torn last journal line is a warning (the damaged journal is copied
   * aside and the line dropped at `start`).
   */
  load(db: Database): LoadReport {
    const { report, loaded, snapshotBytes } = loadData(this.paths, db, this.#locked !== null)
    if (snapshotBytes !== undefined) this.#snapshotBytes = snapshotBytes
    this.#loaded = loaded
    if (loaded.journal) {
      this.#entries = loaded.journal.entries.length
      this.#bytes = loaded.journal.wholeBytes
    }
    return report
  }

  /**
   * Get ready to write commits: continue the loaded journal (cut back to
   * its last whole line; after an interrupted compaction its snapshot is
   * written in the background), or, when there is no usable one (first run,
   * an older build's files, an import), write a snapshot of `db` and start a
   * new journal. Returns the sink to pass to
   * `db.onCommit`.
   */
  async start(db: Database, options: { compact?: boolean } = {}): Promise<CommitSink> {
    const loaded = this.#loaded.journal
    if (options.compact || this.#loaded.compact || loaded === null) {
      await this.#writeAll(db.rowsNow())
    } else {
      if (statSync(loaded.path).size !== loaded.wholeBytes) truncateSync(loaded.path, loaded.wholeBytes)
      this.#generation = loaded.generation
      this.#durableBytes = loaded.wholeBytes
      this.#file = await this.#openJournal(this.paths.journal)
      if (this.#loaded.staleOld) await unlink(this.paths.oldJournal).catch(() => {})
      if (this.#loaded.background) {
        this.#compacting = true
        this.#background = this.#writeSnapshot(db.rowsNow(), loaded.generation, loaded.entries.length)
      }
    }
    return this.sink(db)
  }

  /** Write a snapshot of `db` and start a new, empty journal (the package CLI's offline edits). */
  async compact(db: Database): Promise<void> {
    await this.#writeAll(db.rowsNow())
  }

  /** The commit sink for `db` (see CommitSink): queues each commit's line, or a snapshot for a replaced commit. */
  sink(db: Database): CommitSink {
    return {
      commit: (commit) => this.#commit(db, commit),
      rolledBack: () => {
        this.#broken = null
        if (this.#resync) {
          // Memory holds exactly what is durable now: that becomes the new snapshot before any later line.
          this.#queue.unshift({ kind: 'resync', snapshot: db.rowsNow() })
          this.#writing ??= this.#drain()
        }
      },
    }
  }

  #commit(db: Database, commit: Commit): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken.error)
    const done = new Promise<void>((resolve, reject) => {
      if (commit.replaced) this.#queue.push({ kind: 'replace', snapshot: db.rowsNow(), resolve, reject })
      else {
        const text = checksummed(JSON.stringify({ rows: commit.rows }))
        this.#queue.push({ kind: 'line', text, resolve, reject })
        this.#entries++
        this.#bytes += text.length
      }
    })
    if (!commit.replaced && !this.#compacting && (this.#entries >= this.#compactEvery || this.#bytes >= Math.max(this.#compactBytes, this.#snapshotBytes / 2))) {
      // The state right after this commit: the snapshot of the compaction that starts here.
      this.#compacting = true
      this.#queue.push({ kind: 'switch', snapshot: db.rowsNow() })
    }
    this.#writing ??= this.#drain()
    return done
  }

  /**
   * The writer: one write and one fsync for every line queued while the
   * previous ones ran. It lets go of `#writing` only when it sees the queue
   * empty, in the same synchronous step: a commit made by code that ran when
   * the last lines resolved (a handler's next transaction) is either seen by
   * the loop or starts a new writer, never left waiting for a later commit.
   *
   * A writer that starts from idle first lets the current turn of the event
   * loop finish: requests that arrived together are read in one turn (each
   * socket's callback runs its request up to the commit), so their lines go
   * out in one write instead of the first alone and the rest behind its
   * fsync. Once running, it takes what waits as soon as a write ends.
   */
  async #drain(): Promise<void> {
    try {
      // Resolves in the check phase of this turn: after every I/O callback of its poll phase.
      await endOfTurn()
      await this.#drainQueue()
    } catch (error) {
      // Not a failed write (those are handled per item): reject what waits rather than leave it waiting.
      this.#onWarning(`the journal writer stopped: ${describe(error)}`)
      this.#fail([], error)
      this.#writing = null
    }
  }

  async #drainQueue(): Promise<void> {
    for (;;) {
      if (this.#queue.length === 0) {
        this.#writing = null
        return
      }
      const head = this.#queue[0] as Item
      if (head.kind === 'line') {
        let count = 1
        while (count < this.#queue.length && this.#queue[count]?.kind === 'line') count++
        const batch = this.#queue.splice(0, count) as Array<Extract<Item, { kind: 'line' }>>
        const text = batch.length === 1 ? (batch[0] as { text: string }).text : batch.map((item) => item.text).join('')
        try {
          const file = this.#file
          if (!file) throw new Error('The journal is not open.')
          if (this.#repair) {
            await file.truncate(this.#durableBytes)
            this.#repair = false
          }
          await file.append(text)
          await file.sync()
        } catch (error) {
          this.#fail(batch, error)
          continue
        }
        this.#durableBytes += Buffer.byteLength(text)
        for (const item of batch) item.resolve()
      } else if (head.kind === 'switch') {
        this.#queue.shift()
        await this.#switchJournal(head.snapshot)
      } else if (head.kind === 'resync') {
        this.#queue.shift()
        try {
          await this.#writeAll(head.snapshot)
          this.#resync = false
        } catch (error) {
          // Lines queued behind it fail on the missing journal; their rollback tries again.
          this.#onWarning(`could not rewrite the data files after a failed write: ${describe(error)}`)
        }
      } else {
        this.#queue.shift()
        try {
          await this.#writeAll(head.snapshot)
        } catch (error) {
          this.#fail([head], error)
          continue
        }
        head.resolve()
      }
    }
  }

  /** A write failed: reject it and everything queued behind it, until the database has undone them. */
  #fail(items: Array<{ reject: (error: unknown) => void }>, error: unknown): void {
    this.#broken = { error }
    this.#repair = true
    // A failed reset or import may have left a snapshot the rollback undoes, or no open journal.
    if (this.#file === null || items.some((item) => 'kind' in item && item.kind === 'replace')) this.#resync = true
    const rest = this.#queue.splice(0)
    for (const item of [...items, ...rest]) {
      if ('reject' in item) item.reject(error)
      else this.#compacting = false
    }
  }

  /**
   * Start a background compaction at this point of the journal: later
   * commits go to a new journal that continues this one, and `snapshot` (the
   * state at this point) is written in the background.
   */
  async #switchJournal(snapshot: RowsNow): Promise<void> {
    const { journal, oldJournal } = this.paths
    const pending = this.#unwritten
    if (pending) {
      // The previous compaction's snapshot never reached the disk: journal.old.jsonl is still needed. Write that one first.
      this.#background = this.#writeSnapshot(pending.snapshot, pending.generation, pending.journalSkip)
      await this.#background
      this.#compacting = false
      return
    }
    const previous = this.#generation
    const generation = randomUUID()
    const header = checksummed(JSON.stringify({ journalGeneration: generation, after: previous }))
    try {
      await writeFileAtomicAsync(`${journal}.next`, header)
      await this.#file?.close()
      this.#file = null
      await rename(journal, oldJournal)
      await rename(`${journal}.next`, journal)
      await fsyncDirAsync(this.paths.dir)
    } catch (error) {
      this.#onWarning(`could not start a compaction: ${describe(error)}; the journal continues as it was.`)
      if (!existsSync(journal) && existsSync(oldJournal)) renameSync(oldJournal, journal)
      this.#file ??= await this.#openJournal(journal)
      this.#compacting = false
      return
    }
    this.#file = await this.#openJournal(journal)
    this.#generation = generation
    this.#durableBytes = Buffer.byteLength(header)
    this.#entries = 0
    this.#bytes = header.length
    this.#background = this.#writeSnapshot(snapshot, generation)
  }

  /** Write the snapshot that continues in journal `generation`, then drop the old journal. Never rejects. */
  async #writeSnapshot(snapshot: RowsNow, generation: string, journalSkip = 0): Promise<void> {
    const { snapshot: path, oldJournal, legacySnapshot } = this.paths
    const temp = tempPath(path)
    try {
      this.#snapshotBytes = await writeLineSnapshot(temp, snapshot, generation, journalSkip)
      await rename(temp, path)
      await fsyncDirAsync(this.paths.dir)
      this.#unwritten = null
      await unlink(oldJournal).catch(() => {})
      if (legacySnapshot !== path) await unlink(legacySnapshot).catch(() => {})
      await fsyncDirAsync(this.paths.dir)
    } catch (error) {
      this.#unwritten = { snapshot, generation, journalSkip }
      await unlink(temp).catch(() => {})
      this.#onWarning(`a compaction could not write ${path}: ${describe(error)}; the journals are kept and it is tried again at the next compaction.`)
    } finally {
      this.#compacting = false
      this.#background = null
    }
  }

  /** Write `snapshot` as the new snapshot and start a new, empty journal (startup, reset, import). */
  async #writeAll(snapshot: RowsNow): Promise<void> {
    await this.#background
    const { journal, oldJournal, legacySnapshot, snapshot: path } = this.paths
    await this.#file?.close()
    this.#file = null
    const generation = randomUUID()
    const temp = tempPath(path)
    this.#snapshotBytes = await writeLineSnapshot(temp, snapshot, generation)
    await rename(temp, path)
    await fsyncDirAsync(this.paths.dir)
    const header = checksummed(JSON.stringify({ journalGeneration: generation }))
    await writeFileAtomicAsync(journal, header)
    for (const stale of [oldJournal, ...(legacySnapshot !== path ? [legacySnapshot] : [])]) await unlink(stale).catch(() => {})
    await fsyncDirAsync(this.paths.dir)
    this.#file = await this.#openJournal(journal)
    this.#generation = generation
    this.#durableBytes = Buffer.byteLength(header)
    this.#entries = 0
    this.#bytes = header.length
    this.#unwritten = null
    this.#repair = false
  }

  /**
   * --fresh: move the current files aside (`*.previous`, replacing older
   * ones) instead of deleting them. Returns the paths they went to.
   */
  setAside(): string[] {
    return setAside(this.paths)
  }

  /** Stop writing (after what is queued and a compaction under way) and release the folder. */
  async close(): Promise<void> {
    await this.#writing
    await this.#background
    await this.#file?.close()
    this.#file = null
    this.releaseLockSync()
  }

  /** Release the lock synchronously (also at process exit); a lock another server has taken over meanwhile stays. */
  releaseLockSync(): void {
    if (this.#locked === null) return
    releaseFolder(this.paths, this.#locked)
    this.#locked = null
  }
}
