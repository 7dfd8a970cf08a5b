/**
 * The leniency rules: what the real CRM accepts beyond the SDK's TypeScript types, each
 * with its evidence (LENIENCY_RULES, tabled in shared/protocol/README.md), and the
 * normalisers that apply them to a widget message's data (NORMALIZE, used by
 * judgeWidgetMessage in judgement.ts). Where the evidence is thin, the rule keeps a
 * working widget working and says so.
 */
import { isRecord } from '../crm/guards.ts'
import { callEndStatus, type FromWidgetType } from './catalogue.ts'

export type Severity = 'error' | 'warning'

export type LeniencyRule =
  | 'engagement-by-call-id'
  | 'current-call'
  | 'call-id-missing'
  | 'numeric-string'
  | 'property-null-or-empty'
  | 'property-not-string'
  | 'timestamp-missing'
  | 'to-number-missing'
  | 'unknown-end-status'

export interface LeniencyRuleInfo {
  /** Which messages and fields it covers. */
  readonly applies: string
  /** What the host does (as the real CRM does). */
  readonly host: string
  /** Why we believe the real CRM does so. */
  readonly evidence: string
  /** Severity of the finding it raises. */
  readonly severity: Severity
}

/** The SDK's public repository (its source, demos, issues and pull requests are the evidence). */
export const SDK_REPO = 'https://github.com/HubSpot/calling-extensions-sdk'
const DEMO_REPO = SDK_REPO

