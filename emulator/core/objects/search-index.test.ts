/**
 * The search indexes never change an answer: random records and random
 * searches, with random writes and undone transactions between them, give
 * the same results (content and order) through `runSearch` (indexes,
 * positional paging) as through a plain scan of every record. Contacts and
 * calls are associated and dissociated at random, and searched by
 * association (`associations.call`, `associations.contact`); the association
 * index must name exactly the records a scan matches.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createCrmService, type CrmService } from '../service.ts'
import { runSearch } from './search.ts'
import { searchPredicate } from './search-match.ts'
import { comparable, parseSearchRequest, queryFields, type SearchRequest } from './search-request.ts'
import type { CrmRecord } from './crm-record.ts'
import type { ObjectType } from './object-types.ts'
import { own } from '../http/http.ts'

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
/** The other type of the pair, its association pseudo-property, and the association type id from `type` to it. */
const OTHER = {
  contacts: { type: 'calls', property: 'associations.call', typeId: 193 },
  calls: { type: 'contacts', property: 'associations.contact', typeId: 194 },
} as const
/** Record ids as a client may write them: mostly small ones (so that they name records), sometimes padded, unknown or no id at all. */
const recordIdArb = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 3 }).map(String) }, { weight: 1, arbitrary: fc.constantFrom('03', ' 2', 99, 1, 'x', '0') })
const ASSOCIATION_OPERATORS = ['EQ', 'NEQ', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY']

function propertiesArb(type: Type) {
  const names = TYPES[type].filter((n) => n !== 'hs_object_id')
  return fc.constantFrom(...names).chain((first) =>
    fc.tuple(valueFor(first), fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 3 })).map(([v, rest]) => ({ ...rest, [first]: v })),
  )
}

const associationFilterArb = (type: Type) =>
  fc.record({
    propertyName: fc.constant(OTHER[type].property),
    operator: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('EQ', 'IN') }, { weight: 2, arbitrary: fc.constantFrom(...ASSOCIATION_OPERATORS) }),
    value: recordIdArb,
    values: fc.array(recordIdArb, { minLength: 1, maxLength: 3 }),
  })

const propertyFilterArb = (type: Type) =>
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

const filterArb = (type: Type) => fc.oneof({ weight: 3, arbitrary: propertyFilterArb(type) }, { weight: 1, arbitrary: associationFilterArb(type) })

const generalSearchArb = typeArb.chain((type) =>
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

/** A search by one association alone: the association index answers it by itself. */
const associationSearchArb = typeArb.chain((type) =>
  fc.record({
    kind: fc.constant('search' as const),
    type: fc.constant(type),
    body: fc.record({ filterGroups: associationFilterArb(type).map((filter) => [{ filters: [filter] }]), limit: fc.integer({ min: 1, max: 12 }) }),
  }),
)

const searchArb = fc.oneof({ weight: 3, arbitrary: generalSearchArb }, { weight: 2, arbitrary: associationSearchArb })

const writeArb = fc.record({
  kind: fc.constant('write' as const),
  undone: fc.boolean(),
  steps: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: typeArb.chain((type) => fc.record({ op: fc.constant('create' as const), type: fc.constant(type), properties: propertiesArb(type) })) },
      { weight: 3, arbitrary: typeArb.chain((type) => fc.record({ op: fc.constant('update' as const), type: fc.constant(type), pick: fc.nat(), properties: propertiesArb(type) })) },
      { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('archive' as const, 'restore' as const, 'purge' as const), type: typeArb, pick: fc.nat() }) },
      { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('associate' as const, 'associate' as const, 'dissociate' as const), type: typeArb, pick: fc.nat(), other: fc.nat() }) },
      { weight: 2, arbitrary: fc.oneof(fc.record({ op: fc.constant('save' as const) }), fc.record({ op: fc.constant('reload' as const) })) },
    ),
    { minLength: 1, maxLength: 4 },
  ),
})

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never
type Action = ValueOf<typeof searchArb> | ValueOf<typeof writeArb>
type Step = ValueOf<typeof writeArb>['steps'][number]

