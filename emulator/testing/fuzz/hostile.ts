/**
 * Hostile requests for any route, as fast-check arbitraries: the inputs that
 * once stalled or crashed the service, and their relatives.
 *
 * - JSON nested far past the limit (objects and arrays, 101 to 20,000 levels),
 *   as the whole body or inside the fields handlers recurse into
 *   (`properties`, `extraData`, `inputs`, `tables`);
 * - long runs of wildcards and regular-expression metacharacters in search
 *   values, queries, ids and template text;
 * - `__proto__`, `constructor` and `prototype` as keys at every level;
 * - bad percent-encoding in paths, query strings, forms and the Basic header;
 * - huge numbers, 1e999 (Infinity once parsed) and NaN-like strings;
 * - batches that name one id several times.
 *
 * Used by the route fuzz test (every request must be answered, never 5xx, an
 * error body on every 4xx, nothing changed by a failure) and by the
 * benchmark, which reports the worst time taken by one of these requests.
 */
import fc from 'fast-check'

/** What a request is made of before it becomes a `Request` (paths and queries raw, not re-encoded). */
export interface RequestSpec {
  method: string
  /** The path, already encoded as it should go on the wire. */
  path: string
  query?: Array<[string, string]>
  /** Query text appended as is (for bad percent-encoding). */
  rawQuery?: string
  headers?: Record<string, string>
  /** The body text and its content type. */
  body?: { text: string; type: string }
}

export const BASE_URL = 'http://api.test'

export function toRequest(spec: RequestSpec): Request {
  const url = new URL(spec.path, BASE_URL)
  for (const [name, value] of spec.query ?? []) url.searchParams.append(name, value)
  let href = url.toString()
  if (spec.rawQuery) href += (href.includes('?') ? '&' : '?') + spec.rawQuery
  const headers = new Headers(spec.headers)
  const hasBody = spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'DELETE'
  if (hasBody && spec.body!.type) headers.set('content-type', spec.body!.type)
  return new Request(href, { method: spec.method, headers, ...(hasBody && { body: spec.body!.text }) })
}

