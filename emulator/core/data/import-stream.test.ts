import fc from 'fast-check'
import { createCrmService } from '../service.ts'
import { portableLines } from './line-format.ts'
import { IMPORT_LIMITS, IMPORT_PATH, readImport, type ImportLimits } from './import-stream.ts'
import { client, tablesOf } from '../../testing/objects.ts'
import { expectError, T0 } from '../../testing/timeline.ts'
import type { Snapshot } from './snapshot-format.ts'

const BASE = 'http://ringside.local'
const ENCODER = new TextEncoder()

/** A service with some data of every kind (the seed) and a few contacts of our own, one with text that needs escaping. */
async function source() {
  const api = createCrmService({ now: () => T0 })
  const c = client(api)
  await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'q@example.com', firstname: 'Quote " and \\ backslash', lastname: '{[,]}: ünïcødé 😀' } }, 201)
  await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'r@example.com', firstname: 'R' } }, 201)
  const exported = (await (await api.handle(new Request(`${BASE}/_ringside/v1/export`))).json()) as Snapshot
  return { api, exported }
}

/** The export as a data folder's snapshot.ndjson (the line format). */
function asLines(snapshot: Snapshot): string {
  const lines = [portableLines.checksummed(JSON.stringify({ format: snapshot.format, version: snapshot.version, layout: 'ndjson', exportedAt: snapshot.exportedAt, journalGeneration: 'g' }))]
  let rows = 0
  for (const [table, pairs] of Object.entries(snapshot.tables)) {
    lines.push(portableLines.checksummed(JSON.stringify({ table, rows: pairs.length })))
    for (const pair of pairs) lines.push(portableLines.checksummed(JSON.stringify(pair)))
    rows += pairs.length
  }
  lines.push(portableLines.checksummed(JSON.stringify({ end: true, tables: Object.keys(snapshot.tables).length, rows })))
  return lines.join('')
}

/** `text` as a stream of its UTF-8 bytes, cut at `cuts` (byte offsets, so a character may be split across chunks). */
function streamOf(text: string, cuts: number[] = []): ReadableStream<Uint8Array> {
  const bytes = ENCODER.encode(text)
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Uint8Array[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.subarray(from, point))
    from = point
  }
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift()
      if (next) controller.enqueue(next)
      else controller.close()
    },
  })
}

