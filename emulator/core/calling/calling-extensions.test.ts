/**
 * Contract tests of the calling-extension resources: recording settings and
 * recordings (with a pretend vendor server behind the outbound fetch),
 * transcripts, inbound calls and the channel connection. Signatures are
 * checked with the official client's own verifier (Signature.isValid of
 * @hubspot/api-client), not with the code that made them.
 */
import { Signature } from '@hubspot/api-client'
import { beforeEach, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../http/auth.ts'
import { client, tablesOf, type Client } from '../objects/testing.ts'
import { createCrmService, type CrmService } from '../service.ts'
import { developer, expectError, oauthCredential } from '../timeline/testing.ts'
import { fakeVendor, VENDOR_NUMBERS_URL, VENDOR_RECORDING_ENDPOINT, type FakeVendor } from './testing.ts'

const APP = ACCOUNT.appId
const RECORDING_SETTINGS = `/crm/v3/extensions/calling/${APP}/settings/recording`
const CHANNEL_SETTINGS = `/crm/v3/extensions/calling/${APP}/settings/channel-connection`
const READY = '/crm/v3/extensions/calling/recordings/ready'
const TRANSCRIPTS = '/crm/v3/extensions/calling/transcripts'
const INBOUND = '/crm/v3/extensions/calling/inbound-call'

let vendor: FakeVendor
let api: CrmService
let c: Client

function start(options: { vendor?: FakeVendor | null } = {}) {
  vendor = options.vendor ?? fakeVendor()
  // The signature verifier checks the timestamp against the real clock, so the service signs with it too.
  api = createCrmService({ now: () => Date.now(), rateLimits: false, ...(options.vendor !== null && { outboundFetch: vendor.fetch }) })
  c = client(api)
}
beforeEach(() => start())

/** A call as a calling app logs one for its recording to be fetched. */
async function loggedCall(extra: Record<string, unknown> = {}): Promise<string> {
  const call = await c.ok('POST', '/crm/v3/objects/calls', {
    properties: { hs_call_title: 'Support call', hs_call_external_id: 'ext-42', hs_call_app_id: String(APP), hs_call_external_account_id: 'acct-7', hs_call_source: 'INTEGRATIONS_PLATFORM', ...extra },
  }, 201)
  return call.id as string
}

const media = (callId: string) => c.ok('GET', `/_ringside/v1/calls/${callId}/media`)
const audio = (callId: string, range?: string) => api.handle(new Request(`http://api.test/_ringside/v1/calls/${callId}/recording`, { headers: range ? { range } : {} }))

describe('recording settings', () => {
  test('POST (200), GET and PATCH return {urlToRetrieveAuthedRecording}; there is no DELETE', async () => {
    await expectError(await c.req('GET', RECORDING_SETTINGS, undefined, developer), 404, 'OBJECT_NOT_FOUND')
    expect(await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)).toEqual({ urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT })
    await expectError(await c.req('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, developer), 409, 'CONFLICT')
    const changed = 'https://vendor.example/v2/recordings/%s/url'
    expect(await c.ok('PATCH', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: changed }, 200, developer)).toEqual({ urlToRetrieveAuthedRecording: changed })
    expect(await c.ok('GET', RECORDING_SETTINGS, undefined, 200, developer)).toEqual({ urlToRetrieveAuthedRecording: changed })
    await expectError(await c.req('DELETE', RECORDING_SETTINGS, undefined, developer), 405, 'METHOD_NOT_ALLOWED')
  })

  test.each([
    ['without %s', 'https://vendor.example/recordings', /must contain %s/],
    ['http on another host', 'http://vendor.example/recordings/%s', /must use https/],
    ['not a URL', 'recordings/%s', /not an absolute URL/],
  ])('a URL %s is 400 and nothing is stored', async (_name, url, message) => {
    const before = tablesOf(api)
    const error = await expectError(await c.req('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: url }, developer), 400, 'VALIDATION_ERROR')
    expect(error.message).toMatch(message)
    expect(tablesOf(api)).toBe(before)
  })

  test('GET /_ringside/v1/calling/settings says null where the real GETs answer 404', async () => {
    expect(await c.ok('GET', '/_ringside/v1/calling/settings')).toEqual({ recording: null, channelConnection: null })
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
    await c.ok('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL, isReady: true }, 200, developer)
    expect(await c.ok('GET', '/_ringside/v1/calling/settings')).toEqual({
      recording: { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT },
      channelConnection: { url: VENDOR_NUMBERS_URL, isReady: true, createdAt: expect.any(String), updatedAt: expect.any(String) },
    })
  })

  test('http is accepted on this machine (a vendor server under development); another app id is 404; the API key is required', async () => {
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: 'http://127.0.0.1:3000/recordings/%s' }, 200, developer)
    await expectError(await c.req('GET', '/crm/v3/extensions/calling/2002/settings/recording', undefined, developer), 404, 'OBJECT_NOT_FOUND')
    await expectError(await c.req('GET', RECORDING_SETTINGS, undefined, 'none'), 401, 'INVALID_AUTHENTICATION')
  })
})

describe('recordings/ready and playback', () => {
  beforeEach(async () => {
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
  })

  test('ready (204) makes the CRM ask the signed recording endpoint, then fetch the file with a Range request', async () => {
    const callId = await loggedCall()
    expect(await c.ok('POST', READY, { engagementId: Number(callId) }, 204)).toBeUndefined()

    const [endpoint, probe] = vendor.requests
    const url = new URL(endpoint!.url)
    expect(url.pathname).toBe('/recordings/ext-42')
    expect(Object.fromEntries(url.searchParams)).toEqual({ externalAccountId: 'acct-7', appId: String(APP) })
    const timestamp = Number(endpoint!.headers.get('x-hubspot-request-timestamp'))
    expect(
      Signature.isValid({ signatureVersion: 'v3', method: 'GET', url: endpoint!.url, requestBody: '', clientSecret: ACCOUNT.clientSecret, signature: endpoint!.headers.get('x-hubspot-signature-v3') ?? '', timestamp }),
    ).toBe(true)
    expect(Signature.isValid({ signatureVersion: 'v3', method: 'GET', url: endpoint!.url, requestBody: '', clientSecret: 'another-secret', signature: endpoint!.headers.get('x-hubspot-signature-v3') ?? '', timestamp })).toBe(false)
    expect(probe!.url).toBe('https://vendor.example/files/ext-42.wav?token=vendor-secret')
    expect(probe!.headers.get('range')).toBe('bytes=0-1')

    const { recording, transcript } = await media(callId)
    expect(transcript).toBeNull()
    expect(recording).toMatchObject({ status: 'READY', contentType: 'audio/wav', size: vendor.audio.length, rangeRequests: true, audioUrl: `/_ringside/v1/calls/${callId}/recording` })
    expect(JSON.stringify(recording)).not.toContain('vendor-secret')
  })

  test('playback forwards Range to the vendor and answers 206; no Range is the whole file; a Range past the end is 416', async () => {
    const callId = await loggedCall()
    await c.ok('POST', READY, { engagementId: Number(callId) }, 204)
    const seen = vendor.requests.length

    const part = await audio(callId, 'bytes=1000-1099')
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1099/${vendor.audio.length}`)
    expect(part.headers.get('accept-ranges')).toBe('bytes')
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(vendor.audio.slice(1000, 1100))
    expect(vendor.requests[seen]!.headers.get('range')).toBe('bytes=1000-1099')

    const tail = await audio(callId, 'bytes=-10')
    expect(tail.status).toBe(206)
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(vendor.audio.slice(-10))

    const whole = await audio(callId)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('audio/wav')
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(vendor.audio)

    const asked = vendor.requests.length
    const past = await audio(callId, `bytes=${vendor.audio.length}-`)
    expect(past.headers.get('content-range')).toBe(`bytes */${vendor.audio.length}`)
    await expectError(past, 416, 'VALIDATION_ERROR')
    expect(vendor.requests.length, 'a range past the end is answered without asking the vendor').toBe(asked)
  })

  test('an open-ended range gets one chunk of 512 KiB, from which the player asks on', async () => {
    start({ vendor: fakeVendor({ size: 600_000 }) })
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
    const callId = await loggedCall()
    await c.ok('POST', READY, { engagementId: Number(callId) }, 204)
    const first = await audio(callId, 'bytes=0-')
    expect(first.status).toBe(206)
    expect(first.headers.get('content-range')).toBe('bytes 0-524287/600000')
    const rest = await audio(callId, 'bytes=524288-')
    expect(rest.headers.get('content-range')).toBe('bytes 524288-599999/600000')
    expect(new Uint8Array(await rest.arrayBuffer())).toEqual(vendor.audio.slice(524_288))
  })

  test('a vendor that ignores Range (200) still plays: Ringside cuts the range out itself', async () => {
    start({ vendor: fakeVendor({ ranges: false }) })
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
    const callId = await loggedCall()
    await c.ok('POST', READY, { engagementId: Number(callId) }, 204)
    expect((await media(callId)).recording).toMatchObject({ status: 'READY', rangeRequests: false, size: vendor.audio.length })
    const part = await audio(callId, 'bytes=10-19')
    expect(part.status).toBe(206)
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(vendor.audio.slice(10, 20))
  })

  test('a call without hs_call_external_id, an unknown call, and an app without recording settings are refused; nothing is written', async () => {
    const bare = (await c.ok('POST', '/crm/v3/objects/calls', { properties: { hs_call_title: 'Plain' } }, 201)).id
    const before = tablesOf(api)
    const missing = await expectError(await c.req('POST', READY, { engagementId: Number(bare) }), 400, 'VALIDATION_ERROR')
    expect(missing.context).toEqual({ missingProperties: ['hs_call_external_id', 'hs_call_app_id'] })
    await expectError(await c.req('POST', READY, { engagementId: 999_999 }), 404, 'OBJECT_NOT_FOUND')
    await expectError(await c.req('POST', READY, { engagementId: 'x' }), 400, 'VALIDATION_ERROR')
    expect(tablesOf(api)).toBe(before)
    const otherApp = await loggedCall({ hs_call_app_id: '2002' })
    const snapshot = tablesOf(api)
    expect((await expectError(await c.req('POST', READY, { engagementId: Number(otherApp) }), 400, 'VALIDATION_ERROR')).message).toMatch(/no recording settings/)
    expect(tablesOf(api)).toBe(snapshot)
    expect(vendor.requests).toEqual([])
  })

  test('a vendor that cannot be reached leaves the recording FAILED with the reason; playback is then 404', async () => {
    await c.ok('PATCH', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: 'https://down.example/recordings/%s' }, 200, developer)
    const callId = await loggedCall()
    await c.ok('POST', READY, { engagementId: Number(callId) }, 204)
    const { recording } = await media(callId)
    expect(recording.status).toBe('FAILED')
    expect(recording.reason).toMatch(/down\.example.*no server/)
    await expectError(await audio(callId), 404, 'OBJECT_NOT_FOUND')
  })

  test('without an outbound fetch the service says it makes no outbound requests', async () => {
    start({ vendor: null })
    await c.ok('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
    const callId = await loggedCall()
    await c.ok('POST', READY, { engagementId: Number(callId) }, 204)
    expect((await media(callId)).recording).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/makes no outbound requests/) })
  })
})

test('hs_call_recording_url takes only https URLs: an http one is 400 INVALID_URL, nothing written', async () => {
  const before = tablesOf(api)
  const error = await expectError(await c.req('POST', '/crm/v3/objects/calls', { properties: { hs_call_recording_url: 'http://rec.example/1.mp3' } }), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('Property values were not valid')
  expect(error.message).toContain('INVALID_URL')
  expect(error.message).toContain('https')
  expect(tablesOf(api)).toBe(before)
  await c.ok('POST', '/crm/v3/objects/calls', { properties: { hs_call_recording_url: 'https://rec.example/1.mp3' } }, 201)
})

describe('transcripts', () => {
  const utterance = (start: number, end: number, text = 'Hello.') => ({ speaker: { id: '11', name: 'Agent', email: 'agent@example.com' }, text, languageCode: 'en-US', startTimeMillis: start, endTimeMillis: end })

  test('create (200 {id}), get (TranscriptResponse, utterances in time order) and delete (204)', async () => {
    const callId = await loggedCall()
    const { id } = await c.ok('POST', TRANSCRIPTS, { engagementId: Number(callId), transcriptCreateUtterances: [utterance(2090, 3450, 'Good, and you?'), utterance(1980, 2090, 'Hello. How are you?')] })
    expect(id).toMatch(/^\d+$/)
    const got = await c.ok('GET', `${TRANSCRIPTS}/${id}`)
    expect(got).toEqual({
      id,
      engagementId: Number(callId),
      transcriptSource: 'INTEGRATOR_GENERATED',
      transcriptUtterances: [
        { id: `${id}-1`, ...utterance(1980, 2090, 'Hello. How are you?') },
        { id: `${id}-2`, ...utterance(2090, 3450, 'Good, and you?') },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect((await media(callId)).transcript).toEqual(got)
    await expectError(await c.req('POST', TRANSCRIPTS, { engagementId: Number(callId), transcriptCreateUtterances: [utterance(0, 1)] }), 409, 'CONFLICT')
    await c.ok('DELETE', `${TRANSCRIPTS}/${id}`, undefined, 204)
    await expectError(await c.req('GET', `${TRANSCRIPTS}/${id}`), 404, 'OBJECT_NOT_FOUND')
    expect((await media(callId)).transcript).toBeNull()
  })

  test.each([
    ['a negative start', [utterance(-5, 10)], /startTimeMillis must not be negative/],
    ['an end before its start', [utterance(500, 100)], /endTimeMillis 100 is before startTimeMillis 500/],
    ['overlapping utterances', [utterance(0, 1000), utterance(900, 1500)], /overlaps utterance 0/],
    ['no utterances', [], /at least one utterance/],
    ['a fractional time', [utterance(0.5, 10)], /int/],
  ])('%s is 400 VALIDATION_ERROR, nothing written', async (_name, utterances, message) => {
    const callId = await loggedCall()
    const before = tablesOf(api)
    const error = await expectError(await c.req('POST', TRANSCRIPTS, { engagementId: Number(callId), transcriptCreateUtterances: utterances }), 400, 'VALIDATION_ERROR')
    expect(error.message).toMatch(message)
    expect(tablesOf(api)).toBe(before)
  })

  test('a transcript for a call that does not exist is 404; a token without the transcripts scopes is 403', async () => {
    await expectError(await c.req('POST', TRANSCRIPTS, { engagementId: 999_999, transcriptCreateUtterances: [utterance(0, 1)] }), 404, 'OBJECT_NOT_FOUND')
    const narrow = await oauthCredential(api, 'crm.objects.contacts.write')
    await expectError(await c.req('GET', `${TRANSCRIPTS}/1`, undefined, narrow), 403, 'MISSING_SCOPES')
  })
})

describe('inbound-call', () => {
  const request = (extra: Record<string, unknown> = {}) => ({
    createEngagement: true,
    engagementProperties: { hs_call_title: 'Inbound from Maria' },
    externalCallId: 'inbound-1',
    finalCallStatus: 'COMPLETED',
    fromNumber: { e164Number: '+16175550101', phoneNumberType: 'MOBILE' },
    toNumber: { e164Number: '+18001231234', phoneNumberType: 'FIXED_LINE' },
    potentialRecipientUserIds: [ACCOUNT.userId],
    callStartedTimestamp: '2026-01-15T11:58:00Z',
    durationSeconds: 95,
    ...extra,
  })

  test('logs an inbound call, associated with the caller, and answers the caller-ID matches', async () => {
    const oauth = await oauthCredential(api, 'crm.objects.contacts.write crm.objects.contacts.read')
    const answer = await c.ok('POST', INBOUND, request(), 200, oauth)
    expect(answer).toEqual({
      callerIdMatches: [
        { callerIdType: 'CONTACT', objectCoordinates: { portalId: ACCOUNT.hubId, objectId: 1, objectTypeId: '0-1' }, firstName: 'Maria', lastName: 'Garcia', email: 'maria.garcia@northwind.example' },
      ],
    })
    const calls = await c.ok('GET', '/crm/v3/objects/contacts/1/associations/calls')
    const call = await c.ok('GET', `/crm/v3/objects/calls/${calls.results.at(-1).id}?properties=hs_call_direction,hs_call_status,hs_call_from_number,hs_call_external_id,hs_call_app_id,hs_call_duration,hs_timestamp,hs_call_title,hs_call_source`)
    expect(call.properties).toMatchObject({
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_from_number: '+16175550101',
      hs_call_external_id: 'inbound-1',
      hs_call_app_id: String(APP),
      hs_call_duration: '95000',
      hs_timestamp: '2026-01-15T11:58:00.000Z',
      hs_call_title: 'Inbound from Maria',
      hs_call_source: 'INTEGRATIONS_PLATFORM',
    })
  })

  test.each(['HOLD', 'MISSED', 'UNKNOWN', 'CALLING_CRM_USER'])('finalCallStatus %s is accepted and stored', async (status) => {
    const before = [...api.objects.records('calls')].length
    await c.ok('POST', INBOUND, request({ finalCallStatus: status }))
    const calls = [...api.objects.records('calls')]
    expect(calls.length).toBe(before + 1)
    expect(calls.at(-1)!.properties.hs_call_status).toBe(status)
  })

  test('a company number matches the company; createEngagement false logs nothing', async () => {
    const before = tablesOf(api)
    const answer = await c.ok('POST', INBOUND, request({ createEngagement: false, fromNumber: { e164Number: '+16175550120', phoneNumberType: 'FIXED_LINE' } }))
    expect(answer.callerIdMatches).toEqual([{ callerIdType: 'COMPANY', objectCoordinates: { portalId: ACCOUNT.hubId, objectId: 1, objectTypeId: '0-2' }, name: 'Northwind Traders' }])
    expect(tablesOf(api)).toBe(before)
  })

  test.each([
    ['an unknown status', { finalCallStatus: 'REJECTED' }, /finalCallStatus/],
    ['a number that is not E.164', { fromNumber: { e164Number: '617-555-0101', phoneNumberType: 'MOBILE' } }, /E\.164/],
    ['a bad engagement property', { engagementProperties: { hs_call_duration: 'long' } }, /INVALID_NUMBER/],
    ['an engagement property named __proto__', { engagementProperties: JSON.parse('{"__proto__": "x"}') }, /PROPERTY_DOESNT_EXIST/],
    ['a missing externalCallId', { externalCallId: undefined }, /externalCallId/],
  ])('%s is 400 VALIDATION_ERROR and nothing is written', async (_name, extra, message) => {
    const before = tablesOf(api)
    const error = await expectError(await c.req('POST', INBOUND, request(extra)), 400, 'VALIDATION_ERROR')
    expect(error.message).toMatch(message)
    expect(tablesOf(api)).toBe(before)
  })
})

describe('channel connection', () => {
  const check = () => c.ok('POST', '/_ringside/v1/calling/channel-connection/check')

  test('settings: POST (200), GET, PATCH, DELETE (204) with {url, isReady, createdAt, updatedAt}', async () => {
    await expectError(await c.req('GET', CHANNEL_SETTINGS, undefined, developer), 404, 'OBJECT_NOT_FOUND')
    const created = await c.ok('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL, isReady: false }, 200, developer)
    expect(created).toEqual({ url: VENDOR_NUMBERS_URL, isReady: false, createdAt: expect.any(String), updatedAt: expect.any(String) })
    expect(await c.ok('PATCH', CHANNEL_SETTINGS, { isReady: true }, 200, developer)).toMatchObject({ url: VENDOR_NUMBERS_URL, isReady: true })
    await c.ok('DELETE', CHANNEL_SETTINGS, undefined, 204, developer)
    await expectError(await c.req('GET', CHANNEL_SETTINGS, undefined, developer), 404, 'OBJECT_NOT_FOUND')
    const before = tablesOf(api)
    await expectError(await c.req('POST', CHANNEL_SETTINGS, { url: 'ftp://x.example', isReady: true }, developer), 400, 'VALIDATION_ERROR')
    await expectError(await c.req('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL }, developer), 400, 'VALIDATION_ERROR')
    expect(tablesOf(api)).toBe(before)
  })

  test('the check: not configured, not ready, then the signed request and the numbers it returned', async () => {
    expect(await check()).toMatchObject({ status: 'NOT_CONFIGURED' })
    await c.ok('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL, isReady: false }, 200, developer)
    expect(await check()).toMatchObject({ status: 'NOT_READY', url: VENDOR_NUMBERS_URL })
    expect(vendor.requests).toEqual([])
    await c.ok('PATCH', CHANNEL_SETTINGS, { isReady: true }, 200, developer)
    const result = await check()
    expect(result).toMatchObject({ status: 'CONNECTED', numbers: [{ e164PhoneNumber: '+18001231234', friendlyName: 'Support line', connectable: true }] })

    const sent = vendor.requests.at(-1)!
    expect(sent.method).toBe('POST')
    expect(JSON.parse(sent.body)).toEqual({ appId: APP, portalId: ACCOUNT.hubId, userId: ACCOUNT.userId })
    const options = {
      signatureVersion: 'v3',
      method: 'POST',
      url: VENDOR_NUMBERS_URL,
      requestBody: sent.body,
      clientSecret: ACCOUNT.clientSecret,
      signature: sent.headers.get('x-hubspot-signature-v3') ?? '',
      timestamp: Number(sent.headers.get('x-hubspot-request-timestamp')),
    }
    expect(Signature.isValid(options)).toBe(true)
    expect(Signature.isValid({ ...options, requestBody: sent.body.replace(String(APP), '1002') }), 'a changed body fails').toBe(false)
  })

  test('numbers with an extension or a long name cannot be connected; a broken answer is FAILED with the reason', async () => {
    start({ vendor: fakeVendor({ numbers: { phoneNumbers: [{ e164PhoneNumber: '+18001231234', extension: '1' }, { e164PhoneNumber: '+18001231235', friendlyName: 'x'.repeat(25) }] } }) })
    await c.ok('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL, isReady: true }, 200, developer)
    const result = await check()
    expect(result.numbers.map((n: { connectable: boolean; problem?: string }) => [n.connectable, n.problem])).toEqual([
      [false, 'Numbers with an extension cannot be connected to the help desk.'],
      [false, 'The friendly name is longer than 24 characters.'],
    ])
    start({ vendor: fakeVendor({ numbers: 'nope' }) })
    await c.ok('POST', CHANNEL_SETTINGS, { url: VENDOR_NUMBERS_URL, isReady: true }, 200, developer)
    expect(await check()).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/did not answer a list of numbers/) })
  })
})



test('the 2026-03 paths reach the same resources (the versions table maps them)', async () => {
  await c.ok('POST', '/crm/extensions/calling/2026-03/1001/settings/recording', { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT }, 200, developer)
  expect(await c.ok('GET', RECORDING_SETTINGS, undefined, 200, developer)).toEqual({ urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT })
  const callId = await loggedCall()
  await c.ok('POST', '/crm/extensions/calling/2026-03/recordings/ready', { engagementId: Number(callId) }, 204)
  const { id } = await c.ok('POST', '/crm/extensions/calling/2026-03/transcripts', {
    engagementId: Number(callId),
    transcriptCreateUtterances: [{ speaker: { id: '1', name: 'A' }, text: 'Hi', startTimeMillis: 0, endTimeMillis: 10 }],
  })
  expect((await c.ok('GET', `${TRANSCRIPTS}/${id}`)).engagementId).toBe(Number(callId))
  expect((await media(callId)).recording.status).toBe('READY')
})
