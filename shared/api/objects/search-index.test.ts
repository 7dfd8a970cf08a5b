/**
 * The search indexes never change an answer: random records and random
 * searches, with random writes and undone transactions between them, give
 * the same results (content and order) through `runSearch` (indexes,
 * positional paging) as through a plain scan of every record.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createCrmService, type CrmService } from '../service.ts'
import { comparable, parseSearchRequest, queryFields, runSearch, searchPredicate, type SearchRequest } from './search.ts'
import type { CrmRecord, ObjectType } from './store.ts'
import { own } from '../http.ts'

const T0 = Date.parse('2026-01-01T00:00:00.000Z')

const TYPES = {
  contacts: ['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company', 'jobtitle', 'notes_last_contacted', 'hs_object_id'],
  calls: ['hs_call_title', 'hs_call_from_number', 'hs_call_to_number', 'hs_call_external_id', 'hs_call_app_id', 'hs_call_duration', 'hs_timestamp', 'hs_object_id'],
} as const
type Type = keyof typeof TYPES
/** The properties an index serves EQ and IN on: filters lean on them, so most searches take the indexed path. */
const LOOKUPS = {
  contacts: ['email', 'phone', 'mobilephone', 'hs_object_id'],
  calls: ['hs_call_from_number', 'hs_call_to_number', 'hs_call_external_id', 'hs_call_app_id', 'hs_object_id'],
} as const

/** Values that collide in every way the search compares: case, unicode, numbers as text, phone numbers in many spellings. */
const VALUES = [
  'Ann', 'ann', 'ANN', 'Änne', 'über', 'ÜBER', '日本語', 'İstanbul', '42', '042', ' 42', '4.2e1', '-0', '0', '1', '2', '3',
  'a@x.com', 'A@X.com', 'b@x.com', 'ü@x.com', 'Company 1', 'company 12', 'a b', 'a-b',
  '+1 617 555 0101', '617-555-0101', '(617) 555.0101', '16175550101', '6175550101', '+16175550101', '+44 20 7946 0958',
  '555-0101 ext. 12', '617 555 0101 x3', '1-800-FLOWERS', '+1 800 356 9377', '12', '0101', '555',
  '2026-01-01T00:00:00.000Z', '1767225600000', '2026-01-01', null, '',
]
const value = fc.constantFrom(...VALUES)
const PHONES = ['+1 617 555 0101', '617-555-0101', '(617) 555.0101', '6175550101', '+44 20 7946 0958', '020 7946 0958', '555-0101 ext. 12', '1-800-FLOWERS', '+1 800 356 9377', '12', '+1 617 555 0202', '617.555.0202']
const EMAILS = ['a@x.com', 'A@X.com', 'b@x.com', 'ü@x.com', 'c@y.org']
const NUMBERS = ['1', '2', '3', '042', '4.2e1', '-0', '0', '1e3']
/** Values for a property: mostly of its own kind (so that lookups find something), sometimes anything. */
function valueFor(name: string): fc.Arbitrary<string | null> {
  const own = /phone|number/.test(name) ? PHONES : name === 'email' ? EMAILS : /_id$|duration/.test(name) ? NUMBERS : undefined
  return own ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: value }) : value
}
const OPERATORS = ['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN']
const QUERIES = ['ann', 'ANN', 'änne', '617', '555 01', '(617) 555', '0101', 'x.c', '@', 'company 1', '42', 'flowers', '日本', 'e', '+1 617']

const typeArb = fc.constantFrom<Type>('contacts', 'calls')

function propertiesArb(type: Type) {
  const names = TYPES[type].filter((n) => n !== 'hs_object_id')
  return fc.constantFrom(...names).chain((first) =>
    fc.tuple(valueFor(first), fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 3 })).map(([v, rest]) => ({ ...rest, [first]: v })),
  )
}

const filterArb = (type: Type) =>
  fc.oneof(fc.constantFrom(...LOOKUPS[type]), fc.constantFrom(...TYPES[type])).chain((propertyName) => {
    const wanted = valueFor(propertyName).filter((v) => v !== null)
    return fc.record({
      propertyName: fc.constant(propertyName),
      operator: fc.oneof({ weight: 2, arbitrary: fc.constantFrom('EQ', 'IN') }, { weight: 3, arbitrary: fc.constantFrom(...OPERATORS) }),
      value: fc.oneof(wanted, fc.constant(7)),
      highValue: wanted,
      values: fc.array(wanted, { minLength: 1, maxLength: 4 }),
    })
  })

