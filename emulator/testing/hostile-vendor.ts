/**
 * A calling app's server that misbehaves in every way an outbound read can
 * meet, for the outbound test: two of them (A and B, on two ports) so a
 * redirect can go to another port and back.
 *
 * Every misbehaviour is a MODE, served in three shapes:
 * - GET  /ep/{mode}     a well-behaved recording endpoint: `{authenticatedUrl: …/file/{mode}}`;
 * - GET  /epx/{mode}    a recording endpoint that itself misbehaves (its honest answer points at /file/honest);
 * - GET  /file/{mode}   the recording file;
 * - POST /numbers/{mode} the channel-connection webhook;
 * - GET  /page/{mode}   a widget page.
 * The file is FILE_SIZE bytes, byte i being i % 251.
 */
import { spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createInterface } from 'node:readline'

export const FILE_SIZE = 48 * 1024 * 1024

/** What each mode does; `honest` and `hop` are the only well-behaved ones. */
export const MODES = {
  honest: 'answers as it should (206 to a Range request)',
  'ignores-range': 'answers a Range request 200 with the whole file (Content-Length)',
  endless: 'sends a body that never ends, without a Content-Length',
  'endless-206': 'answers 206 bytes 0-1, then sends without end',
  'slow-headers': 'never sends its headers',
  trickle: 'sends its headers, then one byte every 50 ms',
  'lies-short': 'says Content-Length of the whole file, sends 1000 bytes and hangs up',
  'lies-long': 'says Content-Length 10 and sends 1 MiB',
  hop: 'redirects to the other port, which redirects back to honest',
  loop: 'redirects to itself, forever',
  'to-remote-name': 'redirects to http://127.attacker.example (a name that only looks like this machine)',
  'to-mapped': 'redirects to http://[::ffff:10.0.0.1] (an IPv4-mapped address elsewhere)',
  'to-private': 'redirects to http://10.0.0.1',
  'to-https-mapped': 'redirects to https://[::ffff:7f00:1]:1 (this machine, a closed port)',
} as const
export type Mode = keyof typeof MODES

const byteAt = (i: number) => i % 251

/** The file's bytes repeat every 251: a copy of one long run is as fast as a slice. */
const PATTERN = Buffer.from(Array.from({ length: 251 + 64 * 1024 }, (_, i) => byteAt(i)))

function fileBytes(start: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length)
  for (let done = 0; done < length; ) {
    const from = (start + done) % 251
    const n = Math.min(length - done, 64 * 1024)
    PATTERN.copy(out, done, from, from + n)
    done += n
  }
  return out
}

/** Write `bytes` of the file from `start` (Infinity: without end), honouring backpressure, until the client goes. */
async function pour(response: ServerResponse, start: number, bytes: number): Promise<void> {
  const CHUNK = 64 * 1024
  let at = start
  while (at - start < bytes && !response.destroyed) {
    const n = Math.min(CHUNK, start + bytes - at)
    if (!response.write(fileBytes(at, n))) {
      await new Promise<void>((ok) => {
        const go = () => {
          response.off('drain', go).off('close', go)
          ok()
        }
        response.on('drain', go).on('close', go)
      })
    }
    at += n
  }
  if (!response.destroyed) response.end()
}

function trickle(response: ServerResponse): void {
  const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write('x')), 50)
  response.once('close', () => clearInterval(timer))
}

export interface HostileVendor {
  /** http://127.0.0.1:port of A and B. */
  a: string
  b: string
  close(): Promise<void>
}

