import { createTestService, expectError, type TestService } from '../../testing/timeline.ts'
import { wildcardMatch } from './search-match.ts'
import { client, type Client } from '../../testing/objects.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

type Filter = { propertyName: string; operator: string; value?: unknown; highValue?: unknown; values?: unknown[] }

const search = (type: string, body: unknown, status = 200) => c.ok('POST', `/crm/v3/objects/${type}/search`, body, status)
const ids = (result: { results: Array<{ id: string }> }) => result.results.map((r) => r.id)
const where = (...filters: Filter[]) => ({ filterGroups: [{ filters }] })

// ------------------------------------------------------------- phone matching

test.each(['+1 617 555 0103', '+16175550103', '617-555-0103', '(617) 555.0103', '1 617 555 0103', '001 617 555 0103'])(
  'EQ on phone matches a caller number written as %j',
  async (number) => {
    const result = await search('contacts', where({ propertyName: 'phone', operator: 'EQ', value: number }))
    expect(ids(result)).toEqual(['3'])
    expect(result.total).toBe(1)
  },
)

test('a different, partial or foreign number does not match', async () => {
  expect(ids(await search('contacts', where({ propertyName: 'phone', operator: 'EQ', value: '+1 617 555 0113' })))).toEqual([])
  expect(ids(await search('contacts', where({ propertyName: 'phone', operator: 'EQ', value: '0103' })))).toEqual([])
  // The same ten digits after another country code are another number.
  expect(ids(await search('contacts', where({ propertyName: 'phone', operator: 'EQ', value: '+44 617 555 0103' })))).toEqual([])
  expect(ids(await search('contacts', where({ propertyName: 'phone', operator: 'NEQ', value: '+1 617 555 0103' }))).length).toBe(8)
})

test('IN matches any number across phone and mobilephone groups (the host’s caller-id lookup)', async () => {
  const body = {
    filterGroups: [
      { filters: [{ propertyName: 'phone', operator: 'IN', values: ['6175550191', '617 555 0107'] }] },
      { filters: [{ propertyName: 'mobilephone', operator: 'IN', values: ['6175550191', '617 555 0107'] }] },
    ],
  }
  expect(ids(await search('contacts', body))).toEqual(['1', '7'])
})

// --------------------------------------------------------------- operators

test('EQ on strings ignores case; NEQ is its opposite and includes records without the value', async () => {
  expect(ids(await search('contacts', where({ propertyName: 'lastname', operator: 'EQ', value: 'GARCIA' })))).toEqual(['1'])
  const neq = await search('contacts', where({ propertyName: 'lastname', operator: 'NEQ', value: 'garcia' }))
  expect(neq.total).toBe(8)
  expect(ids(await search('contacts', where({ propertyName: 'jobtitle', operator: 'NEQ', value: 'x' })))).toHaveLength(9)
})

test('HAS_PROPERTY and NOT_HAS_PROPERTY test presence', async () => {
  expect(ids(await search('contacts', where({ propertyName: 'mobilephone', operator: 'HAS_PROPERTY' })))).toEqual(['1'])
  expect((await search('contacts', where({ propertyName: 'company', operator: 'NOT_HAS_PROPERTY' }))).total).toBe(1)
})

test('CONTAINS_TOKEN matches words and * wildcards; NOT_CONTAINS_TOKEN the rest', async () => {
  expect(ids(await search('contacts', where({ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@contoso.example' })))).toEqual(['3', '4'])
  expect(ids(await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: 'portal' })))).toEqual(['1'])
  expect(ids(await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: 'port' })))).toEqual([])
  expect(ids(await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: 'port*' })))).toEqual(['1'])
  expect(ids(await search('tickets', where({ propertyName: 'subject', operator: 'NOT_CONTAINS_TOKEN', value: 'portal' })))).toEqual(['2'])
})

