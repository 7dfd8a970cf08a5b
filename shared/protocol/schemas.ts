/**
 * The zod schemas of the wire protocol's payloads, and the leniency schemas the host
 * acts on. envelopes.ts wraps them into one envelope schema per catalogue type.
 *
 * Schemas are loose objects (unknown keys pass through, as the real host and widgets
 * add fields freely) and tolerant where real traffic is (DIAL_NUMBER ids may be 0,
 * `objectType` may be missing, legacy `phone_number`); they are strict where types
 * matter: required fields, finite numbers, enums. Required fields follow the npm
 * package's TypeScript types.
 */
import { z } from './zod-config.ts'
import { callEndStatus, callerIdTypes, errorType, iframeLocation } from './enums.ts'
import { hasPhoneNumber, type Refinement } from './refinements.ts'

/** zod's `.refine` arguments for a rule of refinements.ts. */
export const refineWith = (rule: Refinement): [Refinement['test'], { message: string; path: PropertyKey[] }] => [
  rule.test,
  { message: rule.message, path: [...rule.path] },
]

export const values = <T extends Record<string, string>>(map: T) =>
  Object.values(map) as [T[keyof T], ...T[keyof T][]]

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

/** zod 4 numbers reject NaN and ±Infinity. */
export const num = z.number()
export const id = z.union([num, z.string()])
export const messageIdSchema = z.union([z.string().min(1), num])
export const objectCoordinates = z.looseObject({
  portalId: num,
  objectId: num,
  /** "0-1" contact, "0-2" company; custom objects use other `<n>-<n>` ids. */
  objectTypeId: z.string().regex(/^\d+-\d+$/, 'expected an object type id like "0-1"'),
})
/** Payload of a no-arg message (the sender puts no `data` key). */
export const noData = z.union([z.undefined(), z.null(), z.looseObject({})]).optional()
/** Payload the vendor never specified: an object or nothing. */
export const unspecified = z.union([z.undefined(), z.null(), z.looseObject({})]).optional()
export const errorInfo = z.looseObject({ message: z.string() })
/** Payload of loosely specified *_FAILED / *_SUCCEEDED replies. */
export const replyData = z
  .union([
    z.undefined(),
    z.null(),
    z.looseObject({
      engagementId: id.optional(),
      externalCallId: z.string().optional(),
      error: errorInfo.optional(),
    }),
  ])
  .optional()

export const syncFieldShape = {
  portalId: num.optional(),
  userId: num.optional(),
  ownerId: id.optional(),
  engagementId: num.nullable().optional(),
  iframeLocation: z.enum(values(iframeLocation)).optional(),
  usesCallingWindow: z.boolean().optional(),
}

// ---------------------------------------------------------------------------
// Payload schemas
// ---------------------------------------------------------------------------

export const initializedData = z.looseObject({
  isLoggedIn: z.boolean().optional(),
  isAvailable: z.boolean().optional(),
  engagementId: num.optional(),
  sizeInfo: z.looseObject({ width: num, height: num }).optional(),
  // echoed by the vendor's React demo
  iframeLocation: z.enum(values(iframeLocation)).optional(),
  usesCallingWindow: z.boolean().optional(),
  portalId: num.optional(),
  hostUrl: z.string().optional(),
})

export const outgoingCallData = z.looseObject({
  externalCallId: z.string(),
  fromNumber: z.string().optional(),
  toNumber: z.string().optional(),
  callStartTime: num.optional(),
  createEngagement: z.boolean().optional(),
  /** all properties of the DIAL_NUMBER payload that started the call */
  dialingContext: z.looseObject({}).optional(),
  /** @deprecated use toNumber */
  phoneNumber: z.string().optional(),
})

export const incomingCallData = z.looseObject({
  externalCallId: z.string(),
  fromNumber: z.string(),
  toNumber: z.string(),
  callStartTime: num.optional(),
  createEngagement: z.boolean().optional(),
})

export const externalCallIdData = z.looseObject({ externalCallId: z.string() })

export const callEndedData = z.looseObject({
  externalCallId: z.string(),
  engagementId: num,
  callEndStatus: z.enum(values(callEndStatus)).optional(),
})