export const LENIENCY_RULES: Readonly<Record<LeniencyRule, LeniencyRuleInfo>> = {
  'engagement-by-call-id': {
    applies: 'CALL_ENDED, CALL_COMPLETED, FINALIZE_ENGAGEMENT, PUBLISH_TO_CHANNEL without a usable engagementId (missing, null, 0 or "")',
    host: "Finds the call's engagement by externalCallId (the engagement the host created for that call).",
    evidence:
      `Both vendor demos call callEnded({ callEndStatus }) without engagementId (${DEMO_REPO}: demos/demo-minimal-js/index.js endCall, ` +
      'demos/demo-react-ts CallingScreen/DialingScreen/IncomingScreen); demo-react-ts keeps engagementId null until CREATE_ENGAGEMENT_SUCCEEDED and ' +
      'demo-minimal-js starts it at 0, and both send it as is. The SDK posts the payload unchanged (src/CallingExtensions.ts sendMessage), ' +
      'and the CRM logs the demos\' calls.',
    severity: 'warning',
  },
  'current-call': {
    applies: 'CALL_ANSWERED, CALL_ENDED, CALL_TRANSFERRED, CALL_COMPLETED without externalCallId, or without any data',
    host: 'Applies the event to the current call (the last one the widget started and has not completed).',
    evidence:
      `demo-minimal-js answers END_CALL with cti.callEnded() and no payload at all (${DEMO_REPO}: demos/demo-minimal-js/index.js onEndCall). ` +
      'Thin evidence beyond that: the widget has one call at a time, so the current call is the one it means.',
    severity: 'warning',
  },
  'call-id-missing': {
    applies: 'OUTGOING_CALL_STARTED, INCOMING_CALL without externalCallId (the shape of SDK 0.6 and older)',
    host:
      'Logs the call as for any other: tracks it under a call id of its own (made from the messageId, never written to the CRM as ' +
      'hs_call_external_id), creates the engagement when createEngagement is true, and applies the later call events that name no call to it.',
    evidence:
      `externalCallId is not in any SDK release's outgoingCall or incomingCall before 0.7.0: the READMEs to 0.2.x document outgoingCall({ phoneNumber, ` +
      `createEngagement }), and the vendor's demo sent outgoingCall/incomingCall({ createEngagement, toNumber, fromNumber }) until 0.7.0 added ` +
      `externalCallId to it (${DEMO_REPO}: demos/demo-minimal-js/index.js at v0.6.0 and v0.7.0, pull request #222). The CRM created the ` +
      'engagement "on receiving the outgoing_call event" (pull request #27) and its README asked integrations for outgoingCall({ createEngagement: true }) ' +
      '(pull request #48); it logged those calls ' +
      '(README 0.2.x: callCompleted "will insert the engagement into the timeline"); no release note or docs page says it stopped accepting them.',
    severity: 'warning',
  },
  'numeric-string': {
    applies: 'engagementId, callStartTime, objectCoordinates.objectId/portalId sent as a string of digits where the type says number',
    host: 'Reads the digits as the number.',
    evidence:
      "The SDK's own type for CALL_COMPLETED is engagementId?: number | string (src/types.ts OnCallCompleted), so the host parses ids " +
      'from strings; the CRM API takes every id as a string. Thin for the other fields: coercing keeps a widget working that stringified an id.',
    severity: 'warning',
  },
  'property-null-or-empty': {
    applies: 'CALL_COMPLETED engagementProperties values null or ""',
    host: 'Passes them to the engagements API, which clears the property (an unrecorded call simply has no recording URL).',
    evidence:
      `demo-react-ts sends hs_call_recording_url: isCallRecorded ? RECORDING_URL : null (${DEMO_REPO}: demos/demo-react-ts/src/components/screens/CallEndedScreen.tsx); ` +
      'the CRM objects API clears a property whose new value is "" (https://developers.hubspot.com/docs/api/crm/understanding-the-crm); ' +
      "Ringside's API treats null the same. Thin for null: refusing the whole update would lose the notes the user typed.",
    severity: 'warning',
  },
  'property-not-string': {
    applies: 'CALL_COMPLETED engagementProperties values that are numbers or booleans (other than hs_timestamp)',
    host: 'Passes them to the engagements API, which stores their text (e.g. hs_call_duration 5000 → "5000").',
    evidence:
      'RawEngagementProperties types every property but hs_timestamp as string (src/types.ts); the CRM objects API accepts numbers and booleans ' +
      'for property values and returns them as strings.',
    severity: 'warning',
  },
  'timestamp-missing': {
    applies: 'CALL_COMPLETED engagementProperties without hs_timestamp',
    host: "Keeps the engagement's own hs_timestamp (set when the call started).",
    evidence:
      'RawEngagementProperties marks hs_timestamp required (src/types.ts), yet demo-react-ts and demo-minimal-js send engagementProperties ' +
      'without it (CallEndedScreen.tsx onSaveCall; index.js completeCall).',
    severity: 'warning',
  },
  'to-number-missing': {
    applies: 'INCOMING_CALL without toNumber (the number the caller dialled, i.e. the user\'s own line)',
    host: 'Matches the caller by fromNumber, answers CALLER_ID_MATCH_*, and creates the engagement without hs_call_to_number.',
    evidence:
      'The calling SDK docs list fromNumber as the "Required parameter" of incomingCall and toNumber without that mark ' +
      '(https://developers.hubspot.com/docs/api-reference/crm-calling-extensions-v3/calling-sdk, incomingCall); the caller-ID match ' +
      'the CRM answers with (onCallerIdMatchSucceeded/Failed) is of the caller, and hs_call_to_number is an optional property of the calls API. ' +
      'OnIncomingCall types toNumber as required (src/types.ts), hence the warning; both demos send it.',
    severity: 'warning',
  },
  'unknown-end-status': {
    applies: 'CALL_ENDED callEndStatus that is not one of the EndStatus values',
    host: 'Ignores the field and ends the call as if none were sent (COMPLETED once answered, else CANCELED).',
    evidence:
      'The CRM only records the hs_call_status values it knows (the calls API refuses others). Thin evidence on what the CRM does with the ' +
      'rest of the message; ending the call keeps the timeline from showing it in progress forever.',
    severity: 'error',
  },
}

export type Data = Record<string, unknown>
/** Records a deviation; `note.changed()` marks a normalisation that needs no finding (the type allows it). */
export type Note = ((severity: Severity, path: string, message: string, rule?: LeniencyRule) => void) & { changed(): void }

export { isRecord }

/** The prefix of the call id the host gives a call started without externalCallId (rule call-id-missing). */
const HOST_CALL_ID = 'ringside-call:'
/** The host's own id for the call that `messageId` started (the same on every replay of the wire). */
export function hostCallId(messageId: unknown): string {
  return `${HOST_CALL_ID}${String(messageId).slice(0, 64)}`
}
/** True for an id the host gave a call itself: the widget never sent it, so the CRM never stores it. */
export function isHostCallId(id: string): boolean {
  return id.startsWith(HOST_CALL_ID)
}
/** Characters of a widget's value quoted in a finding: a value can be megabytes, the sentence stays short. */
const SHOWN_CHARS = 120

/**
 * A value as a finding quotes it: its JSON, cut to SHOWN_CHARS (a long string is cut before it is written, and an
 * object's JSON stops after a few dozen values), copied so the sentence never holds the widget's whole string.
 */
