import { api, onApiExchange } from '../../../lib/api-client.ts'
import { CallingCause } from '../ports.ts'
import { installTestCrm } from '../../../lib/testing/test-crm.ts'
import { createCallingStore, type CallingStore } from '../calling-store.ts'
import { CallingController } from './controller.ts'
import { FakeHost } from '../testing/fake-host.ts'

interface CallRecord {
  id: string
  properties: Record<string, string | null>
  associations?: Record<string, { results: Array<{ id: string; type: string }> }>
}

let host: FakeHost
let store: CallingStore
let controller: CallingController
let navigate: ReturnType<typeof vi.fn<(type: string, id: string) => boolean>>

const NOW = Date.UTC(2025, 0, 15, 10, 0, 0)

beforeEach(() => {
  installTestCrm()
  host = new FakeHost()
  store = createCallingStore({ mounted: true, status: 'ready', initialized: true, loggedIn: true })
  navigate = vi.fn<(type: string, id: string) => boolean>(() => true)
  controller = new CallingController({ host, api, store, navigate, now: () => NOW })
})

afterEach(() => controller.dispose())

const getCall = (id: number | string) =>
  api.get<CallRecord>(`/crm/v3/objects/calls/${id}`, {
    query: { properties: 'hs_call_status,hs_call_direction,hs_call_to_number,hs_call_from_number,hs_call_title,hs_call_external_id,hs_call_body,hs_timestamp', associations: 'contacts,companies,deals' },
  })
const listCalls = () => api.get<{ results: CallRecord[] }>('/crm/v3/objects/calls', { query: { limit: 100 } })
const assocIds = (call: CallRecord, type: string) => [...new Set((call.associations?.[type]?.results ?? []).map((r) => r.id))].sort()

/** Dials contact 1 (Maria Garcia, Northwind) and starts the outgoing call with createEngagement. */
async function outboundCall(externalCallId = 'ext-1') {
  const dial = controller.startCall({ objectType: 'contacts', objectId: '1', phoneNumber: '+1 617 555 0101', phoneProperty: 'phone', record: { properties: { firstname: 'Maria', lastname: 'Garcia' } } })
  expect(dial.ok).toBe(true)
  const request = host.emit('OUTGOING_CALL_STARTED', {
    externalCallId,
    toNumber: '+1 617 555 0101',
    fromNumber: '+1 617 555 0100',
    callStartTime: NOW,
    createEngagement: true,
  })
  await controller.idle()
  const [reply] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  return { request, engagementId: reply?.engagementId ?? -1 }
}

test('a Call button sends DIAL_NUMBER with the full payload and shows the widget', () => {
  store.getState().patch({ visibility: { isHidden: true, isMinimized: false } })
  const result = controller.startCall({ objectType: 'contacts', objectId: '3', phoneNumber: '+44 20 7946 0000', phoneProperty: 'mobilephone' })
  expect(result).toEqual({ ok: true, messageId: expect.any(String) })
  expect(host.sentBy('dialNumber')).toEqual([
    {
      phoneNumber: '+44 20 7946 0000',
      ownerId: 1,
      subjectId: 3,
      objectId: 3,
      objectType: 'CONTACT',
      portalId: 123456,
      countryCode: 'GB',
      calleeInfo: { calleeId: 3, calleeObjectTypeId: '0-1' },
      startTimestamp: NOW,
      toPhoneNumberSrc: 'mobilephone',
    },
  ])
  expect(store.getState().visibility).toEqual({ isHidden: false, isMinimized: false })
  expect(host.sentBy('visibilityChanged')).toEqual([{ isHidden: false, isMinimized: false }])
})

test('a call from a company says COMPANY; from a deal it carries objectId 0 and no objectType', () => {
  controller.startCall({ objectType: 'companies', objectId: '2', phoneNumber: '+1 617 555 0130', phoneProperty: 'phone' })
  controller.startCall({ objectType: 'deals', objectId: '1', phoneNumber: '+1 617 555 0101', phoneProperty: 'phone' })
  const [company, deal] = host.sentBy('dialNumber') as Array<Record<string, unknown>>
  expect(company).toMatchObject({ objectType: 'COMPANY', objectId: 2, calleeInfo: { calleeId: 2, calleeObjectTypeId: '0-2' } })
  expect(deal).toMatchObject({ objectId: 0, subjectId: 1 })
  expect(deal).not.toHaveProperty('objectType')
})

