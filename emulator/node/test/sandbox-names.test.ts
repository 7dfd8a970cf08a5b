/**
 * Fail closed, walked over names: whatever a request sends as its sandbox (in
 * the x-ringside-sandbox header or the ringside_sandbox cookie: dots,
 * spaces, unicode, control characters, empty, long, `main`, Object.prototype's
 * names), a header name is served by the sandbox of that name, isolated from
 * every other and from the main database, or refused with 400 and the real
 * API's error body; a cookie the server did not mint is always refused. The
 * main database, in memory and in its files on disk, is never touched by a
 * reset, a create or an import sent with it. A server started
 * without --sandboxes refuses every header name but `main`.
 *
 * The requests go over a raw socket, so that bytes a fetch client would
 * refuse to send (control characters, UTF-8 in a header) reach the server.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { SANDBOX_COOKIE, SANDBOX_HEADER, SANDBOX_NAME_RULE } from '../crms.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

interface Answer {
  status: number
  body: any
}

/** One HTTP/1.1 request written byte for byte (header values as UTF-8), answered on a closed connection. */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? '' : JSON.stringify(body)
  const lines = [`${method} ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close', `authorization: Bearer ${ACCOUNT.privateAppToken}`]
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  if (body !== undefined) lines.push('content-type: application/json', `content-length: ${Buffer.byteLength(payload)}`)
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${path} within 10 s`)))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', rest = ''] = text.split(/\r\n\r\n(.*)/s)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
      // A chunked body comes in one chunk here (the API answers small bodies whole).
      const json = /transfer-encoding: chunked/i.test(head) ? rest.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '') : rest
      let parsed: unknown = json
      try {
        parsed = JSON.parse(json)
      } catch {
        // Not JSON: kept as text, for the assertion's message.
      }
      resolve({ status, body: parsed })
    })
    // Not end(): a half-closed connection may be closed by the server before a slow (disk) answer is written.
    socket.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), Buffer.from(payload, 'utf8')]))
  })
}

/** The sandbox's name as the server reads it: HTTP drops spaces and tabs around a field value (RFC 9110 §5.5). */
const asRead = (name: string) => name.replace(/^[ \t]+|[ \t]+$/g, '')
const RULE = /^[A-Za-z0-9_-]{1,64}$/

const names = fc.oneof(
  fc.constantFrom(
    'main', 'MAIN', ' main ', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'suite.worker.1', 'a b', ' ', '', '\t',
    'x'.repeat(64), 'x'.repeat(65), 'é', 'naïve', '名前', '😀', 'a\u0000b', 'a\u0007b', 'a\u007fb', 'a\rb', '..', '-', '_', 'a,b', 'a%2Eb', '"quoted"',
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
  fc.string({ unit: 'binary-ascii', maxLength: 70 }),
)

let sandboxed: RingsideServer
let plain: RingsideServer
const dirs: Record<string, string> = {}

beforeAll(async () => {
  dirs.sandboxed = scratchDir('sandbox-names')
  dirs.plain = scratchDir('sandbox-names-plain')
  sandboxed = await startRingside({ port: await freePortPair(), data: dirs.sandboxed, pages: 'none', sandboxes: true, maxSandboxes: 100_000 })
  plain = await startRingside({ port: await freePortPair(), data: dirs.plain, pages: 'none' })
})

afterAll(async () => {
  await sandboxed?.close()
  await plain?.close()
  removeScratchDirs()
})

/** The data files on disk (not the lock), each by its content's hash. */
function filesOnDisk(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const name of readdirSync(dir).sort()) if (!name.endsWith('.lock')) files[name] = createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')
  return files
}

async function subjects(port: number, headers: Record<string, string>): Promise<string[]> {
  const answer = await rawRequest(port, 'GET', '/crm/v3/objects/tickets?limit=100&properties=subject', headers)
  expect(answer.status).toBe(200)
  return (answer.body.results as Array<{ properties: { subject: string } }>).map((t) => t.properties.subject)
}

/** The main database's content: its export without the export's own time. */
async function mainData(port: number): Promise<string> {
  const { body } = await rawRequest(port, 'GET', '/_ringside/v1/export', {})
  const { exportedAt: _, ...rest } = body
  return JSON.stringify(rest)
}

