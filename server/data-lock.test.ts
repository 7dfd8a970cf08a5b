import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { lockText, ownerRuns, parseLock, startedOf } from './data-lock.ts'
import { DataInUseError, DiskStorage } from './storage.ts'

const hasProc = startedOf('self') !== ''
/** A pid that ran and has ended. */
const endedPid = () => spawnSync(process.execPath, ['-e', '0']).pid!

describe('the data folder lock', () => {
  it('reads back what it writes, and refuses text that names no owner', () => {
    expect(parseLock(lockText())).toEqual({ pid: process.pid, started: startedOf('self') })
    expect(parseLock('4242\n')).toEqual({ pid: 4242, started: '' })
    for (const text of ['', 'pid\n', '0\n', '-3\n', '12 34 56\n', `${'9'.repeat(11)}\n`]) expect(parseLock(text)).toBeNull()
  })

  it('a live owner holds it; an ended one, or a pid now used by another process, does not', () => {
    const parent = process.ppid
    expect(ownerRuns({ pid: parent, started: '' })).toBe(true) // a lock without a start time: the pid decides
    expect(ownerRuns({ pid: endedPid(), started: '' })).toBe(false)
    expect(ownerRuns({ pid: process.pid, started: '' })).toBe(false) // our own pid in an old lock is a previous life
    // The pid runs, but it started at another time: the lock's process ended and its pid was given again.
    expect(ownerRuns({ pid: parent, started: 'boot/1' }, () => 'boot/2')).toBe(false)
    expect(ownerRuns({ pid: parent, started: 'boot/1' }, () => 'boot/1')).toBe(true)
    // Where the start time cannot be read now, the pid decides.
    expect(ownerRuns({ pid: parent, started: 'boot/1' }, () => '')).toBe(true)
  })

  it.skipIf(!hasProc)('reads start times from /proc: the same for the same process, different for another', () => {
    expect(startedOf(process.pid)).toBe(startedOf('self'))
    expect(startedOf(process.ppid)).not.toBe('')
    expect(ownerRuns({ pid: process.ppid, started: startedOf(process.ppid) })).toBe(true)
    expect(ownerRuns({ pid: process.ppid, started: `${startedOf(process.ppid)}0` })).toBe(false)
  })

  it('a storage takes over a stale lock, refuses a live one, and leaves a lock it no longer holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringside-lock-'))
    const lock = join(dir, 'server.lock')

    writeFileSync(lock, `${endedPid()}\n`)
    const first = new DiskStorage(dir)
    first.lock()
    expect(readFileSync(lock, 'utf8')).toBe(lockText())

    // Another live process's lock (the parent's pid, with its start time where known).
    first.releaseLockSync()
    expect(existsSync(lock)).toBe(false)
    writeFileSync(lock, `${process.ppid}${hasProc ? ` ${startedOf(process.ppid)}` : ''}\n`)
    expect(() => new DiskStorage(dir).lock()).toThrow(DataInUseError)
    expect(() => new DiskStorage(dir).lock()).toThrow(`in use by another Ringside server (pid ${process.ppid})`)

    if (hasProc) {
      // The same pid with another start time: recycled, taken over.
      writeFileSync(lock, `${process.ppid} ${startedOf(process.ppid)}1\n`)
      const second = new DiskStorage(dir)
      second.lock()
      expect(readFileSync(lock, 'utf8')).toBe(lockText())
      // A server that took the folder over meanwhile keeps its lock when this one releases.
      writeFileSync(lock, `${process.ppid} ${startedOf(process.ppid)}\n`)
      second.releaseLockSync()
      expect(existsSync(lock)).toBe(true)
    }
  })
})