const searchArb = typeArb.chain((type) =>
  fc.record({
    kind: fc.constant('search' as const),
    type: fc.constant(type),
    body: fc.record(
      {
        filterGroups: fc.array(fc.record({ filters: fc.array(filterArb(type), { maxLength: 3 }) }), { maxLength: 2 }),
        query: fc.constantFrom(...QUERIES, ...VALUES.filter((v) => v !== null)),
        sorts: fc.array(
          fc.record({ propertyName: fc.constantFrom(...TYPES[type]), direction: fc.constantFrom('ASCENDING', 'DESCENDING') }),
          { maxLength: 2 },
        ),
        limit: fc.integer({ min: 1, max: 12 }),
        after: fc.integer({ min: 0, max: 30 }),
      },
      { requiredKeys: [] },
    ),
  }),
)

const writeArb = fc.record({
  kind: fc.constant('write' as const),
  undone: fc.boolean(),
  steps: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: typeArb.chain((type) => fc.record({ op: fc.constant('create' as const), type: fc.constant(type), properties: propertiesArb(type) })) },
      { weight: 3, arbitrary: typeArb.chain((type) => fc.record({ op: fc.constant('update' as const), type: fc.constant(type), pick: fc.nat(), properties: propertiesArb(type) })) },
      { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('archive' as const, 'restore' as const, 'purge' as const), type: typeArb, pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.oneof(fc.record({ op: fc.constant('save' as const) }), fc.record({ op: fc.constant('reload' as const) })) },
    ),
    { minLength: 1, maxLength: 4 },
  ),
})

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never
type Action = ValueOf<typeof searchArb> | ValueOf<typeof writeArb>
type Step = ValueOf<typeof writeArb>['steps'][number]

/** The answer of a plain scan: every live record tested, sorted by comparing stored values each time. */
function scan(service: CrmService, type: ObjectType, request: SearchRequest) {
  const test = searchPredicate(request, queryFields(type))
  const matches = [...service.objects.records(type)].filter(test)
  matches.sort((a: CrmRecord, b: CrmRecord) => {
    for (const sort of request.sorts) {
      const va = own(a.properties, sort.propertyName)
      const vb = own(b.properties, sort.propertyName)
      if (va === vb) continue
      if (va === undefined) return 1
      if (vb === undefined) return -1
      const ca = comparable(sort.def, va)
      const cb = comparable(sort.def, vb)
      const order = ca < cb ? -1 : ca > cb ? 1 : 0
      if (order !== 0) return sort.descending ? -order : order
    }
    return Number(a.id) - Number(b.id)
  })
  return { total: matches.length, page: matches.slice(request.offset, request.offset + request.limit) }
}

function pick(service: CrmService, type: Type, n: number, archived: boolean): string | undefined {
  const ids = [...service.objects.records(type, archived)].map((r) => r.id)
  return ids.length === 0 ? undefined : ids[n % ids.length]
}

/** A snapshot saved by a 'save' step, put back by a later 'reload' (an import: every table replaced). */
const saved = new WeakMap<CrmService, unknown>()

function write(service: CrmService, step: Step, now: number): void {
  const objects = service.objects
  if (step.op === 'save') {
    saved.set(service, service.db.snapshot())
    return
  }
  if (step.op === 'reload') {
    if (saved.has(service)) service.db.restore(saved.get(service))
    return
  }
  const archived = step.op === 'restore'
  const id = step.op === 'create' ? undefined : pick(service, step.type, step.pick, archived)
  if (step.op !== 'create' && id === undefined) return
  try {
    service.db.attempt(() => {
      if (step.op === 'create') objects.create(step.type, step.properties, now)
      else if (step.op === 'update') objects.setProperties(step.type, id!, step.properties, now)
      else if (step.op === 'archive') objects.archive(step.type, id!, now)
      else if (step.op === 'restore') objects.restore(step.type, id!, now)
      else objects.purge(step.type, id!)
    })
  } catch {
    // A value the API refuses (a bad e-mail, a duplicate): nothing was written.
  }
}

