/**
 * What export writes, import reads, over HTTP against the real server (a
 * child process, so its memory is its own): an export larger than the
 * other routes' body limit goes in, the server exports it again, and that
 * export goes into another server with every record. The server's peak RSS
 * while importing is read from /proc (VmHWM, reset through clear_refs), so
 * the bound is on memory, never on time. The 100k-contact figure is in
 * `npm run bench -- --only import`.
 */
import { createReadStream, createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { MAX_BODY_BYTES } from '../../core/index.ts'
import { IMPORT_LIMITS } from '../../core/index.ts'
import { REPO, removeScratchDirs, scratchDir } from './support.ts'
// @ts-expect-error: a plain JavaScript module of the benchmarks, without types
import { startRingsideServer } from '../../testing/ringside-server.mjs'
// @ts-expect-error: a plain JavaScript module of the benchmarks, without types
import { writeContactExport } from '../../testing/big-export.mjs'

interface Server {
  pid: number
  baseUrl: string
  rssKb(): { rss: number; peak: number }
  stop(): Promise<number>
}

/** Two servers for the whole file (each start costs seconds): `b`, the one measured, with a young generation of 1 MB per semi-space (V8's default grows to 16 MB), so that its RSS shows what the import keeps, not garbage yet to be collected. */
let a: Server
let b: Server
beforeAll(async () => {
  ;[a, b] = (await Promise.all([
    startRingsideServer({ root: REPO, data: scratchDir('import-http') }),
    startRingsideServer({ root: REPO, data: scratchDir('import-http'), nodeArgs: ['--max-semi-space-size=1'] }),
  ])) as [Server, Server]
}, 120_000)
afterAll(async () => {
  await Promise.all([a, b].map((server) => server?.stop()))
  removeScratchDirs()
})

/** POST a file to the import route as it streams from disk; resolves to the status and the parsed answer. */
async function importFile(server: Server, file: string, type = 'application/json') {
  const response = await fetch(`${server.baseUrl}/_ringside/v1/import`, { method: 'POST', headers: { 'content-type': type }, body: Readable.toWeb(createReadStream(file)), duplex: 'half' } as RequestInit)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/**
 * POST the first megabyte of a file the server refuses at its first bytes, and read the answer while the rest is
 * still to be sent (the client then gives up the upload): the answer arrives at once, whole, and says
 * `Connection: close` (RFC 9112 §9.6). A client that went on writing after it might see EPIPE instead of the
 * answer, depending on which it reads first; this one stops, as a browser does.
 */
function importEarlyRefused(server: Server, file: string): Promise<{ status: number; connection: string | undefined; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}/_ringside/v1/import`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(statSync(file).size) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> })
      })
      res.on('error', reject)
    })
    req.on('error', (error) => {
      if (!req.destroyed || !(error as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(error)
    })
    req.write(readFileSync(file).subarray(0, 1 << 20))
  })
}

/** Import `file` and the server's peak RSS growth meanwhile, in bytes (Linux /proc: the peak is reset first). */
async function importMeasured(server: Server, file: string) {
  writeFileSync(`/proc/${server.pid}/clear_refs`, '5')
  const before = server.rssKb().rss
  const result = await importFile(server, file)
  return { ...result, growth: (server.rssKb().peak - before) * 1024 }
}

async function exportTo(server: Server, file: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/_ringside/v1/export`)
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(file))
  return statSync(file).size
}

/** An export's text without the moment it was taken. */
const withoutTime = (file: string) => readFileSync(file, 'utf8').replace(/"exportedAt":"[^"]*"/, '')