export const callCompletedData = z.looseObject({
  externalCallId: z.string(),
  engagementId: id.optional(),
  /** default true */
  hideWidget: z.boolean().optional(),
  /**
   * hs_timestamp, hs_call_body, hs_call_status, hs_call_duration, … Each is optional in the SDK's
   * types, so a property sent as `undefined` (postMessage keeps the key) is a missing one.
   */
  engagementProperties: z.record(z.string(), z.union([z.string(), num, z.undefined()])).optional(),
})

export const navigateToRecordData = z.looseObject({
  objectCoordinates,
  engagementId: num.optional(),
  openIn: z.enum(['CURRENT_TAB', 'NEW_TAB']).optional(),
})

export const finalizeEngagementData = z.looseObject({ externalCallId: z.string(), engagementId: num })

export const errorData = z.union([
  z.looseObject({ message: z.string() }),
  z.looseObject({
    type: z.literal(errorType.UNKNOWN_MESSAGE_TYPE),
    data: z.looseObject({ originalMessage: z.unknown() }),
  }),
])

export const resizeData = z.looseObject({ width: num.nonnegative(), height: num.nonnegative() })

export const readyData = z.looseObject({
  ...syncFieldShape,
  hostUrl: z.string().optional(),
  /** set when the READY follows a SET_WIDGET_URL */
  iFrameUrl: z.string().optional(),
})

export const optionalText = z.string().nullish()
export const dialNumberData = z
  .looseObject({
    phoneNumber: optionalText,
    /** legacy duplicate of phoneNumber */
    phone_number: optionalText,
    countryCode: optionalText,
    calleeInfo: z
      .looseObject({ calleeId: id.optional(), calleeObjectTypeId: z.string().optional() })
      .nullish(),
    ownerId: id.nullish(),
    portalId: num.nullish(),
    /** may be 0 (ticket calls, #228) */
    subjectId: id.nullish(),
    /** may be 0 (#228) */
    objectId: id.nullish(),
    /** may be missing (#228) */
    objectType: optionalText,
    startTimestamp: num.nullish(),
    toPhoneNumberSrc: optionalText,
    threadId: z.unknown().optional(),
  })
  .refine(...refineWith(hasPhoneNumber))

export const engagementIdData = z.looseObject({ engagementId: num })
export const engagementErrorData = z.looseObject({ error: errorInfo })

export const name = z.string().nullish()
export const contactIdMatch = z.looseObject({
  callerIdType: z.literal(callerIdTypes.CONTACT),
  objectCoordinates,
  firstName: name,
  lastName: name,
  email: name,
})
export const companyIdMatch = z.looseObject({
  callerIdType: z.literal(callerIdTypes.COMPANY),
  objectCoordinates,
  name,
})
export const callerIdMatchData = z.looseObject({
  callerIdMatches: z.array(z.discriminatedUnion('callerIdType', [contactIdMatch, companyIdMatch])),
})

export const navigateToRecordFailedData = z
  .looseObject({ engagementId: num.optional(), objectCoordinates: objectCoordinates.optional() })
  .optional()

export const visibilityChangedData = z.looseObject({ isMinimized: z.boolean(), isHidden: z.boolean() })

// ---------------------------------------------------------------------------
// What the host acts on (judgement.ts normalises a message first, then parses it
// with these). Each loosening is a leniency rule of judgement.ts, with its evidence.
// ---------------------------------------------------------------------------

/** A call event that may name its call by externalCallId only, or not at all (the current call). */
export const looseCallRef = { externalCallId: z.string().optional(), engagementId: num.optional() }
export const acceptCallRef = z.looseObject({ externalCallId: z.string().optional() }).nullish()
export const acceptCallEnded = callEndedData.extend(looseCallRef).nullish()
export const acceptCallCompleted = callCompletedData.extend({
  ...looseCallRef,
  hideWidget: z.unknown().optional(),
  /** values go to the engagements API as they are: it judges them (null and "" clear a property) */
  engagementProperties: z.record(z.string(), z.unknown()).optional(),
})
export const acceptFinalize = finalizeEngagementData.extend(looseCallRef)
/** INCOMING_CALL without toNumber (leniency rule to-number-missing): the caller is matched by fromNumber. */
export const acceptIncomingCall = incomingCallData.extend({ toNumber: z.string().optional() })
