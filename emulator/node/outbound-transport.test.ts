import { lookup } from 'node:dns/promises'
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { nodeTransport } from './outbound-transport.ts'

let server: Server
let port: number
let requests = 0

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests++
    response.writeHead(302, { location: '/elsewhere' }).end()
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  port = (server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

test('every address a name resolves to is checked before connecting; one refused address refuses the request, and nothing is sent', async () => {
  const send = nodeTransport()
  const resolved = (await lookup('localhost', { all: true, verbatim: true })).map((a) => a.address)
  const checked: string[] = []
  const before = requests
  await expect(
    send(new Request(`http://localhost:${port}/`), (address) => {
      checked.push(address)
      return address === resolved.at(-1) ? `refused ${address}` : null
    }),
  ).rejects.toMatchObject({ name: 'OutboundError', code: 'ERR_OUTBOUND_ADDRESS', message: `refused ${resolved.at(-1)}` })
  expect(checked).toEqual(resolved)
  expect(requests, 'no request reached the server').toBe(before)
})

test('an IP literal is checked as it is; a redirect is handed back, never followed', async () => {
  const checked: string[] = []
  const answer = await nodeTransport()(new Request(`http://127.0.0.1:${port}/`), (address) => (checked.push(address), null))
  expect(checked).toEqual(['127.0.0.1'])
  expect(answer.status).toBe(302)
  expect(answer.headers.get('location')).toBe('/elsewhere')
})

test('a name that does not resolve fails with its code', async () => {
  await expect(nodeTransport()(new Request('http://no-such-host.invalid/'))).rejects.toMatchObject({ code: 'ENOTFOUND' })
})
