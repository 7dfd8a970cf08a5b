/**
 * Durable, single-writer storage of the server's database in one folder:
 *
 *   snapshot.ndjson    the whole database in checksummed lines (data-lines.ts),
 *                      naming the generation of the journal that continues it;
 *                      replaced atomically: temp file, fsync, rename, fsync of
 *                      the folder;
 *   journal.jsonl      one checksummed line per committed transaction after
 *                      that snapshot: `{"rows":[{table,id,row}]}` (row null =
 *                      deleted); its first line names its generation;
 *   journal.old.jsonl  only while a compaction runs: the journal before
 *                      journal.jsonl, whose changes the snapshot being written
 *                      will hold; removed once that snapshot is on disk;
 *   server.lock        the pid of the server that owns the folder (data-lock.ts);
 *   server.json        where that server answers (data-owner.ts).
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
 *
 * Loading is strict (see `load`): damage stops the server with the file, the
 * line and the reason, keeps the files as they are, and writes a recovered
 * copy of everything readable beside them. The one exception is a torn last
 * journal line: a crash in the middle of an append, which was never
 * acknowledged. The server then starts, says so, and keeps the damaged file.
 * A `snapshot.json` of an older build (one JSON document, the export format)
 * still loads; the first compaction replaces it. A damaged one is read line
 * by line, like the line files, for the recovered copy; one that parses but
 * breaks a table's rules is damage too, each bad row named by its line.
 */
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { setImmediate as endOfTurn } from 'node:timers/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Database } from '../../core/index.ts'
import type { Commit, CommitRow, CommitSink } from '../../core/index.ts'
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError, type RowsNow, type Snapshot, type TableColumns } from '../../core/index.ts'
import { checksummed, isLineSnapshot, linesOf, linesOfFile, pairsOf, parseLineSnapshot, readLine, writeLineSnapshot, type Damage } from './line-files.ts'
import { removeLockIf, tryTakeLock } from './data-lock.ts'
import { ownerUrl, removeOwnerFile } from './data-owner.ts'

export interface DataPaths {
  /** What --data named, resolved: the folder, or the snapshot file (shown at startup). */
  location: string
  /** The folder holding the files. */
  dir: string
  snapshot: string
  /** Where an older build kept its snapshot (one JSON document); read if `snapshot` is missing. */
  legacySnapshot: string
  journal: string
  /** The journal before `journal`, while a compaction runs. */
  oldJournal: string
  lock: string
  /** Where the server that holds the lock answers (data-owner.ts). */
  owner: string
}

/**
 * `--data` names a folder (default), or a snapshot file when it ends in
 * `.json` or is an existing file: the journals and lock then sit beside it.
 */
export function dataPaths(location: string): DataPaths {
  const path = resolve(location)
  const isFile = path.endsWith('.json') || (existsSync(path) && statSync(path).isFile())
  if (isFile) {
    return { location: path, dir: dirname(path), snapshot: path, legacySnapshot: path, journal: `${path}.journal.jsonl`, oldJournal: `${path}.journal.old.jsonl`, lock: `${path}.lock`, owner: `${path}.server.json` }
  }
  return {
    location: path,
    dir: path,
    snapshot: join(path, 'snapshot.ndjson'),
    legacySnapshot: join(path, 'snapshot.json'),
    journal: join(path, 'journal.jsonl'),
    oldJournal: join(path, 'journal.old.jsonl'),
    lock: join(path, 'server.lock'),
    owner: join(path, 'server.json'),
  }
}

/** Data on disk that cannot be loaded; the server refuses to start and keeps the files. */
export class StorageError extends Error {
  override name = 'StorageError'
}

/** The data location belongs to another running server. */
export class DataInUseError extends StorageError {
  override name = 'DataInUseError'
}

export interface LoadReport {
  /** What was found: nothing (first run), or a snapshot and this many journal entries. */
  source: 'empty' | 'disk'
  journalEntries: number
  /** Rows in the snapshot. */
  snapshotRows: number
  /** How long reading and applying the files took. */
  ms: number
  /** Problems that were repaired (a torn last line), one sentence each. */
  warnings: string[]
}

