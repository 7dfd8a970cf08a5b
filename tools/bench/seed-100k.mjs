// The 100k workload's loader: contacts created through
// `POST /crm/v3/objects/contacts/batch/create`, `batchSize` inputs per request
// on `connections` keep-alive connections (undici's Pool), each connection
// sending its next batch as soon as the previous one is answered.
//
// Contact i is { email: user<i>@example.com, firstname: First<i>,
// lastname: Last<i>, phone: +1617555<i mod 10000, 4 digits>,
// company: Company <i mod 1000> }, so an `email` EQ search for
// `user<i>@example.com` has exactly one answer.
//
// Usable on its own:
//   node tools/bench/seed-100k.mjs --url http://127.0.0.1:5173 [--count 100000]
//        [--connections 8] [--batch-size 100] [--start 0] [--token pat-local]
import { parseArgs } from 'node:util'
import { Pool } from 'undici'
import { PAT } from '../../emulator/testing/ringside-server.mjs'
import { contactProperties } from '../../emulator/testing/big-export.mjs'


/** The token the loader sends unless told otherwise (the harness's own: never rate limited). */
export const DEFAULT_TOKEN = PAT

/**
 * Creates contacts `start` … `start + count - 1` and resolves to
 * { created, requests, ms, recordsPerSecond, ids }: `ids` are the created
 * records' ids in contact order (ids[k] is contact start + k).
 * Throws on the first answer that is not 201, with its status and body.
 * `pool` may be an undici Pool or Agent to reuse (it is left open); without
 * it one is made for the run and closed at its end.
 */
export async function seedContacts({ baseUrl, count = 100_000, connections = 8, batchSize = 100, token = DEFAULT_TOKEN, start = 0, pool } = {}) {
  if (!baseUrl) throw new Error('seedContacts needs a baseUrl, e.g. http://127.0.0.1:5173')
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a whole number, got ${count}`)
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) throw new Error(`batchSize must be 1..100 (the API's limit per batch), got ${batchSize}`)
  if (!Number.isInteger(connections) || connections < 1) throw new Error(`connections must be a positive whole number, got ${connections}`)
  const origin = new URL(baseUrl).origin
  const client = pool ?? new Pool(origin, { connections, pipelining: 1 })
  const batches = Math.ceil(count / batchSize)
  const ids = new Array(count)
  let next = 0
  let requests = 0
  const started = performance.now()
  async function worker() {
    for (;;) {
      const batch = next++
      if (batch >= batches) return
      const from = batch * batchSize
      const to = Math.min(count, from + batchSize)
      const inputs = []
      for (let k = from; k < to; k++) inputs.push({ properties: contactProperties(start + k) })
      const { statusCode, body } = await client.request({
        origin,
        method: 'POST',
        path: '/crm/v3/objects/contacts/batch/create',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ inputs }),
      })
      const text = await body.text()
      requests++
      if (statusCode !== 201) throw new Error(`batch/create of contacts ${start + from}..${start + to - 1}: ${statusCode} ${text.slice(0, 300)}`)
      // The real API does not promise its results in input order: match each to its input by
      // email, which is unique in the workload.
      const position = new Map()
      for (let k = from; k < to; k++) position.set(`user${start + k}@example.com`, k)
      for (const result of JSON.parse(text).results) {
        const k = position.get(result.properties?.email)
        if (k !== undefined) ids[k] = result.id
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(connections, batches) }, worker))
  } finally {
    if (!pool) await client.close()
  }
  const ms = performance.now() - started
  return { created: count, requests, ms, recordsPerSecond: count / (ms / 1000), ids }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      count: { type: 'string', default: '100000' },
      connections: { type: 'string', default: '8' },
      'batch-size': { type: 'string', default: '100' },
      start: { type: 'string', default: '0' },
      token: { type: 'string', default: DEFAULT_TOKEN },
    },
  })
  if (!values.url) {
    console.error('usage: node tools/bench/seed-100k.mjs --url http://127.0.0.1:<port> [--count 100000] [--connections 8] [--batch-size 100] [--start 0] [--token pat-local]')
    process.exit(2)
  }
  const result = await seedContacts({
    baseUrl: values.url,
    count: Number(values.count),
    connections: Number(values.connections),
    batchSize: Number(values['batch-size']),
    start: Number(values.start),
    token: values.token,
  })
  console.log(`${result.created.toLocaleString('en')} contacts in ${(result.ms / 1000).toFixed(1)} s (${Math.round(result.recordsPerSecond).toLocaleString('en')} records/s, ${result.requests} requests)`)
}
