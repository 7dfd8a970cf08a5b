import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { fetchWidgetPage, nameOfWidget, titleOf, widgetName } from './widget-page.ts'

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