/** The file operations the journal writer uses; tests pass a fake that counts and fails. */
export interface JournalFile {
  append(text: string): Promise<void>
  /** Make what was appended durable (an fdatasync; nothing to do where each append already is). */
  sync(): Promise<void>
  truncate(bytes: number): Promise<void>
  close(): Promise<void>
}

export type OpenJournal = (path: string) => Promise<JournalFile>

/**
 * The journal, opened with O_DSYNC where the platform has it: a write returns
 * once its bytes are on disk (what a write and an fdatasync give), so a group
 * of lines costs one trip to Node's thread pool instead of two, and `sync` has
 * nothing left to do. Without O_DSYNC, `sync` is an fdatasync.
 */
const openJournalFile: OpenJournal = async (path) => {
  const dsync = constants.O_DSYNC as number | undefined
  const handle = await open(path, dsync === undefined ? 'a' : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | dsync)
  return {
    append: async (text) => {
      const bytes = Buffer.from(text)
      // A regular file takes the whole write unless the disk is full (which throws); a short one is continued.
      for (let offset = 0; offset < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, offset)
        if (bytesWritten === 0) throw new Error(`The journal took none of ${bytes.length - offset} bytes.`)
        offset += bytesWritten
      }
    },
    sync: () => (dsync === undefined ? handle.datasync() : Promise.resolve()),
    truncate: (bytes) => handle.truncate(bytes),
    close: () => handle.close(),
  }
}

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

function fsyncDir(dir: string): void {
  // Makes a rename durable. Some file systems refuse to open a folder; the rename is then as durable as they make it.
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // see above
  }
}

/** Write `text` to `path` atomically: temp file in the same folder, fsync, rename, fsync the folder. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = tempPath(path)
  const fd = openSync(temp, 'w')
  try {
    writeFileSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncDir(dirname(path))
}

/** fsyncDir without blocking the event loop (compaction runs while requests are served). */
async function fsyncDirAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // as fsyncDir
  }
}

/** writeFileAtomic without blocking the event loop. */
async function writeFileAtomicAsync(path: string, text: string): Promise<void> {
  const temp = tempPath(path)
  const handle = await open(temp, 'w')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, path)
  await fsyncDirAsync(dirname(path))
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function isRow(value: unknown): value is CommitRow {
  if (typeof value !== 'object' || value === null) return false
  const row = value as Record<string, unknown>
  return typeof row.table === 'string' && typeof row.id === 'string' && 'row' in row
}

/** A journal file as read: its header and entries, how far it is whole, and its damage. */
interface JournalRead {
  path: string
  generation: string
  /** The generation this journal continues (written by a background compaction). */
  after: string | undefined
  entries: CommitRow[][]
  /** Whether its lines carry checksums (this build's), so rows need no schema check. */
  checksummed: boolean
  /** Bytes up to the end of the last whole line. */
  wholeBytes: number
  /** A torn last line (no newline at its end, unreadable): a crash mid-append. */
  torn: Damage | undefined
  /** Any other damage. */
  damage: Damage[]
}

