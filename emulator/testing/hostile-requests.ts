/**
 * Hostile HTTP requests against a running server, and the checks every answer
 * must pass. Used by the hostile suite in `npm test`
 * (emulator/node/test/hostile.test.ts: a fixed seed, a few thousand requests) and by
 * `npm run fuzz -- --requests N` (tools/test/fuzz.ts: the long run, reported
 * into reports/).
 *
 * The bombs are the findings of the hostile audit and their relatives:
 * rendering (nested `#each` over big arrays, pathological Markdown as a
 * template and as a token, deep blocks and quotes, huge templates), deep JSON,
 * huge batches, prototype names as properties and filters, regular-expression
 * and wildcard runs in searches, control characters in emails, foreign Hosts
 * and cross-site writes, tokens from elsewhere; plus the route fuzz's own
 * hostile bodies, segments and queries (emulator/testing/fuzz/hostile.ts).
 *
 * Checks: never a 5xx; every 4xx carries the real error body (message, a
 * UUID correlationId, a category); a refused request leaves the data as it
 * was (compared as the database's snapshot).
 */
import { request as httpRequest, Agent } from 'node:http'
import fc from 'fast-check'
import { ACCOUNT } from '../core/http/auth.ts'
import { deepJsonText, hostileBody, hostileQuery, hostileSegment, hostileString } from './fuzz/hostile.ts'

export interface HostileRequest {
  /** What the request is (for the report). */
  kind: string
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

const PAT = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }
const JSON_TYPE = { 'content-type': 'application/json' }
const TEMPLATES = `/crm/v3/timeline/${ACCOUNT.appId}/event-templates?hapikey=${ACCOUNT.developerApiKey}`
const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'tostring', 'valueof'] as const

/** Markdown that once took quadratic time or recursed without end, at a given size. */
const markdownBomb = fc.tuple(fc.constantFrom('_a', '*a', '**a', '*_a', '[', '![', '`a', '~~a', '<a', '[a](', '&#'), fc.integer({ min: 1000, max: 60_000 })).map(([unit, n]) => unit.repeat(n))
const nestingBomb = fc.tuple(fc.constantFrom('>', '> ', '- ', '1. ', '  - '), fc.integer({ min: 50, max: 5000 })).map(([unit, n]) =>
  unit === '  - ' ? Array.from({ length: Math.min(n, 2000) }, (_, i) => `${' '.repeat(i * 2)}- a`).join('\n') : `${unit.repeat(n)}x`,
)
const blockBomb = fc.tuple(fc.constantFrom('{{#each a}}', '{{#if a}}', '{{#with a}}'), fc.integer({ min: 90, max: 3000 })).map(([open, n]) => open.repeat(n))
const eachBomb = fc.tuple(fc.integer({ min: 2, max: 3 }), fc.integer({ min: 500, max: 16_000 })).map(([depth, size]) => ({
  template: `${'{{#each @root.extraData.a}}'.repeat(depth)}x${'{{/each}}'.repeat(depth)}`,
  extraData: { a: Array.from({ length: size }, (_, i) => i) },
}))

const renderBombs: fc.Arbitrary<HostileRequest> = fc.oneof(
  eachBomb.map(({ template, extraData }) => ({ kind: 'preview: nested #each', method: 'POST', path: '/_ringside/v1/timeline/preview', headers: JSON_TYPE, body: JSON.stringify({ detailTemplate: template, extraData }) })),
  fc.tuple(markdownBomb, fc.boolean()).map(([text, asToken]) => ({
    kind: asToken ? 'preview: Markdown bomb as a token' : 'preview: Markdown bomb as a template',
    method: 'POST',
    path: '/_ringside/v1/timeline/preview',
    headers: JSON_TYPE,
    body: JSON.stringify(asToken ? { detailTemplate: '{{x}}', headerTemplate: '{{x}}', tokens: { x: text } } : { detailTemplate: text }),
  })),
  fc.oneof(nestingBomb, blockBomb, markdownBomb, fc.constant('x'.repeat(300_000))).map((text) => ({
    kind: 'template save: bomb',
    method: 'POST',
    path: TEMPLATES,
    headers: JSON_TYPE,
    body: JSON.stringify({ name: 'bomb', objectType: 'contacts', headerTemplate: 'h', detailTemplate: text }),
  })),
)

