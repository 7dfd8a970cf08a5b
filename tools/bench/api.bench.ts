/**
 * CRM object API throughput, in Node, through the service's `handle`
 * (routing, auth, body parsing, transaction, validation, serialization):
 *
 *   npx vitest bench --run --project node tools/bench/api.bench.ts
 *
 * Cases: create a ticket (201), get a ticket, batch-read 100 tickets, and a
 * list page of 100, each against a table of 100,000 tickets; get and list
 * are run against 1,000 tickets too, to show that their cost does not grow
 * with the table (paging is a binary search on ids, reads are a Map lookup).
 * Timeline event creation with rendering is in tools/bench/timeline.bench.ts.
 *
 * Search: a CONTAINS_TOKEN wildcard search over 10,000 and 100,000 tickets
 * (one pass over the table), and the wildcard that once took minutes as a
 * backtracking regex (`*a*a*a*a*a*a*a*a*b` against a 60-character subject).
 * Hostile requests: the route fuzz's hostile inputs (deep nesting, wildcard
 * runs, prototype keys, bad percent-encoding, huge numbers, duplicate ids),
 * a fixed sample for every route, sent in turn; the report's max is the
 * worst time one of them took.
 */
import fc from 'fast-check'
import { bench, describe } from 'vitest'
import { ACCOUNT } from '../../emulator/core/http/auth.ts'
import { hostileSpec, toRequest, type RequestSpec } from '../../emulator/testing/fuzz/hostile.ts'
import { createCrmService, type CrmService } from '../../emulator/core/service.ts'

const BASE = 'http://bench.test'
const HEADERS = { authorization: `Bearer ${ACCOUNT.privateAppToken}`, 'content-type': 'application/json' }
const NOW = Date.UTC(2026, 0, 15, 12)
const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const
/** Longer than the default 500 ms so a busy machine's pauses average out. */
const OPTIONS = { time: 1500, warmupTime: 300 }

/** A service holding `count` tickets (written through the store: the setup is not what is measured). */
function serviceWithTickets(count: number): CrmService {
  const service = createCrmService({ now: () => NOW })
  for (let i = 0; i < count; i++) {
    service.objects.create(
      'tickets',
      {
        subject: `Ticket ${i}`,
        content: 'The headset drops calls after a few minutes.',
        hs_pipeline_stage: String((i % 4) + 1),
        hs_ticket_priority: PRIORITIES[i % 4],
      },
      NOW,
    )
  }
  return service
}

async function send(service: CrmService, method: string, path: string, json?: unknown): Promise<unknown> {
  const response = await service.handle(
    new Request(BASE + path, { method, headers: HEADERS, ...(json !== undefined && { body: JSON.stringify(json) }) }),
  )
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

const small = serviceWithTickets(1_000)
const medium = serviceWithTickets(10_000)
const large = serviceWithTickets(100_000)
const SIZES = [
  ['1k', small, 1_000],
  ['100k', large, 100_000],
] as const

let n = 0
/** Ids spread over the whole table, so no case reads only the first rows. */
const idIn = (count: number) => String(((n++ * 7919) % count) + 1)

describe('tickets (100k in the table)', () => {
  bench('POST /crm/v3/objects/tickets (create)', async () => {
    await send(large, 'POST', '/crm/v3/objects/tickets', {
      properties: { subject: 'Benchmark ticket', hs_pipeline_stage: '1', hs_ticket_priority: 'HIGH' },
    })
  }, OPTIONS)

  bench('POST /crm/v3/objects/tickets/batch/read (100 ids)', async () => {
    const start = (n++ * 7919) % 99_000
    const inputs = Array.from({ length: 100 }, (_, i) => ({ id: String(start + i + 1) }))
    await send(large, 'POST', '/crm/v3/objects/tickets/batch/read', { inputs, properties: ['subject', 'hs_ticket_priority'] })
  }, OPTIONS)
})

describe('get one ticket: cost independent of table size', () => {
  for (const [label, service, count] of SIZES) {
    bench(`GET /crm/v3/objects/tickets/{id} (${label} tickets)`, async () => {
      await send(service, 'GET', `/crm/v3/objects/tickets/${idIn(count)}`)
    }, OPTIONS)
  }
})

describe('list a page of 100: cost independent of table size', () => {
  for (const [label, service, count] of SIZES) {
    bench(`GET /crm/v3/objects/tickets?limit=100&after=… (${label} tickets)`, async () => {
      const after = (n++ * 7919) % (count - 200)
      await send(service, 'GET', `/crm/v3/objects/tickets?limit=100&after=${after}`)
    }, OPTIONS)
  }
})

describe('search: one pass over the table', () => {
  const body = {
    filterGroups: [{ filters: [{ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: 'tick*' }, { propertyName: 'hs_ticket_priority', operator: 'EQ', value: 'HIGH' }] }],
    properties: ['subject'],
    limit: 10,
  }
  for (const [label, service] of [['10k', medium], ['100k', large]] as const) {
    bench(`POST /crm/v3/objects/tickets/search (${label} tickets)`, async () => {
      await send(service, 'POST', '/crm/v3/objects/tickets/search', body)
    }, OPTIONS)
  }

  const catastrophic = createCrmService({ now: () => NOW })
  catastrophic.objects.create('tickets', { subject: 'a'.repeat(60), hs_pipeline_stage: '1' }, NOW)
  bench('search CONTAINS_TOKEN *a*a*a*a*a*a*a*a*b (60-character subject)', async () => {
    await send(catastrophic, 'POST', '/crm/v3/objects/tickets/search', {
      filterGroups: [{ filters: [{ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: '*a*a*a*a*a*a*a*a*b' }] }],
    })
  }, OPTIONS)
})

describe('hostile requests (the route fuzz mix, every route)', () => {
  const service = createCrmService({ now: () => NOW, rateLimits: false })
  const auth = { headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}` }, query: [['hapikey', ACCOUNT.developerApiKey]] as Array<[string, string]> }
  const params = fc.array(fc.constantFrom('1', '2', 'tickets', 'contacts', '0', 'default'), { minLength: 6, maxLength: 6 })
  const specs: RequestSpec[] = service.routes.flatMap((route, i) => fc.sample(hostileSpec(route.method, route.path, params, auth), { seed: 20_261_123 + i, numRuns: 3 }))
  let next = 0
  bench(`hostile request (${specs.length} in turn)`, async () => {
    const response = await service.handle(toRequest(specs[next++ % specs.length]!))
    await response.text()
    if (response.status >= 500) throw new Error(`hostile request answered ${response.status}`)
  }, { time: 4000, warmupTime: 300 })
})
