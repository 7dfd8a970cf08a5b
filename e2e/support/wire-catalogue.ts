/**
 * The calling SDK's wire catalogue as the interop tests and fixtures see it:
 * every widget→host method with its wire type and a realistic payload, and
 * every host→widget type with the npm package's handler name and a payload.
 * Payload shapes follow the message and payload types of
 * @hubspot/calling-extensions-sdk 0.9.x (https://github.com/HubSpot/calling-extensions-sdk).
 */

/** A widget→host method of the npm package (and of our CallingExtensions). */
export interface WidgetMethodCase {
  readonly method: string
  readonly type: string
  /** `undefined` = the method takes no argument and sends no `data` key. */
  readonly payload: Readonly<Record<string, unknown>> | undefined
}

const CALL_ID = 'ext-call-1'
const ENGAGEMENT_ID = 4242
const COORDINATES = { portalId: 123, objectId: 501, objectTypeId: '0-1' } as const

export const WIDGET_METHODS: readonly WidgetMethodCase[] = [
  { method: 'initialized', type: 'INITIALIZED', payload: { isLoggedIn: true, isAvailable: true, sizeInfo: { width: 400, height: 600 } } },
  { method: 'userAvailable', type: 'USER_AVAILABLE', payload: undefined },
  { method: 'userUnavailable', type: 'USER_UNAVAILABLE', payload: undefined },
  { method: 'userLoggedIn', type: 'LOGGED_IN', payload: undefined },
  { method: 'userLoggedOut', type: 'LOGGED_OUT', payload: undefined },
  {
    method: 'incomingCall',
    type: 'INCOMING_CALL',
    payload: { externalCallId: CALL_ID, fromNumber: '+15551230001', toNumber: '+15551230002', callStartTime: 1_700_000_000_000, createEngagement: true },
  },
  {
    method: 'outgoingCall',
    type: 'OUTGOING_CALL_STARTED',
    payload: { externalCallId: CALL_ID, fromNumber: '+15551230002', toNumber: '+15551230001', callStartTime: 1_700_000_000_000, createEngagement: true },
  },
  { method: 'callAnswered', type: 'CALL_ANSWERED', payload: { externalCallId: CALL_ID } },
  { method: 'callEnded', type: 'CALL_ENDED', payload: { externalCallId: CALL_ID, engagementId: ENGAGEMENT_ID, callEndStatus: 'COMPLETED' } },
  {
    method: 'callCompleted',
    type: 'CALL_COMPLETED',
    payload: {
      externalCallId: CALL_ID,
      engagementId: ENGAGEMENT_ID,
      hideWidget: false,
      engagementProperties: { hs_timestamp: 1_700_000_042_000, hs_call_body: 'Discussed the renewal', hs_call_status: 'COMPLETED', hs_call_duration: '42000' },
    },
  },
  { method: 'publishToChannel', type: 'PUBLISH_TO_CHANNEL', payload: { externalCallId: CALL_ID, engagementId: ENGAGEMENT_ID } },
  { method: 'finalizeEngagement', type: 'FINALIZE_ENGAGEMENT', payload: { externalCallId: CALL_ID, engagementId: ENGAGEMENT_ID } },
  { method: 'callTransferred', type: 'CALL_TRANSFERRED', payload: { externalCallId: CALL_ID } },
  { method: 'navigateToRecord', type: 'NAVIGATE_TO_RECORD', payload: { objectCoordinates: COORDINATES, engagementId: ENGAGEMENT_ID, openIn: 'NEW_TAB' } },
  { method: 'sendError', type: 'ERROR', payload: { message: 'Microphone permission denied' } },
  { method: 'resizeWidget', type: 'RESIZE_WIDGET', payload: { width: 420, height: 640 } },
  { method: 'setWidgetUrl', type: 'SET_WIDGET_URL', payload: { iFrameUrl: 'http://127.0.0.1:4174/e2e/fixtures/npm-widget/?moved=1' } },
  { method: 'callData', type: 'CALL_DATA', payload: { note: 'free-form call data', sequence: 1 } },
]

/** A host→widget message, the CallingHost method that sends it, and the npm handler it must reach. */
export interface HostMessageCase {
  readonly type: string
  readonly hostMethod: string
  readonly handler: string
  readonly payload: Readonly<Record<string, unknown>> | undefined
}

const FAILURE = { error: { message: 'The CRM said no' } }