const batchBombs: fc.Arbitrary<HostileRequest> = fc
  .tuple(fc.constantFrom('contacts', 'companies', 'tickets'), fc.constantFrom('create', 'update', 'read', 'archive'), fc.integer({ min: 101, max: 400_000 }))
  .map(([type, op, n]) => ({ kind: `batch of ${n > 10_000 ? 'huge' : 'many'} items`, method: 'POST', path: `/crm/v3/objects/${type}/batch/${op}`, headers: { ...PAT, ...JSON_TYPE }, body: `{"inputs":[${'{},'.repeat(n - 1)}{}]}` }))

const protoBombs: fc.Arbitrary<HostileRequest> = fc.tuple(fc.constantFrom(...PROTO_NAMES), fc.nat(4), fc.nat()).map(([name, which, n]): HostileRequest => {
  const headers = { ...PAT, ...JSON_TYPE }
  switch (which) {
    case 0:
      return { kind: 'prototype name: property', method: 'POST', path: '/crm/v3/properties/contacts', headers, body: JSON.stringify({ name, label: name, type: 'string', fieldType: 'text', groupName: 'contactinformation' }) }
    case 1:
      return { kind: 'prototype name: write', method: 'POST', path: '/crm/v3/objects/contacts', headers, body: `{"properties":{"email":"p${n}@example.com",${JSON.stringify(name)}:"x"}}` }
    case 2:
      return { kind: 'prototype name: search', method: 'POST', path: '/crm/v3/objects/contacts/search', headers, body: JSON.stringify({ filterGroups: [{ filters: [{ propertyName: name, operator: 'HAS_PROPERTY' }] }], sorts: [{ propertyName: name, direction: 'ASCENDING' }] }) }
    case 3:
      return { kind: 'prototype name: read', method: 'GET', path: `/crm/v3/objects/contacts/1?properties=${name}&propertiesWithHistory=${name}`, headers: PAT }
    default:
      return { kind: 'prototype name: update', method: 'PATCH', path: '/crm/v3/objects/contacts/1', headers, body: `{"properties":{${JSON.stringify(name)}:"x"}}` }
  }
})

const searchBombs: fc.Arbitrary<HostileRequest> = fc.tuple(hostileString, fc.constantFrom('CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN', 'EQ', 'IN'), fc.constantFrom('email', 'firstname', 'phone')).map(([value, operator, propertyName]) => ({
  kind: 'search: hostile value',
  method: 'POST',
  path: '/crm/v3/objects/contacts/search',
  headers: { ...PAT, ...JSON_TYPE },
  body: JSON.stringify({ query: value.slice(0, 3000), filterGroups: [{ filters: [operator === 'IN' ? { propertyName, operator, values: [value] } : { propertyName, operator, value }] }] }),
}))

const emailBombs: fc.Arbitrary<HostileRequest> = fc.tuple(fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f), fc.nat(2)).map(([code, where]) => {
  const c = String.fromCharCode(code)
  const email = where === 0 ? `a${c}b@example.com` : where === 1 ? `ab@exa${c}mple.com` : `ab@example.com${c}`
  return { kind: 'email with a control character', method: 'POST', path: '/crm/v3/objects/contacts', headers: { ...PAT, ...JSON_TYPE }, body: JSON.stringify({ properties: { email } }) }
})