test.each([
  [{ loggedIn: false }, 'Log in to the calling widget'],
  [{ loggedIn: null }, 'Log in to the calling widget'],
  [{ initialized: false }, 'has not sent INITIALIZED'],
  [{ status: 'syncing' as const }, 'still connecting'],
  [{ status: 'failed' as const, failureCause: 'timeout' as const }, 'SYNC_ACK_FAILED: timeout'],
  [{ mounted: false, settingsLoad: 'loaded' as const }, 'No calling widget'],
  [{ mounted: false, settingsLoad: 'loading' as const }, 'still connecting'],
])('dialing is refused with a reason when %o', (state, reason) => {
  store.getState().patch(state)
  const result = controller.startCall({ objectType: 'contacts', objectId: '1', phoneNumber: '+1 617 555 0101', phoneProperty: 'phone' })
  expect(result).toEqual({ ok: false, reason: expect.stringContaining(reason) })
  expect(host.sentBy('dialNumber')).toEqual([])
})

test('a record without a phone number cannot be dialed', () => {
  expect(controller.startCall({ objectType: 'contacts', objectId: '1', phoneNumber: '  ', phoneProperty: 'phone' })).toEqual({ ok: false, reason: expect.stringContaining('no phone number') })
})

test('OUTGOING_CALL_STARTED with createEngagement creates a call on the dialed contact and replies its id', async () => {
  const { request, engagementId } = await outboundCall()
  expect(engagementId).toBeGreaterThan(0)
  const call = await getCall(engagementId)
  expect(call.properties).toMatchObject({
    hs_call_status: 'CONNECTING',
    hs_call_direction: 'OUTBOUND',
    hs_call_title: 'Call to Maria Garcia',
    hs_call_external_id: 'ext-1',
    hs_call_from_number: '+1 617 555 0100',
  })
  expect(call.properties.hs_timestamp).toBe(new Date(NOW).toISOString())
  expect(assocIds(call, 'contacts')).toEqual(['1'])
  const reply = host.sent.find((m) => m.method === 'createEngagementSucceeded')
  expect(store.getState().links).toEqual([expect.objectContaining({ request, replyMessageId: reply?.messageId })])
  expect(store.getState().call).toMatchObject({ externalCallId: 'ext-1', engagementId, record: { objectType: 'contacts', objectId: '1' } })
  // then the legacy ENGAGEMENT_CREATED, as the real CRM still sends it
  expect(host.sent.slice(-2).map((m) => [m.method, m.data])).toEqual([
    ['createEngagementSucceeded', { engagementId }],
    ['engagementCreated', { engagementId }],
  ])
})

test('OUTGOING_CALL_STARTED without createEngagement leaves the engagement to the app', async () => {
  const before = (await listCalls()).results.length
  host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'app-owned', toNumber: '+1 617 555 0101', createEngagement: false })
  await controller.idle()
  expect((await listCalls()).results.length).toBe(before)
  expect(host.sent.filter((m) => m.method.startsWith('createEngagement'))).toEqual([])
})

test('a call started in the widget without a Call button is associated by matching the dialed number', async () => {
  host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'dialpad', toNumber: '(617) 555-0103', createEngagement: true })
  await controller.idle()
  const [reply] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  expect(assocIds(await getCall(reply!.engagementId), 'contacts')).toEqual(['3'])
})

test('CALL_ANSWERED and CALL_ENDED update the call status', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_ANSWERED', { externalCallId: 'ext-1' })
  await controller.idle()
  expect((await getCall(engagementId)).properties.hs_call_status).toBe('IN_PROGRESS')
  host.emit('CALL_ENDED', { externalCallId: 'ext-1', engagementId, callEndStatus: 'BUSY' })
  await controller.idle()
  expect((await getCall(engagementId)).properties.hs_call_status).toBe('BUSY')
})

