/**
 * The data folder's lock file: which process owns the folder.
 *
 * The file holds the owner's pid and, where the system says when a process
 * started (Linux's /proc), that start time and the boot it belongs to:
 * `<pid> <boot id>/<start ticks>`. A lock is stale when its process no longer
 * runs, and also when its pid now belongs to another process: after a
 * kill -9 and a reboot (or a new container), the pid in a left-over lock is
 * often taken by something else, and a pid-only check would refuse to start
 * until the user deleted the file by hand. Where no start time can be read,
 * and for a lock written without one, the pid alone decides.
 */
import { readFileSync } from 'node:fs'

export interface LockOwner {
  readonly pid: number
  /** `<boot id>/<start ticks>`, or '' where unknown. */
  readonly started: string
}

/** When `pid` started, as `<boot id>/<start ticks>`; '' where the system does not say. */
export function startedOf(pid: number | 'self'): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 2 (the command) is in parentheses and may hold spaces: count the fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = fields[19] // field 22, starttime
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    return ticks && /^\d+$/.test(ticks) && boot ? `${boot}/${ticks}` : ''
  } catch {
    return ''
  }
}

/** The lock file's text for this process. */
export function lockText(): string {
  const started = startedOf('self')
  return `${process.pid}${started ? ` ${started}` : ''}\n`
}

/** The owner a lock file names; null for a file that names none (empty, or not written by Ringside). */
export function parseLock(text: string): LockOwner | null {
  const match = /^(\d{1,10})(?: (\S{1,200}))?\s*$/.exec(text)
  if (!match) return null
  const pid = Number(match[1])
  return pid > 0 ? { pid, started: match[2] ?? '' } : null
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the lock's owner still runs: its pid runs and, when both start times are known, it is the same process. */
export function ownerRuns(owner: LockOwner, started: (pid: number) => string = startedOf): boolean {
  if (owner.pid === process.pid || !processRuns(owner.pid)) return false
  if (owner.started === '') return true
  const now = started(owner.pid)
  return now === '' || now === owner.started
}