function readJournal(path: string): JournalRead {
  const text = readFileSync(path, 'utf8')
  const read: JournalRead = { path, generation: '', after: undefined, entries: [], checksummed: /^[0-9a-f]{8} /.test(text), wholeBytes: 0, torn: undefined, damage: [] }
  let number = 0
  for (const { line, complete } of linesOf(text)) {
    number++
    const parsed = readLine(line)
    if ('problem' in parsed) {
      if (!complete) read.torn = { line: number, problem: `${parsed.problem}; ${Buffer.byteLength(line)} bytes without a newline` }
      else read.damage.push({ line: number, problem: parsed.problem })
      continue
    }
    if (complete) read.wholeBytes += Buffer.byteLength(line) + 1
    if (number === 1) {
      const header = parsed.value as { journalGeneration?: unknown; after?: unknown } | null
      if (typeof header?.journalGeneration !== 'string') {
        read.damage.push({ line: 1, problem: 'expected the journal header {"journalGeneration": "…"}' })
        continue
      }
      read.generation = header.journalGeneration
      if (typeof header.after === 'string') read.after = header.after
      continue
    }
    const rows = (parsed.value as { rows?: unknown } | null)?.rows
    if (!Array.isArray(rows) || !rows.every(isRow)) read.damage.push({ line: number, problem: 'expected {"rows": [{"table", "id", "row"}, …]}' })
    else if (complete) read.entries.push(rows)
    else read.torn = { line: number, problem: `a whole entry without its newline (${Buffer.byteLength(line)} bytes)` }
  }
  return read
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
    mkdirSync(this.paths.dir, { recursive: true })
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = tryTakeLock(this.paths.lock)
      if (result.taken) {
        this.#locked = result.text
        return
      }
      if ('owner' in result) {
        const url = ownerUrl(this.paths, result.owner)
        throw new DataInUseError(`${this.paths.dir} is in use by another Ringside server (pid ${result.owner})${url ? ` at ${url}` : ''}. Stop it, or pass --data with another location.`)
      }
      if (result.stale !== null) removeLockIf(this.paths.lock, result.stale)
    }
    throw new StorageError(`Could not take the lock ${this.paths.lock}.`)
  }

  /** Whether there is saved data to load. */
  hasData(): boolean {
    return [this.paths.snapshot, this.paths.legacySnapshot, this.paths.journal, this.paths.oldJournal].some((file) => existsSync(file))
  }

  /** What `load` found that `start` acts on. */
  #loaded: { journal: JournalRead | null; compact: boolean; background: boolean; staleOld: boolean } = { journal: null, compact: true, background: false, staleOld: false }

  /**
   * Load the snapshot and replay the journal(s) into `db` (whose tables must
   * be declared). Throws StorageError for damage, leaving the files as they
   * are and writing a recovered copy of everything readable beside them; a
   * torn last journal line is a warning (the damaged journal is copied
   * aside and the line dropped at `start`).
   */
  load(db: Database): LoadReport {
    const began = performance.now()
    const warnings: string[] = []
    const damage: Array<Damage & { file: string }> = []
    const { snapshot, legacySnapshot, journal, oldJournal } = this.paths
    if (this.#locked !== null) this.#removeTempFiles()

    // The snapshot: this build's line format, or an older build's JSON document.
    let generation: unknown = undefined
    /** Entries at the start of the journal that the snapshot already holds. */
    let skip = 0
    let snapshotTables: TableColumns[] = []
    /** An older build's snapshot.json, as [id, row] pairs per table. */
    let legacyTables: Array<[string, Array<[string, unknown]>]> = []
    let legacy = false
    const lineFile = existsSync(snapshot) && (snapshot !== legacySnapshot || isLineSnapshot(firstLine(snapshot)))
    if (lineFile) {
      this.#snapshotBytes = statSync(snapshot).size
      // Line by line from the file: the text of the whole snapshot is never held.
      const read = parseLineSnapshot(linesOfFile(snapshot))
      generation = read.journalGeneration
      skip = read.journalSkip
      snapshotTables = read.tables
      damage.push(...read.damage.map((d) => ({ ...d, file: snapshot })))
    } else if (existsSync(legacySnapshot)) {
      legacy = true
      const text = readFileSync(legacySnapshot, 'utf8')
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (error) {
        // Damaged: read it line by line for everything readable (the recovered copy below), and say where.
        const read = parseExportLines(text)
        generation = read.journalGeneration
        legacyTables = read.tables
        // A file of one line (written without a line per row) can only be placed by the parser's error.
        const lineByLine = read.damage.length > 0 && text.trimEnd().includes('\n')
        const found = lineByLine ? read.damage : [{ line: jsonErrorLine(text, error), problem: `not valid JSON (${describe(error)}).${truncatedHint(text)}` }]
        damage.push(...found.map((d) => ({ ...d, file: legacySnapshot })))
      }
      if (damage.length === 0) {
        generation = (parsed as { journalGeneration?: unknown } | null)?.journalGeneration
        try {
          db.restore(parsed)
          legacyTables = Object.entries((parsed as Snapshot).tables)
        } catch (error) {
          const checked = error instanceof SnapshotError ? legacyRuleDamage(db, parsed, text) : undefined
          // Not a Ringside export, or another version's: nothing in it is damaged or readable here.
          if (!checked) throw new StorageError(`${legacySnapshot}: ${describe(error)}`)
          // It reads as JSON but breaks a table's rules: damage like any other, each bad row at its line, the rest recovered.
          legacyTables = checked.tables
          damage.push(...checked.damage.map((d) => ({ ...d, file: legacySnapshot })))
        }
      }
    } else if (existsSync(journal) || existsSync(oldJournal)) {
      throw new StorageError(`${existsSync(journal) ? journal : oldJournal} exists but ${snapshot} does not: the journal only makes sense on top of its snapshot.`)
    }

    // The journals that continue it: journal.old.jsonl (a compaction was under way) then journal.jsonl.
    const old = existsSync(oldJournal) ? readJournal(oldJournal) : null
    const current = existsSync(journal) ? readJournal(journal) : null
    const replay: JournalRead[] = []
    if (old && old.generation === generation) {
      replay.push(old)
      if (current) {
        if (current.after !== old.generation) throw new StorageError(`${journal} does not continue ${oldJournal} (generation ${JSON.stringify(current.after)}, expected ${JSON.stringify(old.generation)}).`)
        replay.push(current)
      }
    } else {
      if (old) warnings.push(`${oldJournal}: ignored a journal left by an interrupted compaction (its changes are already in ${basename(snapshot)}).`)
      if (current && current.generation === generation) replay.push(current)
      else if (current && current.after !== undefined && current.after === generation) {
        throw new StorageError(`${journal} continues a journal of generation ${current.after} that is missing (${oldJournal}): changes between ${basename(snapshot)} and it would be lost.`)
      } else if (current && current.damage.length === 0 && current.generation !== '') {
        warnings.push(`${journal}: ignored a journal left by an interrupted compaction (its changes are already in ${basename(snapshot)}).`)
      } else if (current) replay.push(current)
    }
    for (const [index, read] of replay.entries()) {
      damage.push(...read.damage.map((d) => ({ ...d, file: read.path })))
      // Only the newest journal may end in a torn line; anywhere else it is damage.
      if (read.torn && index < replay.length - 1) damage.push({ ...read.torn, file: read.path })
    }

    if (damage.length > 0) {
      const readable = legacy ? legacyTables : snapshotTables.map((table): [string, Array<[string, unknown]>] => [table.name, pairsOf(table)])
      const recovered = this.#writeRecovered(Object.fromEntries(readable), replay)
      const first = damage[0] as Damage & { file: string }
      const more = damage.length > 1 ? ` (and ${damage.length - 1} more damaged line${damage.length > 2 ? 's' : ''})` : ''
      throw new StorageError(
        `${first.file} line ${first.line}: ${first.problem}${more}. Ringside did not start, so that no data is silently lost; the files are kept as they are. ` +
          `Everything readable was saved to ${recovered}: to start from it, run with --data ${this.paths.location} --fresh --import ${recovered} (--fresh moves the damaged files aside as *.previous).`,
      )
    }

    if (!legacy && lineFile) {
      try {
        db.restoreTrusted(snapshotTables)
      } catch (error) {
        throw new StorageError(`${snapshot}: ${describe(error)}`)
      }
    }
    let applied = 0
    for (const read of replay) {
      for (const [index, rows] of read.entries.entries()) {
        if (read.generation === generation && index < skip) continue
        try {
          db.applyRows(rows, { trusted: read.checksummed })
        } catch (error) {
          throw new StorageError(`${read.path} entry ${index + 1}: ${describe(error)}`)
        }
        applied++
      }
    }
    const last = replay[replay.length - 1]
    if (last?.torn && this.#locked !== null) {
      const kept = `${last.path}.damaged-${stamp()}`
      copyFileSync(last.path, kept)
      warnings.push(
        `${last.path} line ${last.torn.line}: dropped a torn last line (${last.torn.problem}): a write cut off by a crash, never acknowledged. ` +
          `The journal as it was is kept as ${kept}.`,
      )
    }
    // Go on with the journal when it is whole and this build's; after a compaction a crash cut short (two
    // journals), write the snapshot in the background at start, as that compaction would have.
    const continuing = !legacy && lineFile && current !== null && replay[replay.length - 1] === current && current.damage.length === 0
    this.#loaded = { journal: continuing ? current : null, compact: !continuing, background: continuing && replay.length > 1, staleOld: old !== null && !replay.includes(old) }
    if (continuing && current) {
      this.#entries = current.entries.length
      this.#bytes = current.wholeBytes
    }
    const snapshotRows = snapshotTables.reduce((sum, table) => sum + table.ids.length, 0) + legacyTables.reduce((sum, [, rows]) => sum + rows.length, 0)
    return { source: lineFile || legacy ? 'disk' : 'empty', journalEntries: applied, snapshotRows, ms: Math.round(performance.now() - began), warnings }
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

  /** Everything readable, as an export file beside the damaged ones; returns its path. */
  #writeRecovered(snapshotTables: Record<string, Array<[string, unknown]>>, journals: JournalRead[]): string {
    const tables = new Map<string, Map<string, unknown>>()
    for (const [name, rows] of Object.entries(snapshotTables)) tables.set(name, new Map(rows))
    for (const read of journals) {
      for (const rows of read.entries) {
        for (const { table, id, row } of rows) {
          const map = tables.get(table) ?? tables.set(table, new Map()).get(table)!
          if (row === null) map.delete(id)
          else map.set(id, row)
        }
      }
    }
    const path = join(this.paths.dir, `recovered-${stamp()}.json`)
    const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exportedAt: new Date().toISOString(), tables: Object.fromEntries([...tables].map(([name, rows]) => [name, [...rows]])) }
    writeFileAtomic(path, exportText(snapshot))
    return path
  }

  /** Temp files of a snapshot or journal write that a crash cut short. */
  #removeTempFiles(): void {
    const names = new Set([basename(this.paths.snapshot), basename(this.paths.journal), basename(this.paths.legacySnapshot)])
    for (const name of readdirSync(this.paths.dir)) {
      const temp = /^\.(.+)\.\d+\.tmp$/.exec(name)
      if ((temp && names.has(temp[1] as string)) || name === `${basename(this.paths.journal)}.next`) unlinkSync(join(this.paths.dir, name))
    }
  }

  /**
   * --fresh: move the current files aside (`*.previous`, replacing older
   * ones) instead of deleting them. Returns the paths they went to.
   */
  setAside(): string[] {
    const moved: string[] = []
    for (const file of new Set([this.paths.snapshot, this.paths.legacySnapshot, this.paths.journal, this.paths.oldJournal])) {
      if (!existsSync(file)) continue
      renameSync(file, `${file}.previous`)
      moved.push(`${file}.previous`)
    }
    return moved
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
    try {
      removeOwnerFile(this.paths)
      removeLockIf(this.paths.lock, this.#locked)
    } catch {
      // unreadable: left for the next server to judge
    }
    this.#locked = null
  }
}