test.each([
  ['COMPLETED', 'COMPLETED'],
  ['FAILED', 'FAILED'],
  ['CANCELED', 'CANCELED'],
  ['BUSY', 'BUSY'],
  ['NO_ANSWER', 'NO_ANSWER'],
  ['REJECTED', 'CANCELED'],
  ['MISSED', 'MISSED'],
] as const)('CALL_ENDED with callEndStatus %s is logged with hs_call_status %s', async (callEndStatus, callStatus) => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_ENDED', { externalCallId: 'ext-1', engagementId, callEndStatus })
  await controller.idle()
  expect((await getCall(engagementId)).properties.hs_call_status).toBe(callStatus)
  expect(store.getState().alerts).toEqual([])
})

test('CALL_COMPLETED applies the notes, replies UPDATE_ENGAGEMENT_SUCCEEDED, associates the company and hides the widget', async () => {
  const { engagementId } = await outboundCall()
  const completed = host.emit('CALL_COMPLETED', {
    externalCallId: 'ext-1',
    engagementId,
    engagementProperties: { hs_call_body: 'Discussed the renewal', hs_call_status: 'COMPLETED', hs_call_duration: 61000 },
  })
  expect(store.getState().visibility.isHidden).toBe(true)
  await controller.idle()
  expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])
  expect(host.sentBy('visibilityChanged').at(-1)).toEqual({ isHidden: true, isMinimized: false })
  const call = await getCall(engagementId)
  expect(call.properties).toMatchObject({ hs_call_body: 'Discussed the renewal', hs_call_status: 'COMPLETED' })
  expect(assocIds(call, 'contacts')).toEqual(['1'])
  expect(assocIds(call, 'companies')).toEqual(['1'])
  expect(store.getState().links.at(-1)).toMatchObject({ request: completed, requestType: 'CALL_COMPLETED' })
})

test('CALL_COMPLETED with hideWidget false keeps the widget visible', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_COMPLETED', { externalCallId: 'ext-1', engagementId, hideWidget: false })
  await controller.idle()
  expect(store.getState().visibility.isHidden).toBe(false)
  expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])
})

test('CALL_COMPLETED without engagementId updates the engagement the host created', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_COMPLETED', { externalCallId: 'ext-1', engagementProperties: { hs_call_body: 'no id sent' } })
  await controller.idle()
  expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])
  expect((await getCall(engagementId)).properties.hs_call_body).toBe('no id sent')
})

test('an engagement update the API refuses is answered UPDATE_ENGAGEMENT_FAILED with the API message', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_COMPLETED', { externalCallId: 'ext-1', engagementId, engagementProperties: { hs_call_status: 'NOT_A_STATUS' } })
  await controller.idle()
  expect(host.sentBy('updateEngagementSucceeded')).toEqual([])
  expect(host.sentBy('updateEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('HTTP 400') } }])
  expect((await getCall(engagementId)).properties.hs_call_status).toBe('CONNECTING')
})

test('CALL_COMPLETED for a call the widget never started is ignored and answered UPDATE_ENGAGEMENT_FAILED', async () => {
  host.emit('CALL_COMPLETED', { externalCallId: 'ghost', engagementId: 987654 })
  host.emit('CALL_COMPLETED', { externalCallId: 'ghost-2' })
  await controller.idle()
  expect(host.sentBy('updateEngagementFailed')).toEqual([
    { error: { message: 'The host ignored CALL_COMPLETED: no call ghost was started (it never updates a call the widget did not start).' } },
    { error: { message: 'The host ignored CALL_COMPLETED: no call ghost-2 was started (it never updates a call the widget did not start).' } },
  ])
})

test("CALL_ENDED carrying another call's engagementId ends only the named call; the other call's log is untouched", async () => {
  const first = await outboundCall()
  host.emit('CALL_ENDED', { externalCallId: 'ext-1', engagementId: first.engagementId, callEndStatus: 'COMPLETED' })
  host.emit('CALL_COMPLETED', { externalCallId: 'ext-1', engagementId: first.engagementId, engagementProperties: { hs_call_body: 'first' } })
  await controller.idle()
  host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'ext-2', toNumber: '+1 617 555 0101', createEngagement: true })
  await controller.idle()
  const second = (host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>).at(-1)!.engagementId
  host.emit('CALL_ENDED', { externalCallId: 'ext-2', engagementId: first.engagementId, callEndStatus: 'BUSY' })
  await controller.idle()
  expect((await getCall(first.engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'first' })
  expect((await getCall(second)).properties.hs_call_status).toBe('BUSY')
})

