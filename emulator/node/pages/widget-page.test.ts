import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { fetchWidgetPage, nameOfWidget, titleOf, widgetName, WidgetPageTimeout } from './widget-page.ts'

let server: Server | undefined
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

function serve(status: number, body: string): Promise<string> {
  return new Promise((ready) => {
    server = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'text/html' })
      response.end(body)
    }).listen(0, '127.0.0.1', () => {
      const address = server!.address() as { port: number }
      ready(`http://127.0.0.1:${address.port}/dialer/`)
    })
  })
}

describe('the widget page: its name and whether it answers', () => {
  it('reads the <title> as plain text: entities decoded, whitespace collapsed, long titles clipped', () => {
    expect(titleOf('<html><head><title>\n  Acme &amp; Co &#8211; Dialer </title></head>')).toBe('Acme & Co – Dialer')
    expect(titleOf('<title lang="en">It&#x27;s &lt;b&gt;</title>')).toBe("It's <b>")
    expect(titleOf('<title>   </title>')).toBeNull()
    expect(titleOf('<p>no title</p>')).toBeNull()
    expect(titleOf(`<title>${'x'.repeat(300)}</title>`)!.length).toBe(80)
  })

  it('names a widget without a title after where it lives', () => {
    expect(widgetName('http://localhost:3000/', null)).toBe('Widget at localhost:3000')
    expect(widgetName('https://dialer.example/app/widget/?x=1', null)).toBe('Widget at dialer.example/app/widget')
    expect(widgetName('https://dialer.example/', 'Acme Dialer')).toBe('Acme Dialer')
  })

  it("fetches the page's status and title; a 404 keeps the fallback name; nothing listening is an error with its code", async () => {
    const url = await serve(200, '<title>Acme Dialer</title>')
    expect(await fetchWidgetPage(new URL(url))).toEqual({ status: 200, statusText: 'OK', title: 'Acme Dialer' })
    expect(await nameOfWidget(url)).toBe('Acme Dialer')
    await new Promise<void>((done) => server!.close(() => done()))
    const missing = await serve(404, '<title>Not found</title>')
    expect((await fetchWidgetPage(new URL(missing))).status).toBe(404)
    expect(await nameOfWidget(missing)).toBe(`Widget at ${new URL(missing).host}/dialer`)
    await new Promise<void>((done) => server!.close(() => done()))
    server = undefined
    await expect(fetchWidgetPage(new URL(missing))).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(await nameOfWidget(missing)).toBe(`Widget at ${new URL(missing).host}/dialer`)
  })
})

describe('the widget page within its bound (shared/waits.ts: widget-page, widget-name)', () => {
  /** A server that sends `sent` (nothing: not even the status line) and then holds the connection open. */
  function hold(sent: string | null): Promise<string> {
    return new Promise((ready) => {
      const held = createServer((_request, response) => {
        if (sent === null) return
        response.writeHead(200, { 'content-type': 'text/html' })
        response.write(sent)
      })
      server = held
      // close() waits for open connections; these are held, so they are cut.
      const close = held.close.bind(held)
      held.close = (done) => (held.closeAllConnections(), close(done))
      held.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(held.address() as { port: number }).port}/dialer/`))
    })
  }

  it('a page that never finishes loading ends at the bound with what was received, its title kept', async () => {
    const url = await hold('<title>Slow Dialer</title><p>')
    const error = await fetchWidgetPage(new URL(url), { timeoutMs: 300 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WidgetPageTimeout)
    expect(error).toMatchObject({ code: 'ETIMEDOUT', ms: 300, received: 'it answered 200 OK and sent 29 bytes of the page, then nothing more', title: 'Slow Dialer' })
    const said: string[] = []
    expect(await nameOfWidget(url, { timeoutMs: 300, warn: (sentence) => said.push(sentence) })).toBe('Slow Dialer')
    expect(said).toEqual([`the widget page at ${url} did not finish loading within 300 ms (it answered 200 OK and sent 29 bytes of the page, then nothing more); the dock names it "Slow Dialer"`])
  })

  it('a server that accepts and never answers: "not even a status line"', async () => {
    const url = await hold(null)
    await expect(fetchWidgetPage(new URL(url), { timeoutMs: 300 })).rejects.toMatchObject({ received: 'no answer (not even a status line)', title: null })
  })
})
