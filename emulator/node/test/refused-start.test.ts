/**
 * A start that cannot listen refuses before it touches the data location, and
 * names the next free pair; a start on a data location another server holds
 * names that server's URL (data-owner.ts); requests that arrive while the data
 * loads get a 503 with Retry-After, never a hung socket.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { bindPorts, ListenError } from '../listeners.ts'
import { startRingside } from '../server.ts'
import { dataPaths } from '../storage/data-folder.ts'
import { runningServer } from '../storage/data-owner.ts'
import { expectErrorBody, freePortPair, killRunningServers, removeScratchDirs, runCli, scratchDir, waitForServer } from './support.ts'

afterAll(() => {
  killRunningServers()
  removeScratchDirs()
})

function occupy(port: number): Promise<Server> {
  return new Promise((done) => {
    const server = createServer().listen(port, '127.0.0.1', () => done(server))
  })
}

describe('a refused start', { timeout: 40_000 }, () => {
  test.each([
    ['the harness port', 0],
    ['the widget port', 1],
  ])('with %s taken: a ListenError naming the next free pair, no data folder created, neither port left bound', async (_name, offset) => {
    const port = await freePortPair()
    const blocker = await occupy(port + offset)
    const data = join(scratchDir('refused'), 'never-created')
    try {
      const error = await startRingside({ port, data, pages: 'none' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ListenError)
      expect((error as Error).message).toMatch(new RegExp(`^Port ${port + offset} on 127\\.0\\.0\\.1 \\(.+\\) is already in use: stop what runs there, or the next free pair is --port (\\d+) \\(\\d+ and \\d+\\)\\.$`))
      const next = Number(/--port (\d+)/.exec((error as Error).message)?.[1])
      expect(next).toBeGreaterThan(port + offset)
      expect(existsSync(data)).toBe(false)
      // The other port of the pair was released: a server can take the pair once the blocker goes.
      blocker.close()
      const server = await startRingside({ port, data: null, pages: 'none' })
      await server.close()
    } finally {
      blocker.close()
    }
  })

  test('refused after the ports (an --import that cannot be read): the data folder it would have made is not left behind; one that existed stays', async () => {
    const parent = scratchDir('refused-import')
    const bad = join(parent, 'cut.json')
    writeFileSync(bad, '{"format":')
    const data = join(parent, 'never-created')
    await expect(startRingside({ port: await freePortPair(), data, pages: 'none', importFile: bad })).rejects.toThrow(/--import/)
    expect(existsSync(data)).toBe(false)
    const existing = join(parent, 'existing')
    mkdirSync(existing)
    await expect(startRingside({ port: await freePortPair(), data: existing, pages: 'none', importFile: bad })).rejects.toThrow(/--import/)
    expect(existsSync(existing)).toBe(true)
  })

  test('on a data folder another server holds: names its pid and URL; the owner file goes when that server stops', async () => {
    const port = await freePortPair()
    const dir = scratchDir('owner')
    const first = runCli(['--port', String(port), '--no-pages', '--data', dir])
    await waitForServer(`http://127.0.0.1:${port}`, first)
    expect(runningServer(dataPaths(dir))).toEqual({ pid: first.child.pid, url: `http://127.0.0.1:${port}/` })
    const other = await freePortPair()
    await expect(startRingside({ port: other, data: dir, pages: 'none' })).rejects.toThrow(`${dir} is in use by another Ringside server (pid ${first.child.pid}) at http://127.0.0.1:${port}/.`)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(existsSync(join(dir, 'server.json'))).toBe(false)
    expect(runningServer(dataPaths(dir))).toBeNull()
  })

  test('a server writes where it answers into its data folder, as JSON with its pid', async () => {
    const port = await freePortPair()
    const dir = scratchDir('owner-file')
    const server = await startRingside({ port, data: dir, pages: 'none' })
    try {
      expect(JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'))).toEqual({ pid: process.pid, url: `http://127.0.0.1:${port}/` })
    } finally {
      await server.close()
    }
    expect(existsSync(join(dir, 'server.json'))).toBe(false)
  })
})

describe('bindPorts', () => {
  test('answers 503 with Retry-After and the API error body until ready, then the listeners own each origin', async () => {
    const port = await freePortPair()
    const listeners = await bindPorts(port, '127.0.0.1')
    try {
      for (const origin of [port, port + 1]) {
        const response = await fetch(`http://127.0.0.1:${origin}/crm/v3/objects/contacts`)
        expect(response.headers.get('retry-after')).toBe('1')
        await expectErrorBody(response, 503, 'VALIDATION_ERROR', /^Ringside is starting/)
      }
      listeners.ready({ harness: (_req, res) => void res.end('harness'), widget: (_req, res) => void res.end('widget') })
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('harness')
      expect(await (await fetch(`http://127.0.0.1:${port + 1}/`)).text()).toBe('widget')
    } finally {
      await listeners.close()
    }
  })
})