test('CALL_ENDED with the right engagementId but another externalCallId ends the call that owns the engagement', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_ANSWERED', { externalCallId: 'ext-1' })
  host.emit('CALL_ENDED', { externalCallId: 'somebody-else', engagementId, callEndStatus: 'COMPLETED' })
  await controller.idle()
  expect((await getCall(engagementId)).properties.hs_call_status).toBe('COMPLETED')
})

test('CALL_ANSWERED for a call never started changes nothing', async () => {
  const { engagementId } = await outboundCall()
  host.emit('CALL_ANSWERED', { externalCallId: 'not-started' })
  await controller.idle()
  expect((await getCall(engagementId)).properties.hs_call_status).toBe('CONNECTING')
  expect(store.getState().call?.status).not.toBe('IN_PROGRESS')
})

test('INCOMING_CALL matches the caller by phone, replies the contact and logs the call on it', async () => {
  const request = host.emit('INCOMING_CALL', { externalCallId: 'in-1', fromNumber: '+16175550105', toNumber: '+1 617 555 0100', createEngagement: true, callStartTime: NOW })
  expect(store.getState().incoming).toMatchObject({ fromNumber: '+16175550105', status: 'matching' })
  await controller.idle()
  expect(host.sentBy('callerIdMatchSucceeded')).toEqual([
    {
      callerIdMatches: [
        { callerIdType: 'CONTACT', objectCoordinates: { portalId: 123456, objectId: 5, objectTypeId: '0-1' }, firstName: 'Priya', lastName: 'Raman', email: 'priya.raman@fabrikam.example' },
      ],
    },
  ])
  expect(store.getState().incoming).toMatchObject({ status: 'matched', match: { objectType: 'contacts', objectId: '5', label: 'Priya Raman' } })
  const [created] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  const call = await getCall(created!.engagementId)
  expect(call.properties).toMatchObject({ hs_call_direction: 'INBOUND', hs_call_status: 'RINGING', hs_call_title: 'Call from Priya Raman' })
  expect(assocIds(call, 'contacts')).toEqual(['5'])
  const links = store.getState().links.filter((l) => l.request === request)
  expect(links).toHaveLength(2)
})

test('INCOMING_CALL from a company number matches the company', async () => {
  host.emit('INCOMING_CALL', { externalCallId: 'in-2', fromNumber: '617-555-0130', toNumber: '+1 617 555 0100' })
  await controller.idle()
  expect(host.sentBy('callerIdMatchSucceeded')).toEqual([
    { callerIdMatches: [{ callerIdType: 'COMPANY', objectCoordinates: { portalId: 123456, objectId: 2, objectTypeId: '0-2' }, name: 'Contoso Ltd' }] },
  ])
})

test('INCOMING_CALL from an unknown number replies CALLER_ID_MATCH_FAILED and still logs an unassociated call', async () => {
  host.emit('INCOMING_CALL', { externalCallId: 'in-3', fromNumber: '+1 202 555 0199', toNumber: '+1 617 555 0100', createEngagement: true })
  await controller.idle()
  expect(host.sentBy('callerIdMatchFailed')).toEqual([undefined])
  expect(store.getState().incoming).toMatchObject({ status: 'unmatched' })
  const [created] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  expect(assocIds(await getCall(created!.engagementId), 'contacts')).toEqual([])
})

