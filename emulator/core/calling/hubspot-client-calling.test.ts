/**
 * The official client, @hubspot/api-client 14.0.1, on the calling-extension
 * operations, in process (its global fetch pointed at the service, as in
 * ../hubspot-client.test.ts): every answer goes through the client's own
 * deserialization into its models (RecordingSettingsResponse,
 * ChannelConnectionSettingsResponse with Date fields, void for 204). The
 * client has no method for inbound-call or transcripts; a backend sends those
 * with its generic `apiRequest`, as here.
 */
import { Client } from '@hubspot/api-client'
import { ACCOUNT } from '../http/auth.ts'
import { createCrmService, type CrmService } from '../service.ts'
import { fakeVendor, VENDOR_NUMBERS_URL, VENDOR_RECORDING_ENDPOINT } from './testing.ts'

let api: CrmService
beforeEach(() => {
  api = createCrmService({ rateLimits: false, outboundFetch: fakeVendor().fetch })
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => api.handle(new Request(input, init)))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const BASE = { basePath: 'http://api.test' }
const developer = () => new Client({ ...BASE, developerApiKey: ACCOUNT.developerApiKey })
const app = () => new Client({ ...BASE, accessToken: ACCOUNT.privateAppToken })

test('recording settings and markAsReady through the client', async () => {
  const calling = developer().crm.extensions.calling
  expect(await calling.recordingSettingsApi.registerUrlFormat(ACCOUNT.appId, { urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT })).toEqual({ urlToRetrieveAuthedRecording: VENDOR_RECORDING_ENDPOINT })
  expect((await calling.recordingSettingsApi.getUrlFormat(ACCOUNT.appId)).urlToRetrieveAuthedRecording).toBe(VENDOR_RECORDING_ENDPOINT)
  const patched = await calling.recordingSettingsApi.updateUrlFormat(ACCOUNT.appId, { urlToRetrieveAuthedRecording: 'https://vendor.example/recordings/%s?v=2' })
  expect(patched.urlToRetrieveAuthedRecording).toBe('https://vendor.example/recordings/%s?v=2')
  await expect(calling.recordingSettingsApi.registerUrlFormat(ACCOUNT.appId, { urlToRetrieveAuthedRecording: 'http://vendor.example/%s' })).rejects.toMatchObject({ code: 400 })

  const call = await app().crm.objects.calls.basicApi.create({ properties: { hs_call_external_id: 'ext-1', hs_call_app_id: String(ACCOUNT.appId) }, associations: [] })
  await expect(app().crm.extensions.calling.recordingSettingsApi.markAsReady({ engagementId: Number(call.id) })).resolves.toBeUndefined()
  await expect(app().crm.extensions.calling.recordingSettingsApi.markAsReady({ engagementId: 987_654 })).rejects.toMatchObject({ code: 404 })
})

test('channel-connection settings through the client: dates are Dates, DELETE is void', async () => {
  const settings = developer().crm.extensions.calling.channelConnectionSettingsApi
  const created = await settings.create(ACCOUNT.appId, { url: VENDOR_NUMBERS_URL, isReady: false })
  expect(created.createdAt).toBeInstanceOf(Date)
  expect(created.isReady).toBe(false)
  expect((await settings.update(ACCOUNT.appId, { isReady: true })).isReady).toBe(true)
  expect((await settings.getById(ACCOUNT.appId)).url).toBe(VENDOR_NUMBERS_URL)
  await expect(settings.archive(ACCOUNT.appId)).resolves.toBeUndefined()
  await expect(settings.getById(ACCOUNT.appId)).rejects.toMatchObject({ code: 404 })
})

test('inbound-call and transcripts with apiRequest', async () => {
  const client = app()
  const inbound = await client.apiRequest({
    method: 'POST',
    path: '/crm/v3/extensions/calling/inbound-call',
    body: {
      createEngagement: true,
      engagementProperties: {},
      externalCallId: 'in-1',
      finalCallStatus: 'MISSED',
      fromNumber: { e164Number: '+16175550102', phoneNumberType: 'MOBILE' },
      toNumber: { e164Number: '+18001231234', phoneNumberType: 'FIXED_LINE' },
      potentialRecipientUserIds: [],
    },
  })
  expect(inbound.status).toBe(200)
  expect((await inbound.json()).callerIdMatches).toMatchObject([{ callerIdType: 'CONTACT', firstName: 'James', lastName: 'Chen' }])
  const call = await client.crm.objects.calls.searchApi.doSearch({ filterGroups: [{ filters: [{ propertyName: 'hs_call_external_id', operator: 'EQ' as never, value: 'in-1' }] }], properties: ['hs_call_status'], limit: 1, after: '0', sorts: [] })
  expect(call.results[0]?.properties.hs_call_status).toBe('MISSED')
  const transcript = await client.apiRequest({
    method: 'POST',
    path: '/crm/v3/extensions/calling/transcripts',
    body: { engagementId: Number(call.results[0]!.id), transcriptCreateUtterances: [{ speaker: { id: '1', name: 'James' }, text: 'Hello?', startTimeMillis: 0, endTimeMillis: 800 }] },
  })
  expect(transcript.status).toBe(200)
  expect((await transcript.json()).id).toMatch(/^\d+$/)
})
