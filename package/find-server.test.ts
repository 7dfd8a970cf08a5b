/**
 * The data commands find the server of their data location by themselves:
 * units of findTarget with a live owner faked (this process's parent holds
 * the lock, as data-lock.test.ts does), then `ringside reset`/`export` run in
 * a folder whose `.ringside` a real server on a non-default port holds.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { freePortPair, killRunningServers, removeScratchDirs, runCli, scratchDir, waitForServer } from '../emulator/node/test/support.ts'
import { findTarget } from './find-server.ts'

const root = resolve(import.meta.dirname, '..')

afterAll(() => {
  killRunningServers()
  removeScratchDirs()
})

/** A data folder that a live process (this one's parent) holds, saying it answers at `url` (or saying nothing). */
function heldFolder(url: string | null): string {
  const dir = scratchDir('held')
  writeFileSync(join(dir, 'server.lock'), `${process.ppid}\n`)
  if (url !== null) writeFileSync(join(dir, 'server.json'), `${JSON.stringify({ pid: process.ppid, url })}\n`)
  return dir
}

describe('findTarget', () => {
  it('--url wins, whatever holds the data', () => {
    expect(findTarget({ url: 'http://127.0.0.1:9001', data: heldFolder('http://127.0.0.1:7464/') }, true)).toEqual({ url: 'http://127.0.0.1:9001' })
  })

  it('the server that holds --data, at the URL its folder gives', () => {
    const dir = heldFolder('http://127.0.0.1:7999/')
    expect(findTarget({ data: dir }, true)).toEqual({ url: 'http://127.0.0.1:7999', found: expect.stringMatching(new RegExp(`^the server of .*held-.*, pid ${process.ppid}$`)) })
    expect(findTarget({ data: dir }, false)).toMatchObject({ url: 'http://127.0.0.1:7999' })
  })

  it('a holder that does not say where it answers, or names another pid: a sentence asking for --url', () => {
    expect(findTarget({ data: heldFolder(null) }, true)).toEqual({ problem: expect.stringMatching(/in use by a Ringside server \(pid \d+\) that does not say where it answers.*pass --url/) })
    const dir = heldFolder(null)
    writeFileSync(join(dir, 'server.json'), JSON.stringify({ pid: process.ppid + 100_000, url: 'http://127.0.0.1:7999/' }))
    expect(findTarget({ data: dir }, true)).toHaveProperty('problem')
  })

  it('no server: the files of --data for export/import/reset; open needs a server', () => {
    const dir = scratchDir('files')
    expect(findTarget({ data: dir }, true)).toEqual({ data: dir })
    expect(findTarget({ data: join(dir, 'not-yet') }, true)).toEqual({ data: join(dir, 'not-yet') })
    expect(findTarget({ data: dir }, false)).toEqual({ problem: expect.stringMatching(/^no Ringside server holds .*: start one with `ringside start --data .*`, or pass --url/) })
  })

  it('a stale lock (its process is gone) is no server', () => {
    const dir = scratchDir('stale')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'server.lock'), '999999999\n')
    writeFileSync(join(dir, 'server.json'), JSON.stringify({ pid: 999999999, url: 'http://127.0.0.1:7999/' }))
    expect(findTarget({ data: dir }, true)).toEqual({ data: dir })
  })
})

/** `ringside <args>` from the sources, in `cwd`. */
function ringside(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, '-e', `import(${JSON.stringify(join(root, 'package', 'cli.ts'))}).then((cli) => cli.main(['node', 'ringside', ...${JSON.stringify(args)}]))`], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  })
  return { code: run.status, stderr: run.stderr, stdout: run.stdout }
}

describe('ringside reset and export without --url', { timeout: 120_000 }, () => {
  it('find the server that holds ./.ringside on a port of its own; with no server and no data, one sentence, exit 2', async () => {
    const project = scratchDir('project')
    const port = await freePortPair()
    const server = runCli(['--port', String(port), '--no-pages', '--data', join(project, '.ringside')])
    const origin = `http://127.0.0.1:${port}`
    await waitForServer(origin, server)
    const created = await fetch(`${origin}/crm/v3/objects/contacts`, {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { firstname: 'Findme', lastname: 'Byfolder' } }),
    })
    expect(created.status).toBe(201)

    const exported = ringside(project, 'export')
    expect(exported.stderr).toBe('')
    expect(exported.stdout).toContain('Findme')
    const reset = ringside(project, 'reset')
    expect(reset.stdout.trim()).toBe(`Reset ${origin} (the server of .ringside, pid ${server.child.pid}) to the seed data.`)
    expect(ringside(project, 'export').stdout).not.toContain('Findme')

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const empty = scratchDir('empty')
    const none = ringside(empty, 'reset')
    expect(none.code).toBe(2)
    expect(none.stderr.trim()).toMatch(/^ringside: no Ringside server holds the data location \.ringside \(the default; --data names another\), and there is no data there: start one with `ringside start`, or pass --url/)
  })
})