export const show = (v: unknown): string => {
  if (v === undefined) return 'undefined'
  let nodes = 0
  let text: string
  try {
    text =
      JSON.stringify(v, (_key, x: unknown) => {
        nodes += 1
        if (nodes > 50) throw new RangeError('too big to show')
        if (typeof x === 'bigint') return `${x}n`
        return typeof x === 'string' && x.length > SHOWN_CHARS ? `${x.slice(0, SHOWN_CHARS)}…` : x
      }) ?? String(v)
  } catch {
    text = Array.isArray(v) ? `[an array of ${v.length}]` : '{an object}'
  }
  return text.length > SHOWN_CHARS ? (JSON.parse(JSON.stringify(`${text.slice(0, SHOWN_CHARS)}…`)) as string) : text
}
const DIGITS = /^\d{1,15}$/
const END_STATUSES: readonly unknown[] = Object.values(callEndStatus)

/**
 * Normalises `data[key]` as a positive id (`typed`: what the SDK's type allows). Removes it
 * when it names nothing, so the host falls back to externalCallId.
 */
function normalizeEngagementId(data: Data, note: Note, typed: 'number' | 'number|string', required: boolean): void {
  const path = 'data.engagementId'
  if (!Object.prototype.hasOwnProperty.call(data, 'engagementId') || data.engagementId === undefined) {
    // Without externalCallId either, the call is the current one (rule current-call, noted with it).
    const by = data.externalCallId === undefined ? "uses the current call's engagement" : "finds the call's engagement by externalCallId"
    if (required) note('warning', path, `no engagementId: the host ${by}`, 'engagement-by-call-id')
    return
  }
  const value = data.engagementId
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return
  if (typeof value === 'string' && DIGITS.test(value) && Number(value) > 0) {
    data.engagementId = Number(value)
    note.changed()
    if (typed === 'number') note('warning', path, `engagementId ${show(value)} is a string; the type says number (the host reads ${value})`, 'numeric-string')
    return
  }
  delete data.engagementId
  if (value === null || value === 0 || value === '') {
    note('warning', path, `engagementId ${show(value)} names no engagement: the host finds the call's engagement by externalCallId`, 'engagement-by-call-id')
  } else {
    note('error', path, `engagementId ${show(value)} is not an engagement id: the host ignores it and finds the call's engagement by externalCallId`, 'engagement-by-call-id')
  }
}

function normalizeCallRef(data: Data, note: Note): void {
  const id = data.externalCallId
  if (typeof id === 'string' && id !== '') return
  delete data.externalCallId
  const what = id === undefined ? 'no externalCallId, the shape of SDK 0.6 and older (call events carry it from 0.7.0)' : `externalCallId is ${show(id)}`
  note('warning', 'data.externalCallId', `${what}: the host applies this to the current call`, 'current-call')
}

/**
 * OUTGOING_CALL_STARTED / INCOMING_CALL without externalCallId (rule call-id-missing): the host
 * tracks the call under an id of its own, made from the message's messageId.
 */
function normalizeStartedCall(data: Data, note: Note, message: Data): void {
  if (data.externalCallId !== undefined) return
  data.externalCallId = hostCallId(message.messageId)
  note('warning', 'data.externalCallId', 'no externalCallId, the shape of SDK 0.6 and older (outgoingCall and incomingCall take it from 0.7.0): the host logs the call under an id of its own', 'call-id-missing')
}

/** What a call event without data is, by type: the SDK releases whose method sends none. */
const NO_DATA: Partial<Record<FromWidgetType, string>> = {
  CALL_ANSWERED: 'no data, as callAnswered() sends up to SDK 0.5.x (its payload came in 0.6.0)',
  CALL_ENDED: "no data, as SDK 0.0.6's callEnded() sends (the READMEs up to 0.2.x call callEnded() bare)",
}

function normalizeNumber(data: Data, key: string, path: string, note: Note): void {
  const value = data[key]
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) {
    data[key] = Number(value)
    note('warning', path, `${key} ${show(value)} is a string; the type says number (the host reads ${value})`, 'numeric-string')
  }
}