test('numbers compare numerically, with BETWEEN inclusive', async () => {
  expect(ids(await search('deals', where({ propertyName: 'amount', operator: 'GT', value: 5000 })))).toEqual(['1', '3'])
  expect(ids(await search('deals', where({ propertyName: 'amount', operator: 'GTE', value: '5000' })))).toEqual(['1', '2', '3'])
  expect(ids(await search('deals', where({ propertyName: 'amount', operator: 'LT', value: 12000 })))).toEqual(['2'])
  expect(ids(await search('deals', where({ propertyName: 'amount', operator: 'LTE', value: 12000 })))).toEqual(['2', '3'])
  expect(ids(await search('deals', where({ propertyName: 'amount', operator: 'BETWEEN', value: 5000, highValue: 12000 })))).toEqual(['2', '3'])
})

test('datetimes compare as instants, from epoch ms or ISO', async () => {
  const cutoff = new Date(api.clock.now - 3 * 86_400_000)
  expect(ids(await search('tickets', where({ propertyName: 'createdate', operator: 'GT', value: cutoff.getTime() })))).toEqual(['1'])
  expect(ids(await search('tickets', where({ propertyName: 'createdate', operator: 'LT', value: cutoff.toISOString() })))).toEqual(['2'])
})

test('NOT_IN excludes the listed values; enumerations compare by value', async () => {
  expect(ids(await search('tickets', where({ propertyName: 'hs_ticket_priority', operator: 'NOT_IN', values: ['HIGH'] })))).toEqual(['2'])
  expect(ids(await search('tickets', where({ propertyName: 'hs_pipeline_stage', operator: 'IN', values: ['1', '3'] })))).toEqual(['1', '2'])
})

test('filters within a group are ANDed, groups are ORed', async () => {
  const both = where({ propertyName: 'company', operator: 'EQ', value: 'Contoso Ltd' }, { propertyName: 'firstname', operator: 'EQ', value: 'Lukas' })
  expect(ids(await search('contacts', both))).toEqual(['4'])
  const either = {
    filterGroups: [
      { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Lukas' }] },
      { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Kenji' }] },
    ],
  }
  expect(ids(await search('contacts', either))).toEqual(['4', '7'])
})

test('query searches the text properties of the type, and phone digits', async () => {
  expect(ids(await search('contacts', { query: 'fabrikam' }))).toEqual(['5', '6'])
  expect(ids(await search('contacts', { query: 'Müller' }))).toEqual(['4'])
  expect(ids(await search('contacts', { query: '555 0108' }))).toEqual(['8'])
  expect(ids(await search('tickets', { query: 'invoice' }))).toEqual(['2'])
})

test('sorts order results, missing values last; limit and after page through them', async () => {
  const sorted = await search('contacts', { sorts: [{ propertyName: 'firstname', direction: 'DESCENDING' }], limit: 3, properties: ['firstname'] })
  expect(sorted.results.map((r: { properties: { firstname: string } }) => r.properties.firstname)).toEqual(['Sofia', 'Priya', 'Olivia'])
  expect(sorted.total).toBe(9)
  expect(sorted.paging.next.after).toBe('3')
  const next = await search('contacts', { sorts: ['firstname'], limit: 3, after: '3' })
  expect(ids(next)).toEqual(['7', '4', '1']) // Aisha, Diego, James | Kenji, Lukas, Maria
  const last = await search('contacts', { limit: 3, after: 6 })
  expect(ids(last)).toEqual(['7', '8', '9'])
  expect(last.paging).toBeUndefined()
})

test('an empty search returns every live record with the default properties', async () => {
  const all = await search('tickets', {})
  expect(all.total).toBe(2)
  expect(Object.keys(all.results[0].properties)).toContain('subject')
})

// ------------------------------------------------------------------ limits

const filter: Filter = { propertyName: 'firstname', operator: 'HAS_PROPERTY' }
const groups = (sizes: number[]) => ({ filterGroups: sizes.map((n) => ({ filters: Array.from({ length: n }, () => filter) })) })

test('5 filter groups are allowed; 6 are 400', async () => {
  await search('contacts', groups([1, 1, 1, 1, 1]))
  const error = await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', groups([1, 1, 1, 1, 1, 1])), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('at most 5')
})

test('10 filters in a group are allowed; 11 are 400', async () => {
  await search('contacts', groups([10]))
  const error = await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', groups([11])), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('at most 10 per group')
})

test('25 filters in all are allowed; 26 are 400', async () => {
  await search('contacts', groups([10, 10, 5]))
  const error = await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', groups([10, 10, 6])), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('at most 25')
})

test('limit takes up to 200; 201 and 0 are 400', async () => {
  expect((await search('contacts', { limit: 200 })).results).toHaveLength(9)
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', { limit: 201 }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', { limit: 0 }), 400, 'VALIDATION_ERROR')
})