function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}

/** The first line of a file (up to 4 KB). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const text = buffer.subarray(0, readSync(fd, buffer)).toString('utf8')
    const end = text.indexOf('\n')
    return end >= 0 ? text.slice(0, end) : text
  } finally {
    closeSync(fd)
  }
}

function truncatedHint(text: string): string {
  return text.trimEnd().endsWith('}') ? '' : ' The file looks truncated.'
}

/**
 * An export file (one JSON document) with one row per line, so that a
 * damaged file can be reported by line and diffs stay readable.
 */
export function exportText(snapshot: Snapshot): string {
  const { tables, ...head } = snapshot
  const opening = JSON.stringify(head).slice(0, -1)
  const body = Object.entries(tables)
    .map(([name, rows]) => `${JSON.stringify(name)}:[${rows.map((row) => `\n${JSON.stringify(row)}`).join(',')}\n]`)
    .join(',\n')
  return `${opening},"tables":{\n${body}\n}}\n`
}

const NOT_A_PAIR = 'expected an [id, row] pair'

/**
 * Everything readable in a damaged export-shaped file (what `exportText`
 * writes, and what older builds kept as `snapshot.json`): the header line,
 * a line per table name, a line per row. Never throws: returns the rows of
 * every line that reads, and each line that does not (1-based); `lines`
 * holds the line of each table's name and of each of its entries (every
 * line under it that reads as JSON, an [id, row] pair or not).
 */
