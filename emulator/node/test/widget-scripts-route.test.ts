/**
 * GET /_ringside/v1/widget-scripts over HTTP: the harness's request reads a page
 * on this machine; another site's page cannot make the server read anything; a
 * URL off this machine is refused with the API's error body.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair } from './support.ts'

let server: RingsideServer
let origin: string
let widget: Server
let widgetUrl: string
let reads = 0
const CDN = 'https://unpkg.com/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js'

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'none' })
  origin = server.url.slice(0, -1)
  widget = createServer((_request, response) => {
    reads += 1
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<script src="${CDN}"></script>`)
  })
  await new Promise<void>((ready) => widget.listen(0, '127.0.0.1', ready))
  widgetUrl = `http://127.0.0.1:${(widget.address() as { port: number }).port}/`
})

afterAll(async () => {
  await server?.close()
  await new Promise<void>((done) => widget.close(() => done()))
})

const ask = (url: string, headers: Record<string, string> = {}) => fetch(`${origin}/_ringside/v1/widget-scripts?url=${encodeURIComponent(url)}`, { headers })

test("the harness's request gets the page's off-site scripts, the CDN SDK marked", async () => {
  const response = await ask(widgetUrl, { 'sec-fetch-site': 'same-origin' })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ url: widgetUrl, scripts: [{ url: CDN, sdk: true }], problem: null })
})

test("another site's page is refused before anything is read", async () => {
  const before = reads
  for (const site of ['cross-site', 'same-site']) {
    const response = await ask(widgetUrl, { 'sec-fetch-site': site })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ status: 'error', category: 'FORBIDDEN', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  }
  expect(reads).toBe(before)
})

test('a page off this machine is never read: 400 with the reason', async () => {
  const response = await ask('https://dialer.example/')
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ category: 'VALIDATION_ERROR', message: expect.stringContaining('on this machine') })
})