/** The answer of a plain scan: every live record tested, sorted by comparing stored values each time. */
function scan(service: CrmService, type: ObjectType, request: SearchRequest) {
  const test = searchPredicate(request, queryFields(type), service.objects)
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
  const linking = step.op === 'associate' || step.op === 'dissociate'
  if (step.op !== 'create' && !linking && id === undefined) return
  const other = OTHER[step.type]
  try {
    service.db.attempt(() => {
      if (linking) {
        // An association needs a record on each side: one is made where there is none yet.
        const from = id ?? objects.create(step.type, {}, now).id
        const to = pick(service, other.type, step.other, false) ?? objects.create(other.type, {}, now).id
        if (step.op === 'associate') objects.associate(step.type, from, other.type, to, other.typeId)
        else objects.dissociate(step.type, from, other.type, to, other.typeId, now)
      } else if (step.op === 'create') objects.create(step.type, step.properties, now)
      else if (step.op === 'update') objects.setProperties(step.type, id!, step.properties, now)
      else if (step.op === 'archive') objects.archive(step.type, id!, now)
      else if (step.op === 'restore') objects.restore(step.type, id!, now)
      else objects.purge(step.type, id!)
    })
  } catch {
    // A value the API refuses (a bad e-mail, a duplicate): nothing was written.
  }
}

/** Association lookups that found records, over every run. */
let associationLookups = 0

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
    const candidates = service.objects.searchIndex(action.type, fields).candidates(request, fields)
    if (candidates !== undefined) narrowed++
    const indexed = runSearch(service.objects, action.type, request)
    const scanned = scan(service, action.type, request)
    const [only, ...more] = request.filterGroups.length === 1 ? request.filterGroups[0]! : []
    if (only?.association !== undefined && (only.operator === 'EQ' || only.operator === 'IN') && more.length === 0 && request.query === undefined) {
      // The association index names exactly the matches: an entry it failed to drop (or to add) shows here.
      const all = scan(service, action.type, { ...request, sorts: [], offset: 0, limit: Number.MAX_SAFE_INTEGER })
      expect(candidates, JSON.stringify(action.body)).toEqual(all.page.map((r) => r.id))
      associationLookups += all.total > 0 ? 1 : 0
    }
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
  expect(associationLookups).toBeGreaterThan(15)
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

test('the association index follows links, unlinks, archives, undone transactions and reloads', async () => {
  const service = createCrmService({ seed: false, now: () => T0 })
  const objects = service.objects
  const fields = queryFields('calls')
  const linkedTo = (contactId: string) => {
    const request = parseSearchRequest('calls', { filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: contactId }] }] }, (name) =>
      objects.definition('calls', name),
    )
    const candidates = objects.searchIndex('calls', fields).candidates(request, fields)
    expect(candidates).toEqual(runSearch(objects, 'calls', request).page.map((r) => r.id))
    return candidates
  }
  await service.db.transaction(() => {
    for (let i = 1; i <= 3; i++) objects.create('contacts', { email: `u${i}@x.com` }, T0)
    for (let i = 1; i <= 4; i++) objects.create('calls', { hs_call_title: `Call ${i}` }, T0)
    objects.associate('calls', '1', 'contacts', '1', 194)
    objects.associate('calls', '2', 'contacts', '1', 194)
  })
  expect(linkedTo('1')).toEqual(['1', '2'])
  const saved = service.db.snapshot()

  // A link made later (the contact's side of it: the inverse row is indexed too).
  await service.db.transaction(() => objects.associate('contacts', '2', 'calls', '3', 193))
  expect(linkedTo('2')).toEqual(['3'])
  // Undone: gone again.
  await expect(
    service.db.transaction(() => {
      objects.associate('calls', '4', 'contacts', '2', 194)
      objects.dissociate('calls', '3', 'contacts', '2', 194, T0)
      throw new Error('undo')
    }),
  ).rejects.toThrow('undo')
  expect(linkedTo('2')).toEqual(['3'])
  // Archived on either side: no match; restored: back.
  await service.db.transaction(() => objects.archive('calls', '2', T0))
  expect(linkedTo('1')).toEqual(['1'])
  await service.db.transaction(() => objects.archive('contacts', '1', T0))
  expect(linkedTo('1')).toEqual([])
  await service.db.transaction(() => {
    objects.restore('contacts', '1', T0)
    objects.restore('calls', '2', T0)
  })
  expect(linkedTo('1')).toEqual(['1', '2'])
  // A reload puts back the links of the snapshot, and only those.
  service.db.restore(saved)
  expect(linkedTo('2')).toEqual([])
  expect(linkedTo('1')).toEqual(['1', '2'])
})
