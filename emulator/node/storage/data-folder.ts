/**
 * The data folder (what `--data` names) and the files in it:
 *
 *   snapshot.ndjson    the whole database in checksummed lines (line-files.ts),
 *                      naming the generation of the journal that continues it;
 *                      replaced atomically: temp file, fsync, rename, fsync of
 *                      the folder;
 *   journal.jsonl      one checksummed line per committed transaction after
 *                      that snapshot (journal-file.ts);
 *   journal.old.jsonl  only while a compaction runs: the journal before
 *                      journal.jsonl, whose changes the snapshot being written
 *                      will hold; removed once that snapshot is on disk;
 *   server.lock        the pid of the server that owns the folder (data-lock.ts);
 *   server.json        where that server answers (data-owner.ts).
 *
 * Here: where each file is, the errors that refuse a folder, and what is done
 * to the folder as a whole: taking and releasing it, setting its files aside
 * (--fresh), and removing the temp files a crash left.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
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

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Take the folder: refuse if another live server holds its lock. A lock
 * left by a process that no longer runs (kill -9), or whose pid now belongs
 * to another process, is taken over (see data-lock.ts). Returns the text of
 * the lock taken.
 */
export function takeFolder(paths: DataPaths): string {
  mkdirSync(paths.dir, { recursive: true })
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = tryTakeLock(paths.lock)
    if (result.taken) return result.text
    if ('owner' in result) {
      const url = ownerUrl(paths, result.owner)
      throw new DataInUseError(`${paths.dir} is in use by another Ringside server (pid ${result.owner})${url ? ` at ${url}` : ''}. Stop it, or pass --data with another location.`)
    }
    if (result.stale !== null) removeLockIf(paths.lock, result.stale)
  }
  throw new StorageError(`Could not take the lock ${paths.lock}.`)
}

/** Release the folder taken with `locked` (the lock's text); a lock another server has taken over meanwhile stays. */
export function releaseFolder(paths: DataPaths, locked: string): void {
  try {
    removeOwnerFile(paths)
    removeLockIf(paths.lock, locked)
  } catch {
    // unreadable: left for the next server to judge
  }
}

/** Whether there is saved data to load. */
export function hasData(paths: DataPaths): boolean {
  return [paths.snapshot, paths.legacySnapshot, paths.journal, paths.oldJournal].some((file) => existsSync(file))
}

/**
 * --fresh: move the current files aside (`*.previous`, replacing older
 * ones) instead of deleting them. Returns the paths they went to.
 */
export function setAside(paths: DataPaths): string[] {
  const moved: string[] = []
  for (const file of new Set([paths.snapshot, paths.legacySnapshot, paths.journal, paths.oldJournal])) {
    if (!existsSync(file)) continue
    renameSync(file, `${file}.previous`)
    moved.push(`${file}.previous`)
  }
  return moved
}

/** Temp files of a snapshot or journal write that a crash cut short. */
export function removeTempFiles(paths: DataPaths): void {
  const names = new Set([basename(paths.snapshot), basename(paths.journal), basename(paths.legacySnapshot)])
  for (const name of readdirSync(paths.dir)) {
    const temp = /^\.(.+)\.\d+\.tmp$/.exec(name)
    if ((temp && names.has(temp[1] as string)) || name === `${basename(paths.journal)}.next`) unlinkSync(join(paths.dir, name))
  }
}