/** JSON text nested `depth` levels deep (built as text: JSON.stringify itself would recurse). */
export function deepJsonText(depth: number, kind: 'object' | 'array' = 'object'): string {
  return kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`
}

const DEPTHS = [101, 150, 2000, 20_000]
const depth = fc.constantFrom(...DEPTHS)
const deepValue = fc.tuple(depth, fc.constantFrom('object' as const, 'array' as const)).map(([d, k]) => deepJsonText(d, k))

/** Strings that are costly for naive matching or parsing. */
export const hostileString = fc.oneof(
  fc.integer({ min: 8, max: 400 }).map((n) => `${'*a'.repeat(n)}*b`),
  fc.integer({ min: 8, max: 400 }).map((n) => `${'a*'.repeat(n)}b`),
  fc.constantFrom('*a*a*a*a*a*a*a*a*b', '(a+)+$', '(.*a){20}', '^(a|a)*$', '.*.*.*.*.*=', '[', '\\', '$&', '${}', '%', '%E0%A4%A', '\u0000', '\uD800'),
  fc.integer({ min: 3001, max: 4000 }).map((n) => 'x'.repeat(n)),
  fc.constant('a'.repeat(70_000)),
  fc.constantFrom('{{#each a}}'.repeat(2000), '{{'.repeat(5000), '{{#if a}}{{/if}}'.repeat(3000)),
)

/** Numbers and number-like text that break naive parsing. */
export const hostileNumberText = fc.constantFrom('1e999', '-1e999', '1e308', '9007199254740993', '-0', '0.0000001', '1e-400', '123456789012345678901234567890')
export const hostileNumberLike = fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '0x10', '1_000', ' 1', '9007199254740993', '')

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const
const protoKey = fc.constantFrom(...PROTO_KEYS)

/** Body texts with prototype keys in the places handlers read keys from. */
const protoBody = fc.tuple(protoKey, fc.constantFrom('"x"', '{"polluted":true}', '[1]', 'null', '1')).map(([key, value]) =>
  fc.constantFrom(
    `{"${key}":${value}}`,
    `{"properties":{"${key}":${value}}}`,
    `{"properties":{"subject":"s","hs_pipeline_stage":"1","${key}":${value}}}`,
    `{"inputs":[{"id":"1","properties":{"${key}":${value}}}]}`,
    `{"inputs":[{"${key}":${value},"id":"1"}]}`,
    `{"tokens":{"${key}":${value}},"eventTemplateId":"1","objectId":"1"}`,
    `{"tokens":[{"name":"${key}","label":"x","type":"string"}],"name":"t","headerTemplate":"x"}`,
    `{"extraData":{"${key}":${value}},"eventTemplateId":"1","objectId":"1","tokens":{}}`,
    `{"filterGroups":[{"filters":[{"propertyName":"${key}","operator":"EQ","value":"x"}]}]}`,
    `{"name":"${key}","label":"x","type":"string","fieldType":"text","groupName":"contactinformation"}`,
    `{"format":"ringside-crm-db","version":1,"exportedAt":"","tables":{"${key}":[]}}`,
    `[{"associationCategory":"HUBSPOT_DEFINED","associationTypeId":16,"${key}":${value}}]`,
  ),
).chain((a) => a)

/** JSON bodies with one deep value placed where handlers would recurse. */
const deepBody = deepValue.chain((deep) =>
  fc.constantFrom(
    deep,
    `{"properties":{"subject":${deep}}}`,
    `{"properties":${deep}}`,
    `{"extraData":${deep},"eventTemplateId":"1","objectId":"1","tokens":{}}`,
    `{"inputs":[{"eventTemplateId":"1","objectId":"1","extraData":${deep}}]}`,
    `{"inputs":${deep}}`,
    `{"filterGroups":${deep}}`,
    `{"format":"ringside-crm-db","version":1,"exportedAt":"","tables":{"crm_contacts":${deep}}}`,
    `{"headerTemplate":"x","extraData":${deep}}`,
  ),
)

/** Search bodies with hostile values in every string slot. */
const searchBody = fc.tuple(hostileString, fc.constantFrom('CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN', 'EQ', 'IN', 'BETWEEN', 'GT')).map(([value, operator]) =>
  JSON.stringify({
    filterGroups: [{ filters: [{ propertyName: 'subject', operator, value, highValue: value, values: [value, value] }] }],
    query: value.slice(0, 3000),
    sorts: [{ propertyName: 'subject', direction: 'DESCENDING' }],
  }),
)

/** Bodies with odd numbers where handlers expect ids, limits and orders. */
const numberBody = fc.tuple(hostileNumberText, hostileNumberLike).map(([n, s]) =>
  fc.constantFrom(
    `{"limit":${n},"after":${n}}`,
    `{"limit":"${s}","after":"${s}"}`,
    `{"inputs":[{"id":${n}},{"id":"${s}"}]}`,
    `{"properties":{"amount":${n},"hs_call_duration":"${s}","closedate":"${s}","hs_timestamp":${n}}}`,
    `{"width":${n},"height":${n},"name":"x","url":"https://x.example/"}`,
    `{"label":"x","displayOrder":${n},"stages":[{"label":"s","displayOrder":${n},"metadata":{"ticketState":"OPEN","probability":"${s}"}}]}`,
    `[{"associationCategory":"HUBSPOT_DEFINED","associationTypeId":${n}}]`,
    `{"timestamp":${n},"eventTemplateId":"1","objectId":${n},"tokens":{}}`,
  ),
).chain((a) => a)

/** Batches that name one id several times. */
const duplicateBody = fc.tuple(fc.constantFrom('1', '2', 'a@example.com'), fc.integer({ min: 2, max: 5 })).map(([id, times]) =>
  JSON.stringify({
    inputs: Array.from({ length: times }, () => ({ id, idProperty: id.includes('@') ? 'email' : undefined, properties: { subject: 'Dup' }, from: { id }, to: [{ id }] })),
  }),
)

const badForm = fc.constantFrom(
  'grant_type=%E0%A4%A&client_id=%',
  'grant_type=refresh_token&refresh_token=%zz&client_id=local-client&client_secret=local-secret',
  `grant_type=authorization_code&code=${'%'.repeat(1000)}`,
  '__proto__=x&constructor=y&grant_type=refresh_token',
  'a'.repeat(20_000),
)

export type HostileBody = { text: string; type: string }

/** A hostile body in any of the shapes above. */
export const hostileBody: fc.Arbitrary<HostileBody> = fc.oneof(
  { weight: 3, arbitrary: deepBody.map((text) => ({ text, type: 'application/json' })) },
  { weight: 3, arbitrary: protoBody.map((text) => ({ text, type: 'application/json' })) },
  { weight: 2, arbitrary: searchBody.map((text) => ({ text, type: 'application/json' })) },
  { weight: 2, arbitrary: numberBody.map((text) => ({ text, type: 'application/json' })) },
  { weight: 1, arbitrary: duplicateBody.map((text) => ({ text, type: 'application/json' })) },
  { weight: 1, arbitrary: badForm.map((text) => ({ text, type: 'application/x-www-form-urlencoded' })) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":', '[1,2', '\u0000', '{"a":1}garbage', '"just a string"').map((text) => ({ text, type: 'application/json' })) },
  { weight: 1, arbitrary: fc.constant({ text: '{}', type: 'application/json; charset=%%%' }) },
)

/** Path segments with bad percent-encoding and other traps (put into the path unencoded). */
export const hostileSegment = fc.oneof(
  fc.constantFrom('%', '%E0%A4%A', '%zz', '%00', '%2F', '%2e%2e', '..', '__proto__', 'constructor', 'prototype', '%5F%5Fproto%5F%5F', '-1', '1e999', 'NaN', '9007199254740993'),
  fc.constant('9'.repeat(400)),
  fc.constant(encodeURIComponent('*a'.repeat(300))),
)

/** Query strings added as raw text. */
export const hostileQuery = fc.oneof(
  fc.constantFrom('limit=1e999', 'limit=NaN', 'after=%', 'after=-1', 'properties=%E0%A4%A', 'archived=%zz', 'idProperty=__proto__', 'utk=%', 'hapikey=%'),
  fc.constant(`properties=${'a,'.repeat(5000)}`),
  fc.constant(`associations=${'contacts,'.repeat(2000)}`),
)

/** Authorization headers that are malformed or hostile. */
export const hostileAuthorization = fc.constantFrom(
  `Basic ${btoa('%E0%A4%A:local-secret')}`,
  `Basic ${btoa('local-client:%zz')}`,
  'Basic %%%%',
  'Basic ',
  `Bearer ${'x'.repeat(10_000)}`,
  'Bearer %',
  'Bearer pat-local pat-local',
  'Bearer __proto__',
)

/**
 * A hostile version of a request to `method path` (the route's own path with
 * its parameters filled by `params`, unencoded): one hostile part at a time,
 * the rest plausible, so the hostile part reaches the handler.
 */
export function hostileSpec(
  method: string,
  template: string,
  params: fc.Arbitrary<string[]>,
  credential: { headers?: Record<string, string>; query?: Array<[string, string]> },
): fc.Arbitrary<RequestSpec> {
  const auth = credential.headers ?? {}
  const query = credential.query ?? []
  const fill = (values: string[], hostileIndex = -1, hostile = '') => {
    let i = 0
    return template
      .split('/')
      .map((part) => {
        if (!part.startsWith(':')) return part
        const index = i++
        return index === hostileIndex ? hostile : encodeURIComponent(values[index] ?? '1')
      })
      .join('/')
  }
  const paramCount = template.split('/').filter((p) => p.startsWith(':')).length
  const withBody = fc.record({ values: params, body: hostileBody }).map(({ values, body }): RequestSpec => ({ method, path: fill(values), query, headers: auth, body }))
  const withSegment = fc
    .record({ values: params, segment: hostileSegment, at: fc.nat() })
    .map(({ values, segment, at }): RequestSpec => ({ method, path: fill(values, at % paramCount, segment), query, headers: auth, body: { text: '{}', type: 'application/json' } }))
  const withQuery = fc.record({ values: params, rawQuery: hostileQuery }).map(({ values, rawQuery }): RequestSpec => ({ method, path: fill(values), query, rawQuery, headers: auth }))
  const withAuth = fc
    .record({ values: params, authorization: hostileAuthorization, body: hostileBody })
    .map(({ values, authorization, body }): RequestSpec => ({ method, path: fill(values), query, headers: { authorization }, body }))
  return fc.oneof(
    { weight: 5, arbitrary: withBody },
    ...(paramCount > 0 ? [{ weight: 2, arbitrary: withSegment }] : []),
    { weight: 2, arbitrary: withQuery },
    { weight: 1, arbitrary: withAuth },
  )
}