export const HOST_MESSAGES: readonly HostMessageCase[] = [
  {
    type: 'DIAL_NUMBER',
    hostMethod: 'dialNumber',
    handler: 'onDialNumber',
    payload: {
      phoneNumber: '+15551230001',
      phone_number: '+15551230001',
      countryCode: 'US',
      calleeInfo: { calleeId: 501, calleeObjectTypeId: '0-1' },
      ownerId: 7,
      portalId: 123,
      subjectId: 501,
      objectId: 501,
      objectType: 'CONTACT',
      startTimestamp: 1_700_000_000_000,
      toPhoneNumberSrc: 'phone',
    },
  },
  { type: 'ENGAGEMENT_CREATED', hostMethod: 'engagementCreated', handler: 'onEngagementCreated', payload: { engagementId: ENGAGEMENT_ID } },
  { type: 'CREATE_ENGAGEMENT_SUCCEEDED', hostMethod: 'createEngagementSucceeded', handler: 'onCreateEngagementSucceeded', payload: { engagementId: ENGAGEMENT_ID } },
  { type: 'CREATE_ENGAGEMENT_FAILED', hostMethod: 'createEngagementFailed', handler: 'onCreateEngagementFailed', payload: FAILURE },
  { type: 'UPDATE_ENGAGEMENT_SUCCEEDED', hostMethod: 'updateEngagementSucceeded', handler: 'onUpdateEngagementSucceeded', payload: { engagementId: ENGAGEMENT_ID } },
  { type: 'UPDATE_ENGAGEMENT_FAILED', hostMethod: 'updateEngagementFailed', handler: 'onUpdateEngagementFailed', payload: FAILURE },
  {
    type: 'CALLER_ID_MATCH_SUCCEEDED',
    hostMethod: 'callerIdMatchSucceeded',
    handler: 'onCallerIdMatchSucceeded',
    payload: {
      callerIdMatches: [
        { callerIdType: 'CONTACT', objectCoordinates: COORDINATES, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        { callerIdType: 'COMPANY', objectCoordinates: { portalId: 123, objectId: 77, objectTypeId: '0-2' }, name: 'Analytical Engines' },
      ],
    },
  },
  { type: 'CALLER_ID_MATCH_FAILED', hostMethod: 'callerIdMatchFailed', handler: 'onCallerIdMatchFailed', payload: FAILURE },
  { type: 'NAVIGATE_TO_RECORD_FAILED', hostMethod: 'navigateToRecordFailed', handler: 'onNavigateToRecordFailed', payload: { engagementId: ENGAGEMENT_ID, objectCoordinates: COORDINATES } },
  { type: 'FINALIZE_ENGAGEMENT_SUCCEEDED', hostMethod: 'finalizeEngagementSucceeded', handler: 'onFinalizeEngagementSucceeded', payload: { engagementId: ENGAGEMENT_ID, externalCallId: CALL_ID } },
  { type: 'FINALIZE_ENGAGEMENT_FAILED', hostMethod: 'finalizeEngagementFailed', handler: 'onFinalizeEngagementFailed', payload: FAILURE },
  { type: 'PUBLISH_TO_CHANNEL_SUCCEEDED', hostMethod: 'publishToChannelSucceeded', handler: 'onPublishToChannelSucceeded', payload: { engagementId: ENGAGEMENT_ID, externalCallId: CALL_ID } },
  { type: 'PUBLISH_TO_CHANNEL_FAILED', hostMethod: 'publishToChannelFailed', handler: 'onPublishToChannelFailed', payload: FAILURE },
  { type: 'INITIATE_CALL_ID_SUCCEEDED', hostMethod: 'initiateCallIdSucceeded', handler: 'onInitiateCallIdSucceeded', payload: { callId: 'initiated-1' } },
  { type: 'INITIATE_CALL_ID_FAILED', hostMethod: 'initiateCallIdFailed', handler: 'onInitiateCallIdFailed', payload: FAILURE },
  { type: 'SET_WIDGET_URL_FAILED', hostMethod: 'setWidgetUrlFailed', handler: 'onSetWidgetUrlFailed', payload: { error: { message: 'URL not allowed' } } },
  { type: 'VISIBILITY_CHANGED', hostMethod: 'visibilityChanged', handler: 'onVisibilityChanged', payload: { isMinimized: true, isHidden: false } },
  { type: 'END_CALL', hostMethod: 'endCall', handler: 'onEndCall', payload: undefined },
  { type: 'SET_CALL_STATE', hostMethod: 'setCallState', handler: 'onSetCallState', payload: { callState: 'IN_PROGRESS' } },
  { type: 'FAILED', hostMethod: 'failed', handler: 'onFailed', payload: FAILURE },
]

/** The npm package also calls the literal `FAILED` key for every `*_FAILED` type. */
export const FAILED_KEY = 'FAILED'

/** Every handler name the widget fixtures register (npm spelling). */
export const WIDGET_HANDLER_NAMES: readonly string[] = [
  'onReady',
  ...new Set(HOST_MESSAGES.map((c) => c.handler)),
  FAILED_KEY,
  'defaultEventHandler',
]