test('an injected create fault fails the next engagement without calling the API, then creation works again', async () => {
  const before = (await listCalls()).results.length
  store.getState().setEngagementFault('create', 'next')
  host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'f-1', toNumber: '+1 617 555 0101', createEngagement: true })
  await controller.idle()
  expect(host.sentBy('createEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('Injected fault') } }])
  expect((await listCalls()).results.length).toBe(before)
  expect(store.getState().engagementFaults.create).toBe('off')
  host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'f-2', toNumber: '+1 617 555 0101', createEngagement: true })
  await controller.idle()
  expect(host.sentBy('createEngagementSucceeded')).toHaveLength(1)
})

test('a create fault on every engagement keeps failing; an update fault fails CALL_COMPLETED without touching the call', async () => {
  store.getState().setEngagementFault('create', 'always')
  for (const id of ['a', 'b']) host.emit('INCOMING_CALL', { externalCallId: id, fromNumber: '+1 202 555 0199', toNumber: '+1', createEngagement: true })
  await controller.idle()
  expect(host.sentBy('createEngagementFailed')).toHaveLength(2)
  store.getState().setEngagementFault('create', 'off')
  const { engagementId } = await outboundCall('u-1')
  store.getState().setEngagementFault('update', 'always')
  host.emit('CALL_COMPLETED', { externalCallId: 'u-1', engagementId, engagementProperties: { hs_call_body: 'never written' } })
  await controller.idle()
  expect(host.sentBy('updateEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('Injected fault') } }])
  expect((await getCall(engagementId)).properties.hs_call_body ?? null).toBeNull()
})

test('FINALIZE_ENGAGEMENT and PUBLISH_TO_CHANNEL succeed for a known engagement and fail for an unknown one', async () => {
  const { engagementId } = await outboundCall()
  host.emit('FINALIZE_ENGAGEMENT', { externalCallId: 'ext-1', engagementId })
  // an engagementId the host never created: the named call's own engagement, nothing else
  host.emit('FINALIZE_ENGAGEMENT', { externalCallId: 'ext-1', engagementId: 424242 })
  host.emit('FINALIZE_ENGAGEMENT', { externalCallId: 'never-started', engagementId: 424242 })
  host.emit('PUBLISH_TO_CHANNEL', { externalCallId: 'ext-1', engagementId })
  host.emit('PUBLISH_TO_CHANNEL', { externalCallId: 'never-started', engagementId: 424242 })
  await controller.idle()
  expect(host.sentBy('finalizeEngagementSucceeded')).toEqual([
    { engagementId, externalCallId: 'ext-1' },
    { engagementId, externalCallId: 'ext-1' },
  ])
  expect(host.sentBy('finalizeEngagementFailed')).toEqual([
    { externalCallId: 'never-started', error: { message: 'The host ignored FINALIZE_ENGAGEMENT: no call never-started was started (it never finalizes a call the widget did not start).' } },
  ])
  expect(host.sentBy('publishToChannelSucceeded')).toEqual([{ engagementId, externalCallId: 'ext-1' }])
  expect(host.sentBy('publishToChannelFailed')).toHaveLength(1)
})

test('NAVIGATE_TO_RECORD opens a known record and fails for an unknown one', async () => {
  host.emit('NAVIGATE_TO_RECORD', { objectCoordinates: { portalId: 123456, objectId: 2, objectTypeId: '0-2' } })
  host.emit('NAVIGATE_TO_RECORD', { objectCoordinates: { portalId: 123456, objectId: 999, objectTypeId: '0-1' }, engagementId: 7 })
  await controller.idle()
  expect(navigate).toHaveBeenCalledTimes(1)
  expect(navigate).toHaveBeenCalledWith('companies', '2')
  expect(host.sentBy('navigateToRecordFailed')).toEqual([{ engagementId: 7, objectCoordinates: { portalId: 123456, objectId: 999, objectTypeId: '0-1' } }])
})

test('NAVIGATE_TO_RECORD fails when the harness cannot open the record', async () => {
  navigate.mockReturnValue(false)
  host.emit('NAVIGATE_TO_RECORD', { objectCoordinates: { portalId: 123456, objectId: 1, objectTypeId: '0-1' } })
  await controller.idle()
  expect(host.sentBy('navigateToRecordFailed')).toHaveLength(1)
})

test('ERROR shows an alert with the widget’s message', () => {
  host.emit('ERROR', { message: 'Microphone permission denied' })
  expect(store.getState().alerts).toEqual([expect.objectContaining({ message: 'Microphone permission denied', source: 'widget' })])
})

test('login, availability and INITIALIZED are reflected in the state; sizeInfo and RESIZE_WIDGET are clamped', () => {
  store.getState().patch({ initialized: false, loggedIn: null })
  host.emit('INITIALIZED', { isLoggedIn: false, isAvailable: true, sizeInfo: { width: 5000, height: 100 } })
  expect(store.getState()).toMatchObject({ initialized: true, loggedIn: false, available: true, size: { width: 800, height: 200 } })
  host.emit('LOGGED_IN')
  host.emit('USER_UNAVAILABLE')
  expect(store.getState()).toMatchObject({ loggedIn: true, available: false })
  host.emit('RESIZE_WIDGET', { width: 320, height: 480 })
  expect(host.sizes.at(-1)).toEqual([320, 480])
  host.emit('LOGGED_OUT')
  expect(controller.cannotDialReason()).toContain('Log in')
})

test('SET_WIDGET_URL swaps the src for an http(s) URL and answers SET_WIDGET_URL_FAILED otherwise', () => {
  host.emit('SET_WIDGET_URL', { iFrameUrl: 'https://eu.dialer.example/app' })
  host.emit('SET_WIDGET_URL', undefined, { iFrameUrl: 'http://127.0.0.1:4174/widget/?region=us' })
  host.emit('SET_WIDGET_URL', { iFrameUrl: 'javascript:alert(1)' })
  expect(host.srcs).toEqual(['https://eu.dialer.example/app', 'http://127.0.0.1:4174/widget/?region=us'])
  expect(host.sentBy('setWidgetUrlFailed')).toEqual([{ error: { message: expect.stringContaining('http(s)') } }])
  expect(store.getState().currentSrc).toBe('http://127.0.0.1:4174/widget/?region=us')
})

test('the host tells the widget when the user minimizes, hides or shows it', () => {
  controller.minimize()
  controller.hide()
  controller.show()
  controller.show()
  expect(host.sentBy('visibilityChanged')).toEqual([
    { isHidden: false, isMinimized: true },
    { isHidden: true, isMinimized: false },
    { isHidden: false, isMinimized: false },
  ])
})

test('after dispose the controller no longer listens', () => {
  controller.dispose()
  expect(host.listenerCount()).toBe(0)
})

// ---------------------------------------------------------------- real widgets, acted on as the real CRM does

describe('widgets shaped like the vendor demos (messages judged as CallingHost judges them)', () => {
  let clock = NOW
  let logged: Array<{ externalCallId: string; outcome: string }>
  let keepVisible = false

  beforeEach(() => {
    controller.dispose()
    clock = NOW
    logged = []
    keepVisible = false
    controller = new CallingController({ host, api, store, navigate, now: () => clock, onCallLogged: (c) => logged.push(c), keepVisible: () => keepVisible })
  })

  const readCall = (id: number) =>
    api.get<CallRecord>(`/crm/v3/objects/calls/${id}`, { query: { properties: 'hs_call_status,hs_call_duration,hs_call_body,hs_call_title,hs_call_recording_url' } })

  test("CALL_COMPLETED with no CALL_ENDED ends the call first (COMPLETED once answered, with its duration); the widget's own status wins", async () => {
    const { engagementId } = await outboundCall()
    host.emit('CALL_ANSWERED', { externalCallId: 'ext-1' })
    clock += 4_000
    host.emit('CALL_COMPLETED', { externalCallId: 'ext-1', engagementId, engagementProperties: { hs_call_body: 'no end' } })
    await controller.idle()
    expect((await readCall(engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_duration: '4000', hs_call_body: 'no end' })
    expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])

    host.emit('OUTGOING_CALL_STARTED', { externalCallId: 'ext-2', toNumber: '+1 617 555 0101', createEngagement: true })
    await controller.idle()
    const second = (host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>).at(-1)!.engagementId
    host.emit('CALL_COMPLETED', { externalCallId: 'ext-2', engagementId: second, engagementProperties: { hs_call_status: 'NO_ANSWER' } })
    await controller.idle()
    expect((await readCall(second)).properties).toMatchObject({ hs_call_status: 'NO_ANSWER', hs_call_duration: '0' })
  })

  test('demo-minimal-js: CALL_ENDED without engagementId ends the call found by externalCallId; COMPLETED with notes and a duration', async () => {
    const { engagementId } = await outboundCall('min-1')
    host.post({ type: 'CALL_ANSWERED', data: { externalCallId: 'min-1' } })
    await controller.idle()
    clock += 42_000
    const ended = host.post({ type: 'CALL_ENDED', data: { callEndStatus: 'COMPLETED', externalCallId: 'min-1' } })
    expect(ended.act).toBe(true)
    await controller.idle()
    expect((await readCall(engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_duration: '42000' })
    host.post({
      type: 'CALL_COMPLETED',
      data: { engagementId, externalCallId: 'min-1', hideWidget: false, engagementProperties: { hs_call_title: 'Demo call', hs_call_body: 'Resolved issue' } },
    })
    await controller.idle()
    expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])
    expect((await readCall(engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_duration: '42000', hs_call_body: 'Resolved issue', hs_call_title: 'Demo call' })
    // the dock shows the engagement as the API holds it
    expect(store.getState().call?.engagement?.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_duration: '42000', hs_call_body: 'Resolved issue' })
    expect(logged).toEqual([expect.objectContaining({ externalCallId: 'min-1', outcome: 'completed' })])
  })

  test('demo-minimal-js answering END_CALL with callEnded() and no payload ends the current call', async () => {
    const { engagementId } = await outboundCall('min-2')
    host.post({ type: 'CALL_ENDED' })
    await controller.idle()
    expect((await readCall(engagementId)).properties).toMatchObject({ hs_call_status: 'CANCELED', hs_call_duration: '0' })
    expect(store.getState().call?.status).toBe('CANCELED')
  })

  test('demo-react-ts: hs_call_recording_url null is accepted (the property is cleared); notes, duration and status are logged', async () => {
    const { engagementId } = await outboundCall('react-1')
    await api.patch(`/crm/v3/objects/calls/${engagementId}`, { properties: { hs_call_recording_url: 'https://example.com/old.mp3' } })
    host.post({ type: 'CALL_ENDED', data: { callEndStatus: 'COMPLETED', externalCallId: 'react-1' } })
    const completed = host.post({
      type: 'CALL_COMPLETED',
      data: {
        engagementId,
        hideWidget: false,
        externalCallId: 'react-1',
        engagementProperties: { hs_call_body: 'Typed notes', hs_call_duration: '5300', hs_call_status: 'COMPLETED', hs_call_recording_url: null },
      },
    })
    expect(completed.deviations.map((d) => d.rule)).toEqual(['property-null-or-empty', 'timestamp-missing'])
    await controller.idle()
    expect(host.sentBy('updateEngagementFailed')).toEqual([])
    expect(host.sentBy('updateEngagementSucceeded')).toEqual([{ engagementId }])
    const call = await readCall(engagementId)
    expect(call.properties).toMatchObject({ hs_call_body: 'Typed notes', hs_call_duration: '5300', hs_call_status: 'COMPLETED' })
    expect(call.properties.hs_call_recording_url ?? null).toBeNull()
    expect(store.getState().visibility.isHidden).toBe(false)
  })

  test('numeric ids as strings: CALL_ENDED engagementId "12" is read as 12', async () => {
    const { engagementId } = await outboundCall('str-1')
    host.post({ type: 'CALL_ENDED', data: { externalCallId: 'str-1', engagementId: String(engagementId), callEndStatus: 'BUSY' } })
    await controller.idle()
    expect((await readCall(engagementId)).properties.hs_call_status).toBe('BUSY')
  })

  test('CALL_TRANSFERRED finalizes the call: COMPLETED with its duration, the dock says TRANSFERRED, the call counts as logged', async () => {
    const { engagementId } = await outboundCall('xfer-1')
    host.post({ type: 'CALL_ANSWERED', data: { externalCallId: 'xfer-1' } })
    await controller.idle()
    clock += 9_000
    host.post({ type: 'CALL_TRANSFERRED', data: { externalCallId: 'xfer-1' } })
    await controller.idle()
    expect((await readCall(engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_duration: '9000' })
    expect(store.getState().call).toMatchObject({ status: 'TRANSFERRED', engagement: { properties: { hs_call_status: 'COMPLETED' } } })
    expect(logged).toEqual([expect.objectContaining({ externalCallId: 'xfer-1', outcome: 'transferred' })])
  })

  test('an update the API refuses is answered UPDATE_ENGAGEMENT_FAILED with the reason', async () => {
    const { engagementId } = await outboundCall('bad-1')
    host.post({ type: 'CALL_COMPLETED', data: { externalCallId: 'bad-1', engagementId, engagementProperties: { hs_call_status: 'HUNG_UP' } } })
    await controller.idle()
    expect(host.sentBy('updateEngagementSucceeded')).toEqual([])
    expect(host.sentBy('updateEngagementFailed')).toEqual([{ error: { message: expect.stringMatching(/Could not update engagement \d+: .*HTTP 400/) } }])
  })

  test('a request the host ignores still gets its failure reply, with the reason', () => {
    host.post({ type: 'CALL_COMPLETED', data: 'done' })
    host.post({ type: 'FINALIZE_ENGAGEMENT', data: 7 })
    // an externalCallId that is not a string (a missing one is the older SDKs' shape, logged: old-sdk.test.ts)
    host.post({ type: 'OUTGOING_CALL_STARTED', data: { toNumber: '+1 617 555 0101', createEngagement: true, externalCallId: 42 } })
    expect(host.sentBy('updateEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('The host ignored CALL_COMPLETED') } }])
    expect(host.sentBy('finalizeEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('The host ignored FINALIZE_ENGAGEMENT') } }])
    expect(host.sentBy('createEngagementFailed')).toEqual([{ error: { message: expect.stringContaining('externalCallId') } }])
  })

  test('FINALIZE_ENGAGEMENT without engagementId finalizes the engagement of the call named by externalCallId', async () => {
    const { engagementId } = await outboundCall('fin-1')
    host.post({ type: 'FINALIZE_ENGAGEMENT', data: { externalCallId: 'fin-1', engagementId: null } })
    await controller.idle()
    expect(host.sentBy('finalizeEngagementSucceeded')).toEqual([{ engagementId, externalCallId: 'fin-1' }])
  })

  test('while a task queue is worked, hideWidget is ignored', async () => {
    keepVisible = true
    const { engagementId } = await outboundCall('queue-1')
    host.post({ type: 'CALL_COMPLETED', data: { externalCallId: 'queue-1', engagementId, hideWidget: true } })
    await controller.idle()
    expect(store.getState().visibility.isHidden).toBe(false)
    keepVisible = false
    const second = await outboundCall('queue-2')
    host.post({ type: 'CALL_COMPLETED', data: { externalCallId: 'queue-2', engagementId: second.engagementId } })
    await controller.idle()
    expect(store.getState().visibility.isHidden).toBe(true)
  })
})

test('every API request the controller makes for a widget message carries that message as its cause', async () => {
  const seen: Array<{ line: string; cause: unknown }> = []
  const off = onApiExchange((e) => seen.push({ line: `${e.method} ${e.path.split('?')[0]} → ${e.status}`, cause: e.tag instanceof CallingCause ? e.tag.message : undefined }))
  const { request: started, engagementId } = await outboundCall('ext-cause')
  const completed = host.emit('CALL_COMPLETED', { externalCallId: 'ext-cause', engagementId, engagementProperties: { hs_call_body: 'done' } })
  await controller.idle()
  off()
  const post = seen.find((s) => s.line === 'POST /crm/v3/objects/calls → 201')
  expect(post?.cause).toBe(started)
  const patch = seen.find((s) => s.line === `PATCH /crm/v3/objects/calls/${engagementId} → 200`)
  expect(patch?.cause).toBe(completed)
  expect(seen.filter((s) => s.cause === undefined)).toEqual([])
})
