/**
 * Where the server that holds a data location answers: `server.json` beside
 * the lock (`<file>.server.json` for a snapshot-file location), written once
 * the server listens, `{"pid":…,"url":"http://127.0.0.1:7464/"}`, removed when
 * it stops. The lock (data-lock.ts) says whether that server still runs; this
 * file only says where, so a refused start can name it and the CLI's data
 * commands (`ringside reset`, `export`, `import`, `open`) can find it.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { lockOwner } from './data-lock.ts'

interface OwnerPaths {
  lock: string
  owner: string
}

/** The largest owner file read; anything longer is not one this module wrote. */
const MAX_OWNER_BYTES = 4096

/** Says that this process serves the location at `url` (after it has taken the lock). */
export function writeOwnerFile(paths: OwnerPaths, url: string): void {
  const temp = `${paths.owner}.${process.pid}.tmp`
  writeFileSync(temp, `${JSON.stringify({ pid: process.pid, url })}\n`)
  renameSync(temp, paths.owner)
}

/** The URL the owner file gives for `pid`; null when the file is missing, unreadable, or names another process. */
export function ownerUrl(paths: OwnerPaths, pid: number): string | null {
  let text: string
  try {
    text = readFileSync(paths.owner, 'utf8')
  } catch {
    return null
  }
  if (text.length > MAX_OWNER_BYTES) return null
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; url?: unknown }
    if (parsed.pid !== pid || typeof parsed.url !== 'string') return null
    const url = new URL(parsed.url)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** The running server that holds the location, and where it answers (url null: an older build, or not listening yet). */
export function runningServer(paths: OwnerPaths): { pid: number; url: string | null } | null {
  const pid = lockOwner(paths.lock)
  return pid === null ? null : { pid, url: ownerUrl(paths, pid) }
}

/** Removes the owner file if this process wrote it. */
export function removeOwnerFile(paths: OwnerPaths): void {
  if (ownerUrl(paths, process.pid) === null) return
  try {
    unlinkSync(paths.owner)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