function normalizeProperties(data: Data, note: Note): void {
  const props = data.engagementProperties
  if (props === undefined) return
  if (!isRecord(props)) {
    delete data.engagementProperties
    note(props === null ? 'warning' : 'error', 'data.engagementProperties', `engagementProperties is ${show(props)}, not an object: the host updates no property`)
    return
  }
  for (const [key, value] of Object.entries(props)) {
    const path = `data.engagementProperties.${key}`
    if (value === undefined) {
      // Optional in the SDK's types: sent as undefined, it is missing (never "undefined" in the CRM).
      delete props[key]
      note.changed()
    } else if (value === null) {
      note('warning', path, `${key} is null; the type says string (the engagements API clears the property)`, 'property-null-or-empty')
    } else if ((typeof value === 'number' || typeof value === 'boolean') && key !== 'hs_timestamp') {
      note('warning', path, `${key} is the ${typeof value} ${show(value)}; the type says string (the engagements API stores "${String(value)}")`, 'property-not-string')
    } else if (typeof value === 'object') {
      note('error', path, `${key} is ${Array.isArray(value) ? 'an array' : 'an object'}: the engagements API refuses it, so the update fails`)
    }
  }
  if (!Object.prototype.hasOwnProperty.call(props, 'hs_timestamp')) {
    note('warning', 'data.engagementProperties.hs_timestamp', "no hs_timestamp; the type requires it (the engagement keeps its own timestamp)", 'timestamp-missing')
  }
}

/**
 * Per type: turns the (cloned) data into what the host acts on, noting each change.
 * Returns the data to act on.
 */
export const NORMALIZE: Partial<Record<FromWidgetType, (data: Data | undefined, note: Note, message: Data) => Data | undefined>> = {
  INITIALIZED(data, note) {
    if (data) normalizeEngagementId(data, note, 'number', false)
    return data
  },
  OUTGOING_CALL_STARTED(data, note, message) {
    if (data) normalizeNumber(data, 'callStartTime', 'data.callStartTime', note)
    if (data) normalizeStartedCall(data, note, message)
    return data
  },
  INCOMING_CALL(data, note, message) {
    if (data) normalizeNumber(data, 'callStartTime', 'data.callStartTime', note)
    if (data) normalizeStartedCall(data, note, message)
    if (data && data.toNumber === undefined) {
      note('warning', 'data.toNumber', 'no toNumber; the type requires it (the host matches the caller by fromNumber and logs no hs_call_to_number)', 'to-number-missing')
    }
    return data
  },
  CALL_ANSWERED: (data, note) => callRefOnly(data, note, 'CALL_ANSWERED'),
  CALL_TRANSFERRED: (data, note) => callRefOnly(data, note, 'CALL_TRANSFERRED'),
  CALL_ENDED(data, note) {
    const d = callRefOnly(data, note, 'CALL_ENDED')
    // No data at all: the one finding says so (the SDK releases that send none).
    if (data !== undefined && data !== null) normalizeEngagementId(d, note, 'number', true)
    const status = d.callEndStatus
    if (status !== undefined && !END_STATUSES.includes(status)) {
      delete d.callEndStatus
      note('error', 'data.callEndStatus', `callEndStatus ${show(status)} is not one of ${END_STATUSES.join(', ')}: the host ignores it`, 'unknown-end-status')
    }
    return d
  },
  CALL_COMPLETED(data, note) {
    const d = callRefOnly(data, note, 'CALL_COMPLETED')
    normalizeEngagementId(d, note, 'number|string', false)
    normalizeProperties(d, note)
    return d
  },
  FINALIZE_ENGAGEMENT: finalize,
  PUBLISH_TO_CHANNEL: finalize,
  NAVIGATE_TO_RECORD(data, note) {
    if (data && isRecord(data.objectCoordinates)) {
      normalizeNumber(data.objectCoordinates, 'objectId', 'data.objectCoordinates.objectId', note)
      normalizeNumber(data.objectCoordinates, 'portalId', 'data.objectCoordinates.portalId', note)
    }
    if (data) normalizeEngagementId(data, note, 'number', false)
    return data
  },
}

/**
 * Types whose rules only repair what the SDK's types forbid: a message that passes the
 * strict schema needs no normalising (and no copy; OUTGOING_CALL_STARTED is the hot path).
 */
export const CLEAN_WHEN_VALID: ReadonlySet<FromWidgetType> = new Set(['OUTGOING_CALL_STARTED', 'INCOMING_CALL'])

function callRefOnly(data: Data | undefined, note: Note, type: FromWidgetType): Data {
  if (data === undefined || data === null) {
    note('warning', 'data', `${NO_DATA[type] ?? 'no data'}: the host applies this to the current call`, 'current-call')
    return {}
  }
  normalizeCallRef(data, note)
  return data
}

function finalize(data: Data | undefined, note: Note): Data | undefined {
  if (!data) return data
  normalizeCallRef(data, note)
  normalizeEngagementId(data, note, 'number', true)
  return data
}
