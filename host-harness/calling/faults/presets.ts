/**
 * Composer presets: one or more ready-made host → widget messages per type,
 * including the degenerate shapes real hosts send (SDK issues #228, #232:
 * DIAL_NUMBER with objectId 0 and no objectType; the legacy `phone_number`;
 * SET_WIDGET_URL with a top-level iFrameUrl) and a few that are invalid or
 * unknown on purpose.
 */
import { CATALOGUE, getEntry, type CatalogueEntry } from '../../../shared/protocol/index.ts'

export interface Preset {
  label: string
  /** The message without messageId (the runtime adds one). */
  message: { type: string; [key: string]: unknown }
}

export interface PresetContext {
  portalId: number
  ownerId: number | string
  /** The engagement of the current call, if any (used by reply presets). */
  engagementId?: number
  externalCallId?: string
  now: number
}

/** Every type the host may send (SYNC is the handshake's own). */
export function hostSendableTypes(): string[] {
  const entries: readonly CatalogueEntry[] = Object.values(CATALOGUE)
  return entries
    .filter((entry) => entry.acceptedFrom.includes('host') && entry.type !== 'SYNC')
    .map((entry) => entry.type)
}

/** Types a widget does not know (they must get an ERROR / UNKNOWN_MESSAGE_TYPE reply). */
export const UNKNOWN_TYPE_PRESETS: readonly Preset[] = [
  { label: 'UPDATE_ASSOCIATIONS_FAILED (removed in 0.9.5)', message: { type: 'UPDATE_ASSOCIATIONS_FAILED', data: { error: { message: 'x' } } } },
  { label: 'UNLOADING (never a host → widget type)', message: { type: 'UNLOADING' } },
]

