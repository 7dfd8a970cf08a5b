import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../core/index.ts'
import { offSiteScripts, widgetScripts } from './widget-scripts.ts'

/** One page server for the file: /ok is a widget page that loads the SDK from jsDelivr, anything else is 404. */
let pages: Server
let origin: string
beforeAll(async () => {
  pages = createServer((request, response) => {
    const found = request.url === '/ok'
    response.writeHead(found ? 200 : 404, { 'content-type': 'text/html' })
    response.end(found ? `<title>Dialer</title><script src="${CDN}"></script>` : 'gone')
  })
  await new Promise<void>((ready) => pages.listen(0, '127.0.0.1', ready))
  origin = `http://127.0.0.1:${(pages.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((done) => pages.close(() => done())))

const CDN = 'https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9/dist/main.js'

describe("a widget page's scripts from other sites", () => {
  it('lists the off-site <script src>, the calling SDK on a public CDN first, never this machine’s', () => {
    const html = `
      <script src="https://cdn.example/analytics.js"></script>
      <script type="module" src='/assets/app.js'></script>
      <script src=${CDN} defer></script>
      <script src="http://localhost:5000/dev.js"></script>
      <script src="javascript:alert(1)"></script>
      <script src="https://cdn.example/analytics.js"></script>
      <script>inline()</script>`
    expect(offSiteScripts(html, 'http://127.0.0.1:3000/')).toEqual([
      { url: CDN, sdk: true },
      { url: 'https://cdn.example/analytics.js', sdk: false },
    ])
  })

  it('keeps at most 20 scripts of a page full of them', () => {
    const html = Array.from({ length: 5000 }, (_, i) => `<script src="https://s${i}.example/x.js"></script>`).join('')
    expect(offSiteScripts(html, 'http://localhost:3000/')).toHaveLength(20)
  })

  it('reads a page on this machine', async () => {
    const url = `${origin}/ok`
    expect(await widgetScripts(url)).toEqual({ url, scripts: [{ url: CDN, sdk: true }], problem: null })
  })

  it('says why a page could not be read, with no scripts', async () => {
    const url = `${origin}/gone`
    expect(await widgetScripts(url)).toEqual({ url, scripts: [], problem: 'the widget page answered 404 Not Found' })
    // Port 1 on loopback: nothing listens there.
    const refused = await widgetScripts('http://127.0.0.1:1/')
    expect(refused).toMatchObject({ scripts: [], problem: expect.stringMatching(/^the widget page could not be read: /) })
  })

  it.each(['https://dialer.example/widget/', 'http://127.attacker.example/', 'file:///etc/passwd', 'not a url', undefined])('never reads %s: a 400 that says why', async (url) => {
    const answer = await widgetScripts(url)
    expect(answer).toBeInstanceOf(ApiError)
    expect((answer as ApiError).status).toBe(400)
    expect((answer as ApiError).message).toMatch(/^url must be/)
  })
})