test.each<[string, unknown]>([
  ['an unknown property', where({ propertyName: 'favourite_colour', operator: 'EQ', value: 'x' })],
  ['an unknown operator', where({ propertyName: 'email', operator: 'LIKE', value: 'x' })],
  ['EQ without a value', where({ propertyName: 'email', operator: 'EQ' })],
  ['IN without values', where({ propertyName: 'email', operator: 'IN', values: [] })],
  ['BETWEEN without highValue', where({ propertyName: 'createdate', operator: 'BETWEEN', value: 0 })],
  ['a non-number for a number property', { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'GT', value: 'many' }] }] }],
  ['a non-date for a datetime property', where({ propertyName: 'createdate', operator: 'GT', value: 'last week' })],
  ['a sort on an unknown property', { sorts: [{ propertyName: 'nope' }] }],
  ['a malformed after', { after: 'page-2' }],
  ['filterGroups that is not an array', { filterGroups: { filters: [] } }],
])('%s is 400', async (_name, body) => {
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/search', body), 400, 'VALIDATION_ERROR')
})

// ------------------------------------------------------- hostile values and limits

test('a CONTAINS_TOKEN wildcard that would make a backtracking regex answer at once, and still matches correctly', async () => {
  const subject = 'a'.repeat(60)
  await c.ok('POST', '/crm/v3/objects/tickets', { properties: { subject, hs_pipeline_stage: '1' } }, 201)
  const started = performance.now()
  const hostile = await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: '*a*a*a*a*a*a*a*a*b' }))
  const elapsed = performance.now() - started
  expect(ids(hostile)).toEqual([])
  console.log(`search with "*a*a*a*a*a*a*a*a*b" over a 60-character subject: ${elapsed.toFixed(1)} ms`)
  // The same shape that can match does match.
  expect((await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: '*a*a*a*a*a*a*a*a*a' }))).total).toBe(1)
})

test.each([
  ['*', 'anything', true],
  ['a*', 'abc', true],
  ['*c', 'abc', true],
  ['a*c', 'abc', true],
  ['a*c', 'ac', true],
  ['a*b*c', 'abc', true],
  ['ab*bc', 'abc', false],
  ['a*a', 'a', false],
  ['*@contoso.example', 'ana@contoso.example', true],
  ['*x*', 'abc', false],
  ['.*', 'abc', false],
  ['(a+)+*', '(a+)+zzz', true],
])('wildcard %j against %j is %s (regex characters are literal)', (pattern, text, expected) => {
  expect(wildcardMatch(text, pattern.split('*'))).toBe(expected)
})

test('a filter value over 3,000 characters is 400, as in the real API', async () => {
  const ok = 'x'.repeat(3000)
  await search('tickets', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: ok }))
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/tickets/search', where({ propertyName: 'subject', operator: 'CONTAINS_TOKEN', value: `${ok}x` })),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toContain('3000')
  await expectError(await c.req('POST', '/crm/v3/objects/tickets/search', { query: 'q'.repeat(3001) }), 400, 'VALIDATION_ERROR')
})

test('100 values per IN filter are taken; 101 are 400', async () => {
  const values = Array.from({ length: 100 }, (_, i) => `v${i}`)
  await search('tickets', where({ propertyName: 'subject', operator: 'IN', values }))
  await expectError(
    await c.req('POST', '/crm/v3/objects/tickets/search', where({ propertyName: 'subject', operator: 'IN', values: [...values, 'one-more'] })),
    400,
    'VALIDATION_ERROR',
  )
})