export function presetsFor(type: string, ctx: PresetContext): Preset[] {
  const engagementId = ctx.engagementId ?? 1
  const externalCallId = ctx.externalCallId ?? 'composer-call-1'
  const dial = {
    phoneNumber: '+15550100001',
    ownerId: ctx.ownerId,
    subjectId: 1,
    objectId: 1,
    objectType: 'CONTACT',
    portalId: ctx.portalId,
    countryCode: 'US',
    calleeInfo: { calleeId: 1, calleeObjectTypeId: '0-1' },
    startTimestamp: ctx.now,
    toPhoneNumberSrc: 'phone',
  }
  const specific: Record<string, Preset[]> = {
    DIAL_NUMBER: [
      { label: 'Full payload (contact 1)', message: { type: 'DIAL_NUMBER', data: dial } },
      {
        label: 'objectId 0 and no objectType (ticket call, #228)',
        message: { type: 'DIAL_NUMBER', data: { phoneNumber: '+15550100001', ownerId: ctx.ownerId, subjectId: 0, objectId: 0, portalId: ctx.portalId, startTimestamp: ctx.now } },
      },
      { label: 'Legacy phone_number only', message: { type: 'DIAL_NUMBER', data: { phone_number: '+15550100001', portalId: ctx.portalId } } },
      { label: 'Invalid: no phone number', message: { type: 'DIAL_NUMBER', data: { objectId: 1, objectType: 'CONTACT' } } },
    ],
    CREATE_ENGAGEMENT_SUCCEEDED: [
      { label: 'Current engagement', message: { type: 'CREATE_ENGAGEMENT_SUCCEEDED', data: { engagementId } } },
      { label: 'Invalid: engagementId as a string', message: { type: 'CREATE_ENGAGEMENT_SUCCEEDED', data: { engagementId: String(engagementId) } } },
    ],
    CREATE_ENGAGEMENT_FAILED: [{ label: 'With an error message', message: { type: 'CREATE_ENGAGEMENT_FAILED', data: { error: { message: 'Composed failure' } } } }],
    UPDATE_ENGAGEMENT_SUCCEEDED: [{ label: 'Current engagement', message: { type: 'UPDATE_ENGAGEMENT_SUCCEEDED', data: { engagementId } } }],
    UPDATE_ENGAGEMENT_FAILED: [{ label: 'With an error message', message: { type: 'UPDATE_ENGAGEMENT_FAILED', data: { error: { message: 'Composed failure' } } } }],
    ENGAGEMENT_CREATED: [{ label: 'Deprecated form of CREATE_ENGAGEMENT_SUCCEEDED', message: { type: 'ENGAGEMENT_CREATED', data: { engagementId } } }],
    CALLER_ID_MATCH_SUCCEEDED: [
      {
        label: 'One contact',
        message: {
          type: 'CALLER_ID_MATCH_SUCCEEDED',
          data: {
            callerIdMatches: [
              { callerIdType: 'CONTACT', objectCoordinates: { portalId: ctx.portalId, objectId: 1, objectTypeId: '0-1' }, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
            ],
          },
        },
      },
      {
        label: 'One company',
        message: {
          type: 'CALLER_ID_MATCH_SUCCEEDED',
          data: { callerIdMatches: [{ callerIdType: 'COMPANY', objectCoordinates: { portalId: ctx.portalId, objectId: 1, objectTypeId: '0-2' }, name: 'Acme' }] },
        },
      },
      { label: 'Empty match list', message: { type: 'CALLER_ID_MATCH_SUCCEEDED', data: { callerIdMatches: [] } } },
    ],
    CALLER_ID_MATCH_FAILED: [{ label: 'No data', message: { type: 'CALLER_ID_MATCH_FAILED' } }],
    NAVIGATE_TO_RECORD_FAILED: [
      {
        label: 'Unknown record',
        message: { type: 'NAVIGATE_TO_RECORD_FAILED', data: { engagementId, objectCoordinates: { portalId: ctx.portalId, objectId: 999999, objectTypeId: '0-1' } } },
      },
    ],
    FINALIZE_ENGAGEMENT_SUCCEEDED: [{ label: 'Current call', message: { type: 'FINALIZE_ENGAGEMENT_SUCCEEDED', data: { engagementId, externalCallId } } }],
    FINALIZE_ENGAGEMENT_FAILED: [
      { label: 'Unknown engagement', message: { type: 'FINALIZE_ENGAGEMENT_FAILED', data: { engagementId, externalCallId, error: { message: 'Unknown engagement' } } } },
    ],
    PUBLISH_TO_CHANNEL_SUCCEEDED: [{ label: 'Current call (deprecated)', message: { type: 'PUBLISH_TO_CHANNEL_SUCCEEDED', data: { engagementId, externalCallId } } }],
    PUBLISH_TO_CHANNEL_FAILED: [{ label: 'Current call (deprecated)', message: { type: 'PUBLISH_TO_CHANNEL_FAILED', data: { engagementId, externalCallId } } }],
    SET_WIDGET_URL: [
      { label: 'Top-level iFrameUrl (host form)', message: { type: 'SET_WIDGET_URL', iFrameUrl: 'http://127.0.0.1:4174' } },
      { label: 'Invalid: no iFrameUrl', message: { type: 'SET_WIDGET_URL', data: {} } },
    ],
    SET_WIDGET_URL_FAILED: [{ label: 'With an error message', message: { type: 'SET_WIDGET_URL_FAILED', data: { error: { message: 'Composed failure' } } } }],
    VISIBILITY_CHANGED: [
      { label: 'Hidden', message: { type: 'VISIBILITY_CHANGED', data: { isMinimized: false, isHidden: true } } },
      { label: 'Minimized', message: { type: 'VISIBILITY_CHANGED', data: { isMinimized: true, isHidden: false } } },
      { label: 'Shown', message: { type: 'VISIBILITY_CHANGED', data: { isMinimized: false, isHidden: false } } },
      { label: 'Invalid: missing isHidden', message: { type: 'VISIBILITY_CHANGED', data: { isMinimized: true } } },
    ],
    END_CALL: [{ label: 'No data', message: { type: 'END_CALL' } }],
    READY: [{ label: 'Host-sent READY', message: { type: 'READY', data: { portalId: ctx.portalId } } }],
  }
  const presets = specific[type]
  if (presets) return presets
  const entry = getEntry(type)
  return [{ label: 'Empty', message: entry?.hasData === false ? { type } : { type, data: {} } }]
}