const post = (body: BodyInit, type = 'application/json', headers: Record<string, string> = {}) =>
  new Request(`${BASE}${IMPORT_PATH}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body, duplex: 'half' } as RequestInit)

test('every kind of file Ringside writes imports back, however its bytes are cut into chunks', { timeout: 30_000 }, async () => {
  const { api, exported } = await source()
  const files = { compact: JSON.stringify(exported), pretty: `${JSON.stringify(exported, null, 2)}\n`, lines: asLines(exported) }
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...(Object.keys(files) as Array<keyof typeof files>)), fc.array(fc.nat(), { maxLength: 40 }), async (kind, cuts) => {
      const target = createCrmService({ now: () => T0, seed: false })
      const importer = target.db.importer()
      await readImport(streamOf(files[kind], cuts), importer, portableLines)
      await target.db.transaction(() => importer.load())
      expect(tablesOf(target)).toBe(tablesOf(api))
    }),
    { numRuns: 25 },
  )
})

test('the route takes each kind over HTTP semantics, in JSON or NDJSON content types', async () => {
  const { api, exported } = await source()
  for (const [body, type] of [
    [JSON.stringify(exported, null, 2), 'application/json'],
    [asLines(exported), 'application/x-ndjson'],
    [asLines(exported), 'application/octet-stream'],
  ] as const) {
    const target = createCrmService({ now: () => T0, seed: false })
    const response = await target.handle(post(streamOf(body, [7, 1000, 5000]), type))
    expect(response.status).toBe(200)
    expect(tablesOf(target)).toBe(tablesOf(api))
  }
})

test('the body is read only as fast as it is checked: an endless body refused at its start was pulled once', async () => {
  let pulls = 0
  const endless = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(ENCODER.encode(pulls++ === 0 ? `{"format":"ringside-crm-db","version":1,"tables":{"crm_contacts":[["1",{"id":5}]${' '.repeat(60_000)}` : ' '.repeat(64_000)))
      },
    },
    { highWaterMark: 0 },
  )
  const target = createCrmService({ now: () => T0 })
  await expect(readImport(endless, target.db.importer(), portableLines)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/row "1" is invalid/) })
  expect(pulls).toBe(1)
})

describe('a refused import is the API error body, and nothing changes', () => {
  const small: ImportLimits = { ...IMPORT_LIMITS, bytes: 200_000, rows: 40, rowChars: 2_000, deadlineMs: 200 }

  async function refused(body: string | ReadableStream<Uint8Array>, limits: ImportLimits = IMPORT_LIMITS) {
    const { api } = await source()
    const before = tablesOf(api)
    const importer = api.db.importer()
    const error = await readImport(typeof body === 'string' ? streamOf(body, [3, 100, 4000]) : body, importer, portableLines, limits).then(
      () => {
        throw new Error('the import was taken')
      },
      (e: unknown) => e as { status: number; category: string; message: string },
    )
    expect(tablesOf(api)).toBe(before)
    return error
  }

  test.each([
    ['cut short', (text: string) => text.slice(0, -2), /cut short/],
    ['garbage after the last row', (text: string) => `${text.slice(0, -3)}],x]}}`, /Unexpected/],
    ['a bad last row', (text: string) => {
      // crm_contacts last, its last row a contact without properties.
      const { crm_contacts: contacts, ...rest } = (JSON.parse(text) as Snapshot).tables
      return JSON.stringify({ ...(JSON.parse(text) as Snapshot), tables: { ...rest, crm_contacts: [...(contacts ?? []), ['999', { id: '999' }]] } }, null, 2)
    }, /row "999" is invalid/],
    ['a repeated table', (text: string) => text.replace(/\}\}$/, ',"crm_contacts":[]}}'), /appears twice/],
    ['tables before the format', (text: string) => `{"tables":{},${text.slice(1)}`, /must come before "tables"/],
    ['not JSON', () => 'hello', /Unexpected|expected a JSON object/],
    ['another document', () => '{"hello":"world"}', /"format" must be "ringside-crm-db"/],
  ])('an export %s is 400', async (_name, change, reason) => {
    const { exported } = await source()
    const error = await refused(change(JSON.stringify(exported)))
    expect(error).toMatchObject({ status: 400, category: 'VALIDATION_ERROR' })
    expect(error.message).toMatch(reason)
    expect(error.message).toMatch(/Nothing was imported\.$/)
  })

  test('a line snapshot damaged at its last line is 400 naming the line', async () => {
    const { exported } = await source()
    const text = asLines(exported)
    const lines = text.split('\n')
    const damaged = `${text.slice(0, text.length - (lines.at(-2) as string).length - 1)}${(lines.at(-2) as string).replace('"end":true', '"end":1')}\n`
    const error = await refused(damaged)
    expect(error).toMatchObject({ status: 400, category: 'VALIDATION_ERROR' })
    expect(error.message).toMatch(new RegExp(`line ${lines.length - 1}: checksum mismatch`))
  })

  test.each([
    ['bytes', () => 'x'.repeat(250_000), /at most 200000 bytes/],
    ['rows', (e: Snapshot) => JSON.stringify({ ...e, tables: { crm_notes: Array.from({ length: 50 }, (_, i) => e.tables.crm_notes?.[0]?.map((v, k) => (k === 0 ? String(i + 100) : v))) } }), /more than 40 rows/],
    ['one row’s length', (e: Snapshot) => JSON.stringify({ ...e, tables: { crm_notes: [['1', { body: 'x'.repeat(3_000) }]] } }), /longer than 2000 characters/],
  ])('over its budget in %s is 413 PAYLOAD_TOO_LARGE', async (_name, make, reason) => {
    const { exported } = await source()
    const error = await refused(make(exported), small)
    expect(error).toMatchObject({ status: 413, category: 'PAYLOAD_TOO_LARGE' })
    expect(error.message).toMatch(reason)
  })

  test('a body that stops arriving is 408 at its deadline', async () => {
    const never = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(ENCODER.encode('{"format":')) })
    const error = await refused(never, small)
    expect(error).toMatchObject({ status: 408, category: 'VALIDATION_ERROR' })
    expect(error.message).toMatch(/deadline of 0.2 s/)
  })

  test('through the route: a form is 415, a declared length over the budget 413, an empty body 400; each with a correlationId', async () => {
    const { api, exported } = await source()
    const before = tablesOf(api)
    await expectError(await api.handle(post(JSON.stringify(exported), 'application/x-www-form-urlencoded')), 415, 'UNSUPPORTED_MEDIA_TYPE')
    await expectError(await api.handle(post(JSON.stringify(exported), 'text/plain')), 415, 'UNSUPPORTED_MEDIA_TYPE')
    const declared = new Request(`${BASE}${IMPORT_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(IMPORT_LIMITS.bytes + 1) }, body: '{}' })
    expect((await expectError(await api.handle(declared), 413, 'PAYLOAD_TOO_LARGE')).message).toContain(`at most ${IMPORT_LIMITS.bytes} bytes`)
    await expectError(await api.handle(new Request(`${BASE}${IMPORT_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' } })), 400, 'VALIDATION_ERROR')
    expect(tablesOf(api)).toBe(before)
  })
})