// ------------------------------------------------------------- associations

describe('associations.<type> filters', () => {
  const deal = async (dealname: string, contactIds: string[]) =>
    (
      await c.ok(
        'POST',
        '/crm/v3/objects/deals',
        {
          properties: { dealname },
          associations: contactIds.map((id) => ({ to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] })),
        },
        201,
      )
    ).id as string

  test('EQ and IN find the records associated with the named records; NEQ and NOT_IN the others', async () => {
    const d1 = await deal('One', ['1'])
    const d2 = await deal('Two', ['1', '2'])
    const d3 = await deal('Three', ['3'])
    const d4 = await deal('Four', [])
    // Only these deals (the seed has its own): each filter with an hs_object_id IN beside it.
    const mine = (filter: Filter) => where(filter, { propertyName: 'hs_object_id', operator: 'IN', values: [d1, d2, d3, d4] })
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'EQ', value: '1' })))).toEqual([d1, d2])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'EQ', value: 2 })))).toEqual([d2])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'IN', values: ['2', '3'] })))).toEqual([d2, d3])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'NEQ', value: '1' })))).toEqual([d3, d4])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'NOT_IN', values: ['1', '3'] })))).toEqual([d4])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'HAS_PROPERTY' })))).toEqual([d1, d2, d3])
    expect(ids(await search('deals', mine({ propertyName: 'associations.contact', operator: 'NOT_HAS_PROPERTY' })))).toEqual([d4])
    // The other direction, and combined with a property filter.
    expect(ids(await search('contacts', where({ propertyName: 'associations.deal', operator: 'EQ', value: d2 })))).toEqual(['1', '2'])
    expect(
      ids(await search('deals', where({ propertyName: 'associations.contact', operator: 'EQ', value: '1' }, { propertyName: 'dealname', operator: 'EQ', value: 'two' }))),
    ).toEqual([d2])
    // An id that names no record matches nothing.
    expect((await search('deals', where({ propertyName: 'associations.contact', operator: 'EQ', value: 'abc' }))).total).toBe(0)
  })

  test('an association with an archived record does not count, and counts again once it is restored', async () => {
    const d1 = await deal('One', ['4'])
    const byContact = where({ propertyName: 'associations.contact', operator: 'EQ', value: '4' })
    expect(ids(await search('deals', byContact))).toEqual([d1])
    await c.ok('DELETE', '/crm/v3/objects/contacts/4', undefined, 204)
    expect(ids(await search('deals', byContact))).toEqual([])
    expect(ids(await search('deals', where({ propertyName: 'associations.contact', operator: 'NOT_HAS_PROPERTY' }, { propertyName: 'hs_object_id', operator: 'EQ', value: d1 })))).toEqual([d1])
    await c.ok('POST', '/crm/v3/objects/contacts/4/restore', {}, 200)
    expect(ids(await search('deals', byContact))).toEqual([d1])
    await c.ok('DELETE', `/crm/v4/objects/deals/${d1}/associations/contacts/4`, undefined, 204)
    expect(ids(await search('deals', byContact))).toEqual([])
  })

  test.each<[string, Filter]>([
    ['a range operator', { propertyName: 'associations.contact', operator: 'GT', value: '1' }],
    ['a token operator', { propertyName: 'associations.contact', operator: 'CONTAINS_TOKEN', value: '1' }],
    ['the plural type name', { propertyName: 'associations.contacts', operator: 'EQ', value: '1' }],
    ['an unknown type', { propertyName: 'associations.widget', operator: 'EQ', value: '1' }],
    ['a custom object type', { propertyName: 'associations.2-1', operator: 'EQ', value: '1' }],
    ['EQ without a value', { propertyName: 'associations.contact', operator: 'EQ' }],
    ['IN without values', { propertyName: 'associations.contact', operator: 'IN', values: [] }],
  ])('%s on an association is 400', async (_name, filter) => {
    const error = await expectError(await c.req('POST', '/crm/v3/objects/deals/search', where(filter)), 400, 'VALIDATION_ERROR')
    expect(error.message).toContain('associations.')
  })
})
