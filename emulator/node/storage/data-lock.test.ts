import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ownerRuns, parseLock, START_SLACK_MS, tryTakeLock } from './data-lock.ts'
import { startedAtMs, statFields } from './proc-stat.ts'
import { DataInUseError } from './data-folder.ts'
import { DiskStorage } from './disk-storage.ts'

const hasProc = startedAtMs('self') !== null
/** A pid that ran and has ended. */
const endedPid = () => spawnSync(process.execPath, ['-e', '0']).pid!
const folder = () => mkdtempSync(join(tmpdir(), 'ringside-lock-'))

describe('the data folder lock', () => {
  it('names a pid, as every build has written it; other text names none', () => {
    expect(parseLock('4242\n')).toBe(4242)
    for (const text of ['', 'pid\n', '0\n', '-3\n', '12 34\n', `${'9'.repeat(11)}\n`]) expect(parseLock(text)).toBeNull()
  })

  it('a live owner holds it; an ended one, or a pid now used by a process that started after the lock was written, does not', () => {
    const parent = process.ppid
    const written = Date.now()
    expect(ownerRuns(parent, written, () => null)).toBe(true) // no start time to read: the pid decides
    expect(ownerRuns(endedPid(), written)).toBe(false)
    expect(ownerRuns(process.pid, written)).toBe(false) // our own pid in a lock is from a previous life
    expect(ownerRuns(parent, written, () => written - 60_000)).toBe(true) // started, then wrote the lock
    expect(ownerRuns(parent, written, () => written + START_SLACK_MS)).toBe(true) // within the boot time's rounding
    expect(ownerRuns(parent, written, () => written + START_SLACK_MS + 1)).toBe(false) // started later: its pid was given again
  })

  it.skipIf(!hasProc)('reads start times from /proc, whatever the command name holds', async () => {
    expect(startedAtMs('self')).toBe(startedAtMs(process.pid))
    expect(startedAtMs(process.pid)!).toBeLessThanOrEqual(Date.now())
    // A process whose name holds ") " and "(" (Linux names a script's process after its file).
    const odd = join(folder(), 'a) b (c')
    writeFileSync(odd, '#!/bin/sh\nsleep 5\n', { mode: 0o755 })
    const child = spawn(odd, { stdio: 'ignore' })
    try {
      await new Promise((ready) => setTimeout(ready, 200))
      expect(readFileSync(`/proc/${child.pid}/stat`, 'utf8')).toContain('(a) b (c)')
      const fields = statFields(child.pid!)
      expect(fields?.[0]).toMatch(/^[RSD]$/) // its state
      expect(fields?.[1]).toBe(String(process.pid)) // its parent: us
      expect(Math.abs(startedAtMs(child.pid!)! - Date.now())).toBeLessThan(3_000)
    } finally {
      child.kill()
    }
  })

  it('is written whole before it appears, and a second taker sees its owner', () => {
    const dir = folder()
    const lock = join(dir, 'server.lock')
    expect(tryTakeLock(lock)).toEqual({ taken: true, text: `${process.pid}\n` })
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`)
    expect(readdirSync(dir)).toEqual(['server.lock']) // no temporary file left
    // Our own pid reads as a previous life: stale, for the caller to remove.
    expect(tryTakeLock(lock)).toEqual({ taken: false, stale: `${process.pid}\n` })
    writeFileSync(lock, `${process.ppid}\n`)
    expect(tryTakeLock(lock)).toEqual({ taken: false, owner: process.ppid })
  })

  it('a storage takes over a stale lock, refuses a live one, and leaves a lock it no longer holds', () => {
    const dir = folder()
    const lock = join(dir, 'server.lock')

    // An empty lock (a build that crashed between creating and writing it) names no owner.
    writeFileSync(lock, '')
    new DiskStorage(dir).releaseLockSync() // holds nothing: leaves the file alone
    expect(existsSync(lock)).toBe(true)
    const empty = new DiskStorage(dir)
    empty.lock()
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`)
    empty.releaseLockSync()

    writeFileSync(lock, `${endedPid()}\n`)
    const first = new DiskStorage(dir)
    first.lock()
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`)
    first.releaseLockSync()
    expect(existsSync(lock)).toBe(false)

    // Another live process's lock, written now.
    writeFileSync(lock, `${process.ppid}\n`)
    expect(() => new DiskStorage(dir).lock()).toThrow(DataInUseError)
    expect(() => new DiskStorage(dir).lock()).toThrow(`in use by another Ringside server (pid ${process.ppid})`)

    if (hasProc) {
      // The same pid in a lock written long before that process started: the pid was given again.
      utimesSync(lock, new Date(0), new Date(0))
      const second = new DiskStorage(dir)
      second.lock()
      expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`)
      // A server that took the folder over meanwhile keeps its lock when this one releases.
      writeFileSync(lock, `${process.ppid}\n`)
      second.releaseLockSync()
      expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`)
    }
  })
})