function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  return new Promise((ready) => {
    const server = createServer(handler)
    server.listen(0, '127.0.0.1', () => ready(server))
  })
}

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as { port: number }).port}`

/** The vendor in this process. */
export async function serveHostileVendor(): Promise<HostileVendor> {
  const servers: Server[] = []
  const other = (self: Server) => origin(servers.find((s) => s !== self)!)
  const handler = (self: () => Server) => (request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    // The recording endpoint's template is `{origin}/%s`, the external id `ep/{mode}` (the CRM encodes its slash).
    const [, shape = '', mode = ''] = /^\/([a-z]+)\/([a-z0-9-]+)/.exec(decodeURIComponent(request.url ?? '')) ?? []
    const here = origin(self())
    const redirect = (to: string) => {
      response.writeHead(request.method === 'POST' ? 307 : 302, { location: to })
      response.end()
    }
    const json = (value: unknown) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    if (shape === 'ep') return json({ authenticatedUrl: `${here}/file/${mode}` })
    // Hop back (from the other port) to the honest one.
    if (shape === 'back') return redirect(`${other(self())}/${mode}/honest`)
    // /{shape}/to?url=…: a redirect wherever the test says (Ringside's own API, say).
    if (mode === 'to') return redirect(new URL(request.url ?? '/', here).searchParams.get('url') ?? '/')
    switch (mode as Mode) {
      case 'hop':
        return redirect(`${other(self())}/back/${shape}`)
      case 'loop':
        return redirect(`${here}/${shape}/loop`)
      case 'to-remote-name':
        return redirect(`http://127.attacker.example:${here.split(':')[2]}/${shape}/honest`)
      case 'to-mapped':
        return redirect(`http://[::ffff:10.0.0.1]/${shape}/honest`)
      case 'to-private':
        return redirect(`http://10.0.0.1/${shape}/honest`)
      case 'to-https-mapped':
        return redirect(`https://[::ffff:7f00:1]:1/${shape}/honest`)
      case 'slow-headers':
        return
      default:
    }
    const type = shape === 'file' ? 'audio/wav' : shape === 'page' ? 'text/html' : 'application/json'
    const prefix = { page: '<title>Hostile Dialer</title>', numbers: '[{"e164PhoneNumber":"+18001231234"}', epx: '{"authenticatedUrl":"' }[shape] ?? ''
    switch (mode as Mode) {
      case 'endless':
        response.writeHead(200, { 'content-type': type })
        response.write(prefix)
        return void pour(response, 0, Infinity)
      case 'endless-206':
        response.writeHead(206, { 'content-type': type, 'content-range': `bytes 0-1/${FILE_SIZE}` })
        return void pour(response, 0, Infinity)
      case 'trickle':
        response.writeHead(200, { 'content-type': type, 'content-length': String(FILE_SIZE) })
        response.write(prefix)
        return trickle(response)
      case 'lies-short':
        response.writeHead(200, { 'content-type': type, 'content-length': String(FILE_SIZE) })
        response.write(prefix || fileBytes(0, 1000))
        return void setTimeout(() => response.destroy(), 20)
      case 'lies-long':
        response.writeHead(200, { 'content-type': type, 'content-length': '10' })
        response.write(fileBytes(0, 1024 * 1024))
        return void response.destroy()
      default:
    }
    if (shape === 'numbers') return void response.writeHead(200, { 'content-type': type }).end(`${prefix}]`)
    if (shape === 'epx') return json({ authenticatedUrl: `${here}/file/honest` })
    if (shape === 'page') return void response.writeHead(200, { 'content-type': type }).end(prefix)
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '')
    if (mode === 'honest' && range) {
      const start = Number(range[1])
      const end = Math.min(range[2] ? Number(range[2]) : FILE_SIZE - 1, FILE_SIZE - 1)
      response.writeHead(206, { 'content-type': type, 'content-range': `bytes ${start}-${end}/${FILE_SIZE}`, 'content-length': String(end - start + 1) })
      return void pour(response, start, end - start + 1)
    }
    // honest without a Range, and ignores-range: the whole file.
    response.writeHead(200, { 'content-type': type, 'content-length': String(FILE_SIZE) })
    return void pour(response, 0, FILE_SIZE)
  }
  const a = await serve(handler(() => a))
  const b = await serve(handler(() => b))
  servers.push(a, b)
  return {
    a: origin(a),
    b: origin(b),
    close: async () => {
      for (const server of servers) server.closeAllConnections()
      await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
    },
  }
}

/** Whether `bytes` are the file's bytes from `start`. */
export function isFileAt(bytes: Uint8Array, start: number): boolean {
  return bytes.every((byte, i) => byte === byteAt(start + i))
}

/**
 * The vendor in a child process of its own, so its endless and trickling
 * answers do not share the event loop of the server under test.
 */
export async function startHostileVendor(): Promise<HostileVendor> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the hostile vendor exited (${code})`)))
  })
  const { a, b } = JSON.parse(line) as { a: string; b: string }
  return {
    a,
    b,
    close: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done())
        child.kill()
      }),
  }
}

if (process.argv[1] === import.meta.filename) {
  const vendor = await serveHostileVendor()
  process.stdout.write(`${JSON.stringify({ a: vendor.a, b: vendor.b })}\n`)
}
