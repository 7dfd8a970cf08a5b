/**
 * One valid sample message per wire type (fixtures for tests and benchmarks).
 * `samplePayloads` holds the `data` each typed method would be given.
 */
import type { MessageType } from '../catalogue.ts'

const coordinates = { portalId: 123, objectId: 501, objectTypeId: '0-1' }

export const samplePayloads = {
  READY: { portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'widget', usesCallingWindow: false, hostUrl: 'https://app.crm.test' },
  INITIALIZED: { isLoggedIn: true, isAvailable: true, engagementId: 0, sizeInfo: { width: 400, height: 600 } },
  INCOMING_CALL: { externalCallId: 'ext-1', fromNumber: '+15550100', toNumber: '+15550199', callStartTime: 1700000000000, createEngagement: true },
  OUTGOING_CALL_STARTED: { externalCallId: 'ext-1', fromNumber: '+15550199', toNumber: '+15550100', callStartTime: 1700000000000, createEngagement: true },
  CALL_ANSWERED: { externalCallId: 'ext-1' },
  CALL_ENDED: { externalCallId: 'ext-1', engagementId: 42, callEndStatus: 'COMPLETED' },
  CALL_COMPLETED: { externalCallId: 'ext-1', engagementId: 42, hideWidget: false, engagementProperties: { hs_call_body: 'notes', hs_timestamp: 1700000000000 } },
  CALL_TRANSFERRED: { externalCallId: 'ext-1' },
  NAVIGATE_TO_RECORD: { objectCoordinates: coordinates, engagementId: 42, openIn: 'NEW_TAB' },
  FINALIZE_ENGAGEMENT: { externalCallId: 'ext-1', engagementId: 42 },
  PUBLISH_TO_CHANNEL: { externalCallId: 'ext-1', engagementId: 42 },
  CALL_DATA: { anything: ['goes'] },
  ERROR: { message: 'microphone blocked' },
  RESIZE_WIDGET: { width: 320, height: 480 },
  SET_WIDGET_URL: { iFrameUrl: 'https://eu.widget.test/app' },
  DIAL_NUMBER: {
    phoneNumber: '+15550100', phone_number: '+15550100', countryCode: 'US',
    calleeInfo: { calleeId: 501, calleeObjectTypeId: '0-1' }, ownerId: 9, portalId: 123,
    subjectId: 501, objectId: 501, objectType: 'CONTACT', startTimestamp: 1700000000000, toPhoneNumberSrc: 'phone',
  },
  ENGAGEMENT_CREATED: { engagementId: 42 },
  CREATE_ENGAGEMENT_SUCCEEDED: { engagementId: 42 },
  CREATE_ENGAGEMENT_FAILED: { error: { message: 'no permission' } },
  UPDATE_ENGAGEMENT_SUCCEEDED: { engagementId: 42 },
  UPDATE_ENGAGEMENT_FAILED: { error: { message: 'not found' } },
  CALLER_ID_MATCH_SUCCEEDED: {
    callerIdMatches: [
      { callerIdType: 'CONTACT', objectCoordinates: coordinates, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' },
      { callerIdType: 'COMPANY', objectCoordinates: { portalId: 123, objectId: 77, objectTypeId: '0-2' }, name: 'Analytical Engines' },
    ],
  },
  CALLER_ID_MATCH_FAILED: { error: { message: 'no match' } },
  NAVIGATE_TO_RECORD_FAILED: { engagementId: 42, objectCoordinates: coordinates },
  FINALIZE_ENGAGEMENT_SUCCEEDED: { engagementId: 42, externalCallId: 'ext-1' },
  FINALIZE_ENGAGEMENT_FAILED: { engagementId: 42, externalCallId: 'ext-1', error: { message: 'locked' } },
  PUBLISH_TO_CHANNEL_SUCCEEDED: { engagementId: 42, externalCallId: 'ext-1' },
  PUBLISH_TO_CHANNEL_FAILED: { engagementId: 42, externalCallId: 'ext-1' },
  INITIATE_CALL_ID_SUCCEEDED: { callId: 'c-1' },
  INITIATE_CALL_ID_FAILED: { error: { message: 'nope' } },
  SET_WIDGET_URL_FAILED: { error: { message: 'bad url' } },
  VISIBILITY_CHANGED: { isMinimized: true, isHidden: false },
  SET_CALL_STATE: { state: 'legacy' },
  FAILED: { reason: 'anything' },
} as const

const HOST_URL = 'https://app.crm.test'

/** A complete valid envelope of `type`. */
export function sampleMessage(type: MessageType, messageId = `m_${type.toLowerCase()}`): Record<string, unknown> {
  switch (type) {
    case 'SYNC':
      return { type, messageId, hostUrl: HOST_URL, portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'widget', usesCallingWindow: false }
    case 'SYNC_ACK':
      return {
        type, messageId, hostUrl: HOST_URL, portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'widget',
        usesCallingWindow: false, debugMode: false, version: '0.9.7', iFrameUrl: 'https://widget.test',
      }
    case 'LOGGED_IN':
    case 'LOGGED_OUT':
    case 'USER_AVAILABLE':
    case 'USER_UNAVAILABLE':
    case 'END_CALL':
      return { type, messageId }
    default:
      return { type, data: structuredClone(samplePayloads[type]), messageId }
  }
}
