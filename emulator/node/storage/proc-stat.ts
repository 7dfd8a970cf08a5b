/**
 * Reading Linux's /proc: a process's stat line and the time the system booted.
 * Every reader is null (or empty) where /proc does not exist or the process
 * has ended, so callers fall back on what they can check elsewhere.
 *
 * /proc reports times in clock ticks of USER_HZ, which Linux fixes at 100 per
 * second for user space on the architectures Node runs on.
 */
import { readdirSync, readFileSync } from 'node:fs'

export const TICK_MS = 10

/**
 * The fields of /proc/<pid>/stat after the command name, so index 0 is field 3
 * (state), 1 is field 4 (ppid), 11 and 12 are fields 14 and 15 (utime, stime)
 * and 19 is field 22 (starttime). The name sits in parentheses and may itself
 * hold spaces and parentheses, so the fields start after the last ')'.
 */
export function statFields(pid: number | 'self'): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ')
  } catch {
    return null
  }
}

/** When the system booted, in ms since the epoch (whole seconds, as /proc/stat gives it). */
export function bootTimeMs(): number | null {
  try {
    const match = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))
    return match ? Number(match[1]) * 1000 : null
  } catch {
    return null
  }
}

/** When the process started, in ms since the epoch (to about a second: the boot time is in whole seconds). */
export function startedAtMs(pid: number | 'self'): number | null {
  const ticks = Number(statFields(pid)?.[19])
  const boot = bootTimeMs()
  return Number.isFinite(ticks) && boot !== null ? boot + ticks * TICK_MS : null
}

/** CPU time (user + system, ms) and parent of every process under /proc. */
export function processTable(): Map<number, { ppid: number; cpuMs: number }> {
  const table = new Map<number, { ppid: number; cpuMs: number }>()
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return table
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    const fields = statFields(Number(name))
    if (fields === null) continue // it ended while we read
    table.set(Number(name), { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS })
  }
  return table
}