test('an export over the other routes’ body limit goes in, comes out, and goes into another server whole, its memory bounded', { timeout: 120_000 }, async () => {
  const dir = scratchDir('import-files')
  const made = join(dir, 'made.json')
  const { bytes, contacts } = await writeContactExport({ baseUrl: a.baseUrl, file: made, count: 35_000 })
  expect(bytes).toBeGreaterThan(MAX_BODY_BYTES)
  const first = await importFile(a, made)
  expect(first.status, JSON.stringify(first.body)).toBe(200)
  expect(first.body.counts).toMatchObject({ contacts })

  const exported = join(dir, 'exported.json')
  const size = await exportTo(a, exported)
  expect(size).toBeGreaterThan(MAX_BODY_BYTES)
  const second = await importMeasured(b, exported)
  expect(second.status, JSON.stringify(second.body)).toBe(200)
  expect(second.body.counts).toMatchObject({ contacts })
  // Every record arrived: the second server exports what the first one did.
  const again = join(dir, 'again.json')
  await exportTo(b, again)
  expect(withoutTime(again) === withoutTime(exported)).toBe(true)
  // The rows themselves take some memory; the body, its text and a parsed copy of it are never held besides.
  console.log(`import of ${(size / 1e6).toFixed(1)} MB (${contacts} contacts): peak RSS +${(second.growth / 1e6).toFixed(1)} MB`)
  // The bound allows for Node 24's heap, which grows more than Node 20's under the same flags (6.5× measured on
  // 24.22 in a clean-clone CI run, under 5× on 20.20).
  expect(second.growth).toBeLessThan(8 * size)
})

test('the import streams: a 32 MB body of a small export and whitespace grows the server by less than a few times the body', { timeout: 60_000 }, async () => {
  const server = b
  expect((await fetch(`${server.baseUrl}/_ringside/v1/reset`, { method: 'POST' })).status).toBe(200)
  const file = join(scratchDir('import-files'), 'padded.json')
  const { bytes, contacts } = await writeContactExport({ baseUrl: server.baseUrl, file, count: 100, pad: 320_000 })
  expect(bytes).toBeGreaterThan(32e6)
  const result = await importMeasured(server, file)
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  expect(result.body.counts).toMatchObject({ contacts })
  // Garbage not yet collected (the socket's buffers among it) comes and goes with the machine's load; a reader that held the body, its text and a parsed copy grew by 9 times it.
  expect(result.growth).toBeLessThan(3 * bytes)
})

test('refusals over HTTP: the API error body at once, and the data unchanged', { timeout: 60_000 }, async () => {
  const server = a
  expect((await fetch(`${server.baseUrl}/_ringside/v1/reset`, { method: 'POST' })).status).toBe(200)
  const dir = scratchDir('import-files')
  const before = join(dir, 'before.json')
  await exportTo(server, before)

  // Over the budget by its declared length: refused before a byte of it is read.
  const declared = await fetch(`${server.baseUrl}/_ringside/v1/import`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(IMPORT_LIMITS.bytes + 1) }, body: '{}' }).catch((error: unknown) => error)
  if (declared instanceof Response) {
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({ category: 'PAYLOAD_TOO_LARGE', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  }

  // Refused at its first byte while 24 MB more are on their way: the answer still arrives whole, with its body.
  const early = join(dir, 'early.json')
  writeFileSync(early, `x${' '.repeat(24e6)}`)
  const first = await importEarlyRefused(server, early)
  expect(first.status).toBe(400)
  expect(first.body).toMatchObject({ category: 'VALIDATION_ERROR', message: expect.stringContaining('Nothing was imported.') })
  expect(first.connection).toBe('close')

  // Malformed at the last line, after 5,000 good rows.
  const made = join(dir, 'made.json')
  await writeContactExport({ baseUrl: server.baseUrl, file: made, count: 5_000 })
  const broken = join(dir, 'broken.json')
  writeFileSync(broken, `${readFileSync(made, 'utf8').slice(0, -2)},"crm_notes":[["1",{"nope":true}]]}}`)
  const refused = await importFile(server, broken)
  expect(refused.status).toBe(400)
  expect(refused.body).toMatchObject({ category: 'VALIDATION_ERROR', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/), message: expect.stringMatching(/appears twice|invalid/) })

  const after = join(dir, 'after.json')
  await exportTo(server, after)
  expect(withoutTime(after) === withoutTime(before)).toBe(true)
})
