// Section "API over HTTP (server mode)": the same requests measured two ways
// in one run, so the cost of serving them over HTTP is a ratio:
//   in process — `service.handle(new Request(...))`, as the API benchmarks do;
//   over HTTP  — the `npm start` server in a child process (--no-pages, a
//                scratch data folder, so every write is journaled and fsynced),
//                one request at a time on one keep-alive connection.
// Each side gets the same setup: 1,000 tickets, a timeline template, and an
// OAuth access token with the timeline scope.
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tsImport } from 'tsx/esm/api'
import { PAT, rateLimitsOff, startRingsideServer } from './ringside-server.mjs'
import { percentile } from './table.mjs'

const TIME_MS = 2000
const WARMUP_MS = 400
const TICKETS = 1000

/** A transport is `(method, path, { json, form, bearer }) → { status, text }`. */
function inProcess(service) {
  return async (method, path, init = {}) => {
    const { headers, body } = encode(init)
    const response = await service.handle(new Request(new URL(path, 'http://bench.test'), { method, headers, body }))
    return { status: response.status, text: await response.text() }
  }
}

function overHttp(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const transport = (method, path, init = {}) =>
    new Promise((resolve, reject) => {
      const { headers, body } = encode(init)
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode, text }))
      })
      req.on('error', reject)
      req.end(body)
    })
  transport.close = () => agent.destroy()
  return transport
}

function encode({ json, form, bearer = PAT }) {
  const headers = {}
  if (bearer) headers.authorization = `Bearer ${bearer}`
  let body
  if (json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(json)
  } else if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(form).toString()
  }
  return { headers, body }
}

async function ok(send, method, path, init) {
  const { status, text } = await send(method, path, init)
  if (status < 200 || status > 299) throw new Error(`${method} ${path}: ${status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

/** The same data on either side: 1k tickets, a template, an OAuth token. */
async function setup(send, REDIRECT_URI) {
  for (let i = 0; i < TICKETS; i += 100) {
    const inputs = Array.from({ length: 100 }, (_, k) => ({ properties: { subject: `Ticket ${i + k}`, hs_pipeline_stage: '1', hs_ticket_priority: 'HIGH' } }))
    await ok(send, 'POST', '/crm/v3/objects/tickets/batch/create', { json: { inputs } })
  }
  const template = await ok(send, 'POST', '/crm/v3/timeline/1001/event-templates?hapikey=dev-key-local', {
    bearer: null,
    json: { name: 'Bench', headerTemplate: 'Called {{who}}', detailTemplate: 'Lasted **{{seconds}}** s', tokens: [{ name: 'who', label: 'Who', type: 'string' }, { name: 'seconds', label: 'Seconds', type: 'number' }] },
  })
  const decision = await ok(send, 'POST', '/_ringside/v1/oauth/authorize', { bearer: null, json: { client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline', decision: 'grant' } })
  const code = new URL(decision.redirectTo).searchParams.get('code')
  const tokens = await ok(send, 'POST', '/oauth/v1/token', {
    bearer: null,
    form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: 'local-client', client_secret: 'local-secret' },
  })
  const page = await ok(send, 'GET', `/crm/v3/objects/tickets?limit=100`)
  return { templateId: template.id, token: tokens.access_token, firstTicket: Number(page.results[0].id) }
}

const CASES = [
  ['ticket get (1k tickets)', (send, ctx, n) => ok(send, 'GET', `/crm/v3/objects/tickets/${ctx.firstTicket + ((n * 7919) % TICKETS)}`)],
  ['list page of 100 (1k tickets)', (send, ctx, n) => ok(send, 'GET', `/crm/v3/objects/tickets?limit=100&after=${ctx.firstTicket + ((n * 101) % (TICKETS - 100))}`)],
  [
    'timeline event create',
    (send, ctx, n) => ok(send, 'POST', '/crm/v3/timeline/events', { bearer: ctx.token, json: { eventTemplateId: ctx.templateId, objectId: '1', tokens: { who: `Caller ${n}`, seconds: String(n % 600) } } }),
  ],
]

/** Run `op` for WARMUP_MS, then TIME_MS; returns ops/s (1 / median), the median and p99 in ms. */
async function measure(op) {
  let n = 0
  const warmupEnd = performance.now() + WARMUP_MS
  while (performance.now() < warmupEnd) await op(n++)
  const samples = []
  const end = performance.now() + TIME_MS
  while (performance.now() < end) {
    const t = performance.now()
    await op(n++)
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  const median = percentile(samples, 50)
  return { opsPerSecond: 1000 / median, median, p99: percentile(samples, 99), samples: samples.length }
}

async function startServer(root) {
  const data = mkdtempSync(join(tmpdir(), 'ringside-bench-'))
  const server = await startRingsideServer({ root, data, fresh: true })
  // Throughput of the handler, not of the rate limiter: its real burst limit (100 requests per
  // rolling 10 s per OAuth token) answers most of a timed loop with 429.
  await rateLimitsOff(server.baseUrl)
  return {
    port: server.port,
    async stop() {
      await server.stop()
      rmSync(data, { recursive: true, force: true })
    },
  }
}

const ops = (x) => Math.round(x).toLocaleString('en')
const ms = (x) => (x >= 1 ? `${x.toFixed(2)} ms` : `${(x * 1000).toFixed(0)} µs`)

export async function httpSection({ root }) {
  const started = Date.now()
  const { createCrmService } = await tsImport('../../emulator/core/service.ts', import.meta.url)
  // A redirect URL a fresh account has registered.
  const { EXAMPLE_BACKEND_REDIRECT_URL } = await tsImport('../../emulator/core/oauth/redirect-urls.ts', import.meta.url)
  const local = inProcess(createCrmService({ rateLimits: false })) // the handler's throughput, not the rate limiter's
  const localCtx = await setup(local, EXAMPLE_BACKEND_REDIRECT_URL)
  const server = await startServer(root)
  const remote = overHttp(server.port)
  const rows = []
  try {
    const remoteCtx = await setup(remote, EXAMPLE_BACKEND_REDIRECT_URL)
    for (const [label, op] of CASES) {
      const a = await measure((n) => op(local, localCtx, n))
      const b = await measure((n) => op(remote, remoteCtx, n))
      rows.push([label, ops(a.opsPerSecond), ops(b.opsPerSecond), `${(b.opsPerSecond / a.opsPerSecond).toFixed(2)}×`, ms(b.median), ms(b.p99), b.samples.toLocaleString('en')])
    }
  } finally {
    remote.close()
    await server.stop()
  }
  return {
    title: 'API over HTTP (server mode) next to in process',
    header: ['case', 'in process ops/s', 'over HTTP ops/s', 'HTTP / in process', 'HTTP median', 'HTTP p99', 'HTTP samples'],
    rows,
    notes: [
      'ops/s = 1 / median time of one request; over HTTP: the npm start server in a child process, one request at a time on one keep-alive connection.',
      'Writes over HTTP include the journal append and fsync before the 201 (server mode is durable; in process there is no disk).',
      `${TIME_MS / 1000} s per case and side after ${WARMUP_MS} ms of warm-up; ${((Date.now() - started) / 1000).toFixed(1)} s incl. setup.`,
    ],
  }
}
