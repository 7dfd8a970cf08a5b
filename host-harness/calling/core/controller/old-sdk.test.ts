/**
 * The controller with widgets on SDK releases older than today's types (0.0.6 to 0.6.x):
 * calls started without externalCallId are logged, and an old SDK's UNKNOWN_MESSAGE_TYPE
 * answer to a message the CRM sends is not blamed on the widget.
 */
import { api } from '../../../lib/api-client.ts'
import { installTestCrm } from '../../../lib/testing/test-crm.ts'
import { createCallingStore, type CallingStore } from '../calling-store.ts'
import { CallingController } from './controller.ts'
import { FakeHost } from '../testing/fake-host.ts'

interface CallRecord {
  id: string
  properties: Record<string, string | null>
}

let host: FakeHost
let store: CallingStore
let controller: CallingController
const NOW = Date.UTC(2025, 0, 15, 10, 0, 0)

beforeEach(() => {
  installTestCrm()
  host = new FakeHost()
  store = createCallingStore({ mounted: true, status: 'ready', initialized: true, loggedIn: true })
  controller = new CallingController({ host, api, store, navigate: () => true, now: () => NOW })
})
afterEach(() => controller.dispose())

const getCall = (id: number) =>
  api.get<CallRecord>(`/crm/v3/objects/calls/${id}`, { query: { properties: 'hs_call_status,hs_call_direction,hs_call_to_number,hs_call_external_id,hs_call_body' } })

test("SDK 0.0.x: outgoingCall({ createEngagement, phoneNumber }), callAnswered(), callEnded(), callCompleted({ engagementId }) log one call, with no external id in the CRM", async () => {
  controller.startCall({ objectType: 'contacts', objectId: '1', phoneNumber: '+1 617 555 0101', phoneProperty: 'phone' })
  expect(host.post({ type: 'OUTGOING_CALL_STARTED', data: { createEngagement: true, phoneNumber: '+1 617 555 0101' } }).act).toBe(true)
  await controller.idle()
  const [created] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  expect(created?.engagementId).toEqual(expect.any(Number))
  expect(host.sentBy('engagementCreated')).toEqual([{ engagementId: created!.engagementId }])
  host.post({ type: 'CALL_ANSWERED' })
  host.post({ type: 'CALL_ENDED' })
  await controller.idle()
  expect((await getCall(created!.engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_direction: 'OUTBOUND', hs_call_to_number: '+1 617 555 0101' })
  host.post({ type: 'CALL_COMPLETED', data: { engagementId: created!.engagementId, hideWidget: false, engagementProperties: { hs_call_body: 'typed notes' } } })
  await controller.idle()
  expect(host.sentBy('updateEngagementSucceeded')).toHaveLength(1)
  const call = await getCall(created!.engagementId)
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'typed notes' })
  expect(call.properties.hs_call_external_id ?? null).toBeNull()
  expect(host.sentBy('createEngagementFailed')).toEqual([])
})

test('SDK 0.5.x: incomingCall({ createEngagement, fromNumber, toNumber }) is matched and logged as an inbound call', async () => {
  host.post({ type: 'INCOMING_CALL', data: { createEngagement: true, fromNumber: '+1 617 555 0101', toNumber: '+1 617 555 0100' } })
  await controller.idle()
  expect(host.sentBy('callerIdMatchSucceeded')).toHaveLength(1)
  const [created] = host.sentBy('createEngagementSucceeded') as Array<{ engagementId: number }>
  host.post({ type: 'CALL_ANSWERED' })
  host.post({ type: 'CALL_ENDED', data: { callEndStatus: 'COMPLETED' } })
  await controller.idle()
  expect((await getCall(created!.engagementId)).properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_direction: 'INBOUND' })
})

test("an old SDK's UNKNOWN_MESSAGE_TYPE answer to a message the CRM sends raises no alert; one to a type the CRM never sends still does", () => {
  const unknown = (type: string) => host.emit('ERROR', { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: { type, messageId: 'host_1', data: {} } } })
  unknown('CREATE_ENGAGEMENT_SUCCEEDED')
  unknown('ENGAGEMENT_CREATED')
  unknown('UPDATE_ENGAGEMENT_FAILED')
  expect(store.getState().alerts).toEqual([])
  unknown('RINGSIDE_MADE_UP')
  expect(store.getState().alerts).toEqual([expect.objectContaining({ message: expect.stringContaining('RINGSIDE_MADE_UP'), source: 'widget' })])
})