function expectRefused(answer: Answer, name: string, about: RegExp): void {
  expect(answer.status, `${JSON.stringify(name)}: ${JSON.stringify(answer.body)}`).toBe(400)
  expect(answer.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' })
  expect(answer.body.correlationId).toMatch(UUID)
  // Bytes HTTP itself forbids (control characters) are refused by the parser, before any store is named.
  if (!/^Malformed HTTP request/.test(answer.body.message)) expect(answer.body.message).toMatch(about)
}

let marker = 0

/** Reset, create, read and import with `name`; what a store answered with. */
async function walk(port: number, name: string, via: 'header' | 'cookie') {
  const headers: Record<string, string> = via === 'header' ? { [SANDBOX_HEADER]: name } : { cookie: `${SANDBOX_COOKIE}=${name}` }
  const subject = `marker ${++marker}`
  const reset = await rawRequest(port, 'POST', '/_ringside/v1/reset', headers)
  const created = await rawRequest(port, 'POST', '/crm/v3/objects/tickets', headers, { properties: { subject, hs_pipeline_stage: '1' } })
  const read = await rawRequest(port, 'GET', '/crm/v3/objects/tickets?limit=100&properties=subject', headers)
  const exported = await rawRequest(port, 'GET', '/_ringside/v1/export', headers)
  const imported = await rawRequest(port, 'POST', '/_ringside/v1/import', headers, exported.status === 200 ? exported.body : {})
  return { headers, subject, answers: [reset, created, read, exported, imported] }
}

test('every name is served by its own sandbox, isolated from the others and from main, or refused with 400; the disk database is never touched', async () => {
  const port = sandboxed.port
  const diskBefore = filesOnDisk(dirs.sandboxed as string)
  const mainBefore = await mainData(port)
  const probe = { [SANDBOX_HEADER]: 'isolation-probe' }
  let previous: { read: string; headers: Record<string, string> } | undefined
  await fc.assert(
    fc.asyncProperty(names, fc.constantFrom('header' as const, 'cookie' as const), async (name, via) => {
      // A cookie value cannot hold ";" (it ends the pair) or stand quoted; a header value cannot start or end with spaces.
      fc.pre(via === 'header' || !/[;"]/.test(name))
      const read = asRead(name)
      if (via === 'header' && read === 'main') return // names the main database, by design; never sent destructive requests here
      const { headers, subject, answers } = await walk(port, name, via)
      // A cookie names a store only when this server run minted it (sandbox-cookie.test.ts): every other value is refused, `main` too.
      if (via === 'cookie') {
        for (const answer of answers) expectRefused(answer, name, /cookie \(.*\) was not given by this server/)
      } else if (RULE.test(read)) {
        expect(answers.map((a) => a.status)).toEqual([200, 201, 200, 200, 200])
        expect(await subjects(port, headers)).toContain(subject)
        expect(await subjects(port, {})).not.toContain(subject)
        expect(await subjects(port, probe)).not.toContain(subject)
        // Nor in the sandbox of the name accepted before (unless it is the same name).
        if (previous && previous.read !== read) expect(await subjects(port, previous.headers)).not.toContain(subject)
        previous = { read, headers }
        const info = await rawRequest(port, 'GET', '/_ringside/v1/server', headers)
        expect(info.body.sandbox).toBe(read)
      } else {
        for (const answer of answers) expectRefused(answer, name, new RegExp(SANDBOX_NAME_RULE.slice(0, 40).replace(/[()]/g, '\\$&')))
      }
    }),
    { numRuns: 100 },
  )
  expect(await mainData(port)).toBe(mainBefore)
  expect(filesOnDisk(dirs.sandboxed as string)).toEqual(diskBefore)
}, 120_000)

test('a server started without --sandboxes refuses every name but main, with a sentence naming --sandboxes; its disk database is never touched', async () => {
  const port = plain.port
  const diskBefore = filesOnDisk(dirs.plain as string)
  const mainBefore = await mainData(port)
  await fc.assert(
    fc.asyncProperty(names, async (name) => {
      if (asRead(name) === 'main') return
      // Header only: without --sandboxes the cookie is ignored (it may be another server's), see sandbox-cookie.test.ts.
      const { answers } = await walk(port, name, 'header')
      for (const answer of answers) expectRefused(answer, name, /started without --sandboxes/)
    }),
    { numRuns: 60 },
  )
  expect(await mainData(port)).toBe(mainBefore)
  expect(filesOnDisk(dirs.plain as string)).toEqual(diskBefore)
  // `main` names the main database on either server.
  expect((await rawRequest(port, 'GET', '/_ringside/v1/server', { [SANDBOX_HEADER]: 'main' })).body).toMatchObject({ sandbox: null })
}, 120_000)