const ADMIN_WRITES: Array<[string, string]> = [
  ['POST', '/_ringside/v1/reset'],
  ['POST', '/_ringside/v1/import'],
  ['PUT', '/_ringside/v1/rate-limits'],
  ['POST', '/_ringside/v1/timeline/preview'],
  ['POST', '/_ringside/v1/utk'],
  ['POST', '/_ringside/v1/oauth/authorize'],
  ['DELETE', `/_ringside/v1/installations/${ACCOUNT.appId}`],
]

const crossSiteBombs: fc.Arbitrary<HostileRequest> = fc
  .tuple(fc.constantFrom(...ADMIN_WRITES), fc.constantFrom('https://attacker.example', 'null', 'http://127.0.0.1.attacker.example', 'http://localhost:1'), fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', ''))
  .map(([[method, path], origin, type]) => ({
    kind: 'cross-site write',
    method,
    path,
    headers: { origin, 'sec-fetch-site': 'cross-site', ...(type && { 'content-type': type }) },
    body: type.startsWith('multipart') ? '--x--' : '{"enabled":false}',
  }))

const hostBombs: fc.Arbitrary<HostileRequest> = fc
  .tuple(fc.constantFrom('attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io.attacker', 'xn--80ak6aa92e.com', 'a'.repeat(300)), fc.constantFrom('/_ringside/v1/export', '/_ringside/v1/account', '/crm/v3/objects/contacts', '/', '/_ringside/v1/reset'))
  .map(([host, path]) => ({ kind: 'foreign Host', method: path.endsWith('reset') ? 'POST' : 'GET', path, headers: { host, ...PAT } }))

const tokenBombs: fc.Arbitrary<HostileRequest> = fc.constantFrom('foreign-app-token', `${'x'.repeat(5000)}`, 'pat-local ', 'Bearer', '__proto__', 'constructor').map((token) => ({
  kind: 'bearer token from elsewhere',
  method: 'GET',
  path: '/crm/v3/objects/contacts?limit=1',
  headers: { authorization: `Bearer ${token}` },
}))

const deepBombs: fc.Arbitrary<HostileRequest> = fc.tuple(fc.constantFrom(101, 2000, 50_000), fc.constantFrom('object' as const, 'array' as const), fc.constantFrom('/crm/v3/objects/contacts', '/_ringside/v1/import', '/crm/v3/objects/contacts/search')).map(([depth, kind, path]) => ({
  kind: 'deep JSON',
  method: 'POST',
  path,
  headers: { ...PAT, ...JSON_TYPE },
  body: deepJsonText(depth, kind),
}))

const ROUTES = ['/crm/v3/objects/contacts', '/crm/v3/objects/tickets/batch/upsert', '/crm/v3/objects/contacts/search', '/crm/v4/associations/contacts/companies/batch/create', '/crm/v3/properties/contacts', TEMPLATES, '/crm/v3/timeline/events']
const routeFuzz: fc.Arbitrary<HostileRequest> = fc.oneof(
  fc.tuple(fc.constantFrom(...ROUTES), hostileBody).map(([path, body]) => ({ kind: 'route fuzz: body', method: 'POST', path, headers: { ...PAT, 'content-type': body.type }, body: body.text })),
  fc.tuple(hostileSegment, fc.constantFrom('contacts', 'tickets')).map(([segment, type]) => ({ kind: 'route fuzz: path', method: 'GET', path: `/crm/v3/objects/${type}/${segment}`, headers: PAT })),
  hostileQuery.map((query) => ({ kind: 'route fuzz: query', method: 'GET', path: `/crm/v3/objects/contacts?${query}`, headers: PAT })),
)

/** Every kind of bomb, weighted so each request is cheap on average but every kind comes up. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.oneof(
  { weight: 3, arbitrary: renderBombs },
  { weight: 1, arbitrary: batchBombs },
  { weight: 3, arbitrary: protoBombs },
  { weight: 2, arbitrary: searchBombs },
  { weight: 2, arbitrary: emailBombs },
  { weight: 3, arbitrary: crossSiteBombs },
  { weight: 2, arbitrary: hostBombs },
  { weight: 1, arbitrary: tokenBombs },
  { weight: 1, arbitrary: deepBombs },
  { weight: 4, arbitrary: routeFuzz },
)

/** `count` requests drawn from `seed` (the same seed gives the same requests). */
export function hostileRequests(seed: number, count: number): HostileRequest[] {
  return fc.sample(hostileRequest, { seed, numRuns: count })
}

export interface Answer {
  status: number
  body: string
  ms: number
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** Send one request to the server on 127.0.0.1:`port`, timing it. */
export function send(port: number, req: HostileRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const body = req.body === undefined ? undefined : Buffer.from(req.body)
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...req.headers }
    if (body) headers['content-length'] = body.byteLength
    const r = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }))
    })
    r.on('error', reject)
    r.end(body)
  })
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** What is wrong with an answer (undefined when it is as it must be). */
export function problemWith(answer: Answer): string | undefined {
  if (answer.status >= 500 || answer.status < 200) return `status ${answer.status}: ${answer.body.slice(0, 300)}`
  if (answer.status < 400) return undefined
  let parsed: { status?: unknown; message?: unknown; correlationId?: unknown; category?: unknown }
  try {
    parsed = JSON.parse(answer.body)
  } catch {
    return `status ${answer.status} without a JSON error body: ${answer.body.slice(0, 200)}`
  }
  if (typeof parsed.message !== 'string' || parsed.message === '') return `status ${answer.status}: no message`
  if (typeof parsed.category !== 'string') return `status ${answer.status}: no category`
  if (typeof parsed.correlationId !== 'string' || !UUID.test(parsed.correlationId)) return `status ${answer.status}: correlationId is not a UUID`
  return undefined
}