async function run(service: CrmService, actions: readonly Action[]): Promise<{ compared: number; narrowed: number }> {
  let compared = 0
  let narrowed = 0
  let now = T0
  for (const action of actions) {
    now += 1000
    if (action.kind === 'write') {
      await service.db
        .transaction(() => {
          for (const step of action.steps) write(service, step, now)
          if (action.undone) throw new Error('undo')
        })
        .catch((error: Error) => {
          if (error.message !== 'undo') throw error
        })
      continue
    }
    let request: SearchRequest
    try {
      request = parseSearchRequest(action.type, action.body, (name) => service.objects.definition(action.type, name))
    } catch {
      continue // a body the API refuses (a value the property cannot take)
    }
    const fields = queryFields(action.type)
    if (service.objects.searchIndex(action.type, fields).candidates(request, fields) !== undefined) narrowed++
    const indexed = runSearch(service.objects, action.type, request)
    const scanned = scan(service, action.type, request)
    expect({ total: indexed.total, ids: indexed.page.map((r) => r.id) }, JSON.stringify(action.body)).toEqual({
      total: scanned.total,
      ids: scanned.page.map((r) => r.id),
    })
    compared++
  }
  return { compared, narrowed }
}

test('indexed search answers exactly what a scan answers, across writes, undone transactions and reloads', async () => {
  let compared = 0
  let narrowed = 0
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof({ weight: 3, arbitrary: writeArb }, { weight: 4, arbitrary: searchArb }), { minLength: 10, maxLength: 40 }), async (actions) => {
      const service = createCrmService({ seed: false, now: () => T0 })
      const counts = await run(service, actions)
      compared += counts.compared
      narrowed += counts.narrowed
    }),
    { numRuns: 40, seed: 2326 },
  )
  // The generators must produce searches the API accepts, or the property says nothing.
  expect(compared).toBeGreaterThan(200)
  expect(narrowed).toBeGreaterThan(compared / 3)
}, 30_000) // about a second alone; the margin is for a machine busy with other suites

test('the indexes narrow lookups and follow undone writes', async () => {
  const service = createCrmService({ seed: false, now: () => T0 })
  const objects = service.objects
  const fields = queryFields('contacts')
  const request = (body: object) => parseSearchRequest('contacts', body, (name) => objects.definition('contacts', name))
  const eq = (propertyName: string, value: string) => request({ filterGroups: [{ filters: [{ propertyName, operator: 'EQ', value }] }] })
  await service.db.transaction(() => {
    for (let i = 1; i <= 50; i++) objects.create('contacts', { email: `u${i}@x.com`, lastname: `Last${i}`, phone: `+1617555${String(i).padStart(4, '0')}` }, T0)
  })
  const index = objects.searchIndex('contacts', fields)
  expect(index.candidates(eq('email', 'U7@X.COM'), fields)).toEqual(['7'])
  expect(index.candidates(eq('phone', '(617) 555-0007'), fields)).toEqual(['7'])
  expect(index.candidates(eq('hs_object_id', '7'), fields)).toEqual(['7'])
  expect(index.candidates(request({ query: 'last4' }), fields)).toEqual(['4', '40', '41', '42', '43', '44', '45', '46', '47', '48', '49'])
  // Nothing narrows a NEQ: the search scans.
  expect(index.candidates(request({ filterGroups: [{ filters: [{ propertyName: 'email', operator: 'NEQ', value: 'u7@x.com' }] }] }), fields)).toBeUndefined()

  await expect(
    service.db.transaction(() => {
      objects.setProperties('contacts', '7', { email: 'new@x.com', lastname: 'Renamed' }, T0)
      objects.create('contacts', { email: 'made@x.com' }, T0)
      throw new Error('undo')
    }),
  ).rejects.toThrow('undo')
  expect(index.candidates(eq('email', 'u7@x.com'), fields)).toEqual(['7'])
  expect(index.candidates(eq('email', 'new@x.com'), fields)).toEqual([])
  expect(index.candidates(eq('email', 'made@x.com'), fields)).toEqual([])
  expect(index.candidates(request({ query: 'renamed' }), fields)).toEqual([])
})
