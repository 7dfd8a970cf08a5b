/**
 * Widgets Ringside's authors did not write, checked as a user would: `check-widget
 * <url>` with no driver option, so the generic driver (kit/drivers/generic.ts)
 * works them through their own buttons. Each must get through the whole outbound
 * journey: the call placed, ended, wrapped up and read back from the CRM.
 *
 * Their code is never committed here. $RINGSIDE_THIRD_PARTY_WIDGETS names a local
 * folder of built widgets, one per subfolder with its index.html (for example the
 * vendor's demos/demo-minimal-js and demos/demo-react-ts from
 * github.com/HubSpot/calling-extensions-sdk, built with their own build); this spec
 * serves it on a port of its own. Without the variable it is skipped, saying so.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { expect, test } from '@playwright/test'
import { checkWidget, portBlock } from './support/check-widget-run.ts'

const folder = process.env.RINGSIDE_THIRD_PARTY_WIDGETS?.trim() ? resolve(process.env.RINGSIDE_THIRD_PARTY_WIDGETS.trim()) : null
const widgets = folder && existsSync(folder) ? readdirSync(folder).filter((name) => existsSync(join(folder, name, 'index.html'))) : []
const TYPES: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' }

/** A static server for the folder (GET only, no path outside it). */
function serve(root: string, port: number): Promise<Server> {
  return new Promise((ready) => {
    const server = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
      let file = resolve(root, `.${path}`)
      if (file !== root && !file.startsWith(root + sep)) return void response.writeHead(403).end()
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html')
      if (!existsSync(file)) return void response.writeHead(404).end()
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file))
    })
    server.listen(port, '127.0.0.1', () => ready(server))
  })
}

test.describe('widgets we did not write', () => {
  test.describe.configure({ mode: 'serial', timeout: 150_000 })
  let server: Server | undefined
  const staticPort = portBlock(20)

  test.beforeAll(async () => {
    if (folder && widgets.length > 0) server = await serve(folder, staticPort)
  })
  test.afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

  test('there are widgets to check', () => {
    test.skip(folder === null, 'set RINGSIDE_THIRD_PARTY_WIDGETS to a folder of built widgets (one per subfolder) to run these checks')
    expect(widgets, `no subfolder of ${folder} has an index.html`).not.toEqual([])
  })

  for (const [i, name] of widgets.entries()) {
    test(`${name}: the generic driver runs the whole outbound journey`, async () => {
      const base = portBlock(21 + i)
      const run = await checkWidget([`http://127.0.0.1:${staticPort}/${name}/`, '--port', String(base)])
      expect(run.output).toContain("Driver: generic (the widget's buttons by their accessible names)")
      expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all 8 checks passed/)
      expect(run.code, run.output).toBe(0)
    })
  }
})