export interface RunReport {
  requests: number
  /** Requests answered after more than a second. */
  overOneSecond: number
  byKind: Record<string, { count: number; maxMs: number; statuses: Record<string, number> }>
  slowest: Array<{ kind: string; method: string; path: string; ms: number; status: number }>
  problems: Array<{ kind: string; method: string; path: string; problem: string }>
  /** Refused requests that committed a change anyway. */
  changedOnRefusal: Array<{ kind: string; method: string; path: string; status: number }>
  totalMs: number
}

/**
 * Send `requests` in turn to the server on `port`; `commits()` counts the
 * database's commits so far (a refusal must not add one).
 */
export async function runHostile(port: number, requests: readonly HostileRequest[], commits: () => number, onProgress?: (done: number) => void): Promise<RunReport> {
  const report: RunReport = { requests: 0, overOneSecond: 0, byKind: {}, slowest: [], problems: [], changedOnRefusal: [], totalMs: 0 }
  const started = performance.now()
  for (const req of requests) {
    const before = commits()
    const answer = await send(port, req)
    report.requests++
    const kind = (report.byKind[req.kind] ??= { count: 0, maxMs: 0, statuses: {} })
    kind.count++
    kind.maxMs = Math.max(kind.maxMs, answer.ms)
    if (answer.ms > 1000) report.overOneSecond++
    kind.statuses[answer.status] = (kind.statuses[answer.status] ?? 0) + 1
    const problem = problemWith(answer)
    if (problem && report.problems.length < 50) report.problems.push({ kind: req.kind, method: req.method, path: req.path.slice(0, 120), problem })
    if (answer.status >= 400 && commits() !== before && report.changedOnRefusal.length < 50) {
      report.changedOnRefusal.push({ kind: req.kind, method: req.method, path: req.path.slice(0, 120), status: answer.status })
    }
    report.slowest.push({ kind: req.kind, method: req.method, path: req.path.slice(0, 120), ms: Math.round(answer.ms * 10) / 10, status: answer.status })
    if (report.slowest.length > 40) report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10)
    if (onProgress && report.requests % 1000 === 0) onProgress(report.requests)
  }
  report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10)
  report.totalMs = Math.round(performance.now() - started)
  return report
}
