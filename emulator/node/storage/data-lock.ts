/**
 * The data folder's lock file: which process owns the folder.
 *
 * The file holds the owner's pid, as every build of Ringside has written it
 * (an older build that meets another text would take the folder over). A lock
 * is stale when its process no longer runs, and also when its pid now belongs
 * to another process: after a kill -9 and a reboot (or a new container), the
 * pid in a left-over lock is often taken by something else, and a pid-only
 * check would refuse to start until the user deleted the file by hand. Such a
 * process started after the lock file was written; the owner started before
 * it. Where the start time cannot be read (no /proc), the pid alone decides.
 *
 * The file is written whole before it appears (a temporary file, then a hard
 * link that fails if the lock exists), so another server never reads it empty.
 */
import { randomUUID } from 'node:crypto'
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { startedAtMs } from './proc-stat.ts'

/**
 * How much later than the lock file a process must have started to be judged
 * a different process: the boot time /proc gives is in whole seconds, and the
 * owner writes its lock a moment after it starts.
 */
export const START_SLACK_MS = 2_000

/** The pid a lock file names; null for a file that names none (empty, or not written by Ringside). */
export function parseLock(text: string): number | null {
  const match = /^(\d{1,10})\s*$/.exec(text)
  const pid = match ? Number(match[1]) : 0
  return pid > 0 ? pid : null
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the process a lock written at `writtenMs` names still owns it: its
 * pid runs, and it did not start after the lock was written.
 */
export function ownerRuns(pid: number, writtenMs: number, startedAt: (pid: number) => number | null = startedAtMs): boolean {
  if (pid === process.pid || !processRuns(pid)) return false
  const started = startedAt(pid)
  return started === null || started <= writtenMs + START_SLACK_MS
}

/** Taken (with the lock's text), held by a live owner, or stale: its text, or null when it went meanwhile. */
export type TakeResult = { taken: true; text: string } | { taken: false; owner: number } | { taken: false; stale: string | null }

/** Try once to take the lock at `path` for this process; a stale lock is for the caller to remove before trying again. */
export function tryTakeLock(path: string): TakeResult {
  const temp = `${path}.${randomUUID()}.tmp`
  const mine = `${process.pid}\n`
  writeFileSync(temp, mine)
  try {
    linkSync(temp, path)
    return { taken: true, text: mine }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    unlinkSync(temp)
  }
  let text: string
  let writtenMs: number
  try {
    text = readFileSync(path, 'utf8')
    writtenMs = statSync(path).mtimeMs
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { taken: false, stale: null }
    throw error
  }
  const pid = parseLock(text)
  if (pid !== null && ownerRuns(pid, writtenMs)) return { taken: false, owner: pid }
  return { taken: false, stale: text }
}

/** The pid of the live process that holds the lock at `path`; null when there is no lock, or a stale one. */
export function lockOwner(path: string): number | null {
  try {
    const pid = parseLock(readFileSync(path, 'utf8'))
    return pid !== null && ownerRuns(pid, statSync(path).mtimeMs) ? pid : null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Removes the lock at `path` if it still reads `text` (a server that took it over meanwhile keeps its own). */
export function removeLockIf(path: string, text: string): void {
  try {
    if (readFileSync(path, 'utf8') !== text) return
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