export function parseExportLines(text: string): {
  journalGeneration: unknown
  tables: Array<[string, Array<[string, unknown]>]>
  lines: Array<{ name: number; rows: number[] }>
  damage: Damage[]
} {
  const tables: Array<[string, Array<[string, unknown]>]> = []
  const lines: Array<{ name: number; rows: number[] }> = []
  const damage: Damage[] = []
  let journalGeneration: unknown
  let current: Array<[string, unknown]> | null = null
  let currentLines: number[] = []
  let closed = false
  let number = 0
  for (const { line } of linesOf(text)) {
    number++
    const trimmed = line.trim()
    if (number === 1) {
      const head = /^(\{.*),"tables":\{$/.exec(trimmed)
      const value = head ? readLine(`${head[1]}}`) : undefined
      if (value && 'value' in value && typeof value.value === 'object' && value.value !== null) journalGeneration = (value.value as { journalGeneration?: unknown }).journalGeneration
      else damage.push({ line: 1, problem: 'not the opening line of a Ringside export' })
      continue
    }
    if (trimmed === '' || trimmed === ']' || trimmed === '],') continue
    if (trimmed === '}}') {
      closed = true
      continue
    }
    const name = /^("(?:[^"\\]|\\.)*"):\[$/.exec(trimmed)
    if (name) {
      const read = readLine(name[1]!)
      current = []
      currentLines = []
      tables.push([String('value' in read ? read.value : name[1]), current])
      lines.push({ name: number, rows: currentLines })
      continue
    }
    const read = readLine(trimmed.endsWith(',') ? trimmed.slice(0, -1) : trimmed)
    if ('problem' in read) damage.push({ line: number, problem: read.problem })
    else if (current === null) damage.push({ line: number, problem: 'a row before any table name' })
    else {
      currentLines.push(number)
      if (!Array.isArray(read.value) || read.value.length !== 2 || typeof read.value[0] !== 'string') damage.push({ line: number, problem: NOT_A_PAIR })
      else current.push(read.value as [string, unknown])
    }
  }
  if (!closed) damage.push({ line: number + (text.endsWith('\n') || text.length === 0 ? 1 : 0), problem: 'the closing "}}" is missing: the file is cut short' })
  return { journalGeneration, tables, lines, damage }
}

/**
 * An older build's snapshot.json that parses but that `restore` refuses (a
 * row that breaks its table's schema, an unknown table, an id twice): each
 * problem at its line, and the rows that pass; undefined when the document
 * as a whole is refused (not an export, another version), which holds
 * nothing to recover. In a file of one row per line (what older builds
 * wrote) a row's problem is at the row's line, a table's at its name's line;
 * in any other layout at the line that starts with the table's name, else 1.
 */
function legacyRuleDamage(db: Database, parsed: unknown, text: string): { damage: Damage[]; tables: Array<[string, Array<[string, unknown]>]> } | undefined {
  const { problems, tables } = db.checkExport(parsed)
  if (problems.some((problem) => problem.table === undefined)) return undefined
  const layout = parseExportLines(text)
  const rowsOf = (parsed as { tables: Record<string, unknown> }).tables
  const names = Object.keys(rowsOf)
  // The line-per-row reading holds the same tables and entries as the document: its lines are the entries' lines.
  const sameLayout =
    layout.damage.every((d) => d.problem === NOT_A_PAIR) &&
    layout.lines.length === names.length &&
    layout.tables.every(([name], i) => name === names[i] && Array.isArray(rowsOf[name]) && rowsOf[name].length === layout.lines[i]?.rows.length)
  const textLines = text.split('\n')
  const lineOf = (table: string | undefined, row: number | undefined): number => {
    if (table === undefined) return 1
    const at = names.indexOf(table)
    if (sameLayout) {
      const place = layout.lines[at] as { name: number; rows: number[] }
      return row === undefined ? place.name : (place.rows[row] ?? place.name)
    }
    const quoted = JSON.stringify(table)
    const found = textLines.findIndex((line) => line.trimStart().startsWith(`${quoted}:`))
    return found >= 0 ? found + 1 : 1
  }
  return { damage: problems.map((problem) => ({ line: lineOf(problem.table, problem.row), problem: problem.message })), tables }
}

/** The 1-based line of a JSON.parse failure: from the position V8 gives, else the first row line that does not parse, else the last line. */
function jsonErrorLine(text: string, error: unknown): number {
  const position = /at position (\d+)/.exec(describe(error))
  if (position) return text.slice(0, Number(position[1])).split('\n').length
  const lines = text.split('\n')
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith('[')) continue
    try {
      JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)
    } catch {
      return index + 1
    }
  }
  return text.trimEnd().split('\n').length
}
