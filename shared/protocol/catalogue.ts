/**
 * The message catalogue of the calling SDK wire protocol: every type, who sends it,
 * which SDK method / handler / host method it maps to. The single source of every
 * message type: the SDK's send methods, the message schemas (envelopes.ts, keyed by
 * this catalogue's types), the validators generated from them and the derived types
 * (types.ts) all come from here.
 *
 * This module is the catalogue's public face: the entries themselves are in
 * entries.ts (plain data, no validator library: both SDK sides import it, and a widget
 * bundle must stay small); validation lives in validate.ts. The modules this one
 * gathers import entries.ts, never this file, so the SDK has no import cycle.
 */

export { SDK_VERSION, CATALOGUE, MessageType, getEntry, entryFrom, deprecationOf } from './entries.ts'
export type { Direction, Side, CatalogueEntry } from './entries.ts'
export { callEndStatus, callStatus, callRingingStatus, callInProgressStatus, callEndingStatus, callerIdTypes, errorType, iframeLocation } from './enums.ts'
export type { EndStatus, CallStatus, CallerIdType, IframeLocation } from './enums.ts'
export type * from './types.ts'
export { validateMessage, checkEnvelope, describeError, issueText, notSdkReason } from './validate.ts'
export type { ValidationResult, EnvelopeCheck, Issue } from './validate.ts'
