/**
 * Durable, single-writer storage of the server's database in one folder:
 *
 *   snapshot.json   the whole database (the same format as an export, plus
 *                   `journalGeneration`), replaced atomically: temp file,
 *                   fsync, rename, fsync of the folder;
 *   journal.jsonl   one JSON line per committed transaction after that
 *                   snapshot: `{"rows":[{table,id,row}]}` (row null = deleted),
 *                   appended and fsynced before the request is answered;
 *   server.lock     the pid of the server that owns the folder.
 *
 * The journal's first line names its generation; the snapshot names the
 * generation of the journal that follows it. A journal of another generation
 * is one a crash left behind between writing a new snapshot and starting the
 * new journal: everything in it is already in the snapshot, so it is ignored.
 *
 * Loading is strict: a snapshot or journal line that cannot be read stops the
 * server with the file, the line and the reason, and leaves the files as they
 * are. The one exception is a torn last journal line (no newline at the end,
 * not valid JSON): a crash in the middle of an append, which was never
 * acknowledged. It is dropped and reported.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Commit, CommitRow, Database } from '../shared/api/db.ts'

export interface DataPaths {
  /** What --data named, resolved: the folder, or the snapshot file (shown at startup). */
  location: string
  /** The folder holding the files. */
  dir: string
  snapshot: string
  journal: string
  lock: string
}

/**
 * `--data` names a folder (default), or a snapshot file when it ends in
 * `.json` or is an existing file: the journal and lock then sit beside it.
 */
export function dataPaths(location: string): DataPaths {
  const path = resolve(location)
  const isFile = path.endsWith('.json') || (existsSync(path) && statSync(path).isFile())
  if (isFile) {
    return { location: path, dir: dirname(path), snapshot: path, journal: `${path}.journal.jsonl`, lock: `${path}.lock` }
  }
  return { location: path, dir: path, snapshot: join(path, 'snapshot.json'), journal: join(path, 'journal.jsonl'), lock: join(path, 'server.lock') }
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
  /** Problems that were repaired (a torn last line), one sentence each. */
  warnings: string[]
}

export interface StorageOptions {
  /** Write a new snapshot after this many journal entries (default 1000). */
  compactEvery?: number
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
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function isRow(value: unknown): value is CommitRow {
  if (typeof value !== 'object' || value === null) return false
  const row = value as Record<string, unknown>
  return typeof row.table === 'string' && typeof row.id === 'string' && 'row' in row
}

export class DiskStorage {
  readonly paths: DataPaths
  readonly #compactEvery: number
  #journal: FileHandle | null = null
  #entries = 0
  #locked = false

  constructor(location: string, options: StorageOptions = {}) {
    this.paths = dataPaths(location)
    this.#compactEvery = options.compactEvery ?? 1000
  }

  /**
   * Take the folder: refuse if another live server holds its lock. A lock
   * left by a process that no longer runs (kill -9) is taken over.
   */
  lock(): void {
    mkdirSync(this.paths.dir, { recursive: true })
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.paths.lock, 'wx')
        writeFileSync(fd, `${process.pid}\n`)
        closeSync(fd)
        this.#locked = true
        return
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        const pid = Number(readFileSync(this.paths.lock, 'utf8').trim())
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processRuns(pid)) {
          throw new DataInUseError(`${this.paths.dir} is in use by another Ringside server (pid ${pid}). Stop it, or pass --data with another location.`)
        }
        unlinkSync(this.paths.lock)
      }
    }
    throw new StorageError(`Could not take the lock ${this.paths.lock}.`)
  }

  /** Whether there is saved data to load. */
  hasData(): boolean {
    return existsSync(this.paths.snapshot) || existsSync(this.paths.journal)
  }

  /**
   * Load the snapshot and replay the journal into `db` (whose tables must be
   * declared). Throws StorageError, leaving the files untouched, for anything
   * but a torn last journal line.
   */
  load(db: Database): LoadReport {
    const warnings: string[] = []
    const { snapshot, journal } = this.paths
    let generation: unknown = undefined
    if (existsSync(snapshot)) {
      let parsed: unknown
      const text = readFileSync(snapshot, 'utf8')
      try {
        parsed = JSON.parse(text)
      } catch (error) {
        throw new StorageError(`${snapshot} line ${jsonErrorLine(text, error)}: not valid JSON (${describe(error)}).${truncatedHint(text)}`)
      }
      try {
        db.restore(parsed)
      } catch (error) {
        throw new StorageError(`${snapshot}: ${describe(error)}`)
      }
      generation = (parsed as { journalGeneration?: unknown }).journalGeneration
    } else if (existsSync(journal)) {
      throw new StorageError(`${journal} exists but ${snapshot} does not: the journal only makes sense on top of its snapshot.`)
    }

    let applied = 0
    if (existsSync(journal)) {
      const text = readFileSync(journal, 'utf8')
      const lines = text.split('\n')
      const complete = text.endsWith('\n') || text.length === 0
      // After the last '\n' split() leaves '' when the file ends with one.
      const last = lines.length - 1
      let header: unknown
      for (let i = 0; i <= last; i++) {
        const line = lines[i] as string
        if (i === last && line === '') break
        const where = `${journal} line ${i + 1}`
        let entry: unknown
        try {
          entry = JSON.parse(line)
        } catch (error) {
          if (i === last && !complete) {
            warnings.push(`${where}: dropped a torn last line (${line.length} bytes, ${describe(error)}); a write cut off by a crash, never acknowledged.`)
            break
          }
          throw new StorageError(`${where}: not valid JSON (${describe(error)}).`)
        }
        if (i === 0) {
          header = (entry as { journalGeneration?: unknown } | null)?.journalGeneration
          if (typeof header !== 'string') throw new StorageError(`${where}: expected the journal header {"journalGeneration": "…"}.`)
          if (header !== generation) {
            warnings.push(`${journal}: ignored a journal left by an interrupted compaction (its changes are already in ${basename(snapshot)}).`)
            break
          }
          continue
        }
        const rows = (entry as { rows?: unknown } | null)?.rows
        if (!Array.isArray(rows) || !rows.every(isRow)) throw new StorageError(`${where}: expected {"rows": [{"table", "id", "row"}, …]}.`)
        try {
          db.applyRows(rows)
        } catch (error) {
          throw new StorageError(`${where}: ${describe(error)}`)
        }
        applied++
      }
    }
    return { source: existsSync(snapshot) ? 'disk' : 'empty', journalEntries: applied, warnings }
  }

  /**
   * Write the whole database as the new snapshot and start a new, empty
   * journal. Called at startup (compaction), after a reset or import, and
   * every `compactEvery` entries.
   */
  async compact(db: Database): Promise<void> {
    await this.#journal?.close()
    this.#journal = null
    const generation = randomUUID()
    writeFileAtomic(this.paths.snapshot, snapshotText(db, generation))
    writeFileAtomic(this.paths.journal, `${JSON.stringify({ journalGeneration: generation })}\n`)
    this.#journal = await open(this.paths.journal, 'a')
    this.#entries = 0
  }

  /** Make one commit durable: a journal line, or a new snapshot if it replaced whole tables. */
  async append(db: Database, commit: Commit): Promise<void> {
    if (commit.replaced || this.#journal === null) {
      await this.compact(db)
      return
    }
    try {
      await this.#journal.appendFile(`${JSON.stringify({ rows: commit.rows })}\n`)
      await this.#journal.datasync()
    } catch (error) {
      // The write is undone (the commit hook failed) but may have left part of a line: the next
      // commit starts over from a snapshot of memory rather than appending after it.
      await this.#journal.close().catch(() => {})
      this.#journal = null
      throw error
    }
    if (++this.#entries >= this.#compactEvery) await this.compact(db)
  }

  /**
   * --fresh: move the current files aside (`*.previous`, replacing older
   * ones) instead of deleting them. Returns the paths they went to.
   */
  setAside(): string[] {
    const moved: string[] = []
    for (const file of [this.paths.snapshot, this.paths.journal]) {
      if (!existsSync(file)) continue
      renameSync(file, `${file}.previous`)
      moved.push(`${file}.previous`)
    }
    return moved
  }

  /** Stop writing and release the folder. */
  async close(): Promise<void> {
    await this.#journal?.close()
    this.#journal = null
    if (this.#locked) {
      try {
        unlinkSync(this.paths.lock)
      } catch {
        // already gone
      }
      this.#locked = false
    }
  }

  /** Release the lock synchronously (process exit). */
  releaseLockSync(): void {
    if (!this.#locked) return
    try {
      unlinkSync(this.paths.lock)
    } catch {
      // already gone
    }
    this.#locked = false
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function truncatedHint(text: string): string {
  return text.trimEnd().endsWith('}') ? '' : ' The file looks truncated.'
}

/**
 * The snapshot as JSON with one row per line (an export file all the same),
 * so that a damaged file can be reported by line and diffs stay readable.
 */
function snapshotText(db: Database, journalGeneration: string): string {
  const { tables, ...head } = db.snapshot()
  const opening = JSON.stringify({ ...head, journalGeneration }).slice(0, -1)
  const body = Object.entries(tables)
    .map(([name, rows]) => `${JSON.stringify(name)}:[${rows.map((row) => `\n${JSON.stringify(row)}`).join(',')}\n]`)
    .join(',\n')
  return `${opening},"tables":{\n${body}\n}}\n`
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
