/**
 * The timeline's stored rows (templates with their tokens, events, visitor
 * tokens tied to contacts), and the real timeline API's response shapes of
 * them.
 */
import { z } from 'zod'
import { urlField } from '../http/url-field.ts'

/** Object types a template can target in the real API. */
export const TIMELINE_OBJECT_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const
export type TimelineObjectType = (typeof TIMELINE_OBJECT_TYPES)[number]

/** Where an event's token values are written (ValueWithTimestamp.sourceType). */
export const SOURCE_TYPE = 'INTEGRATION'

// ---------------------------------------------------------------------------
// Rows

const optionRow = z.object({ value: z.string(), label: z.string() })
const tokenRow = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(['string', 'number', 'enumeration', 'date']),
  options: z.array(optionRow).optional(),
  objectPropertyName: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
})
export type TokenRow = z.infer<typeof tokenRow>

export const templateRow = z.object({
  id: z.string(),
  appId: z.number().int(),
  name: z.string(),
  objectType: z.enum(TIMELINE_OBJECT_TYPES),
  headerTemplate: z.string().optional(),
  detailTemplate: z.string().optional(),
  tokens: z.array(tokenRow),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Deleted templates are kept as tombstones so their id is never reused and a late event gets a clear 404. */
  deletedAt: z.number().nullable(),
})
export type TemplateRow = z.infer<typeof templateRow>

const iframeRow = z.object({ linkLabel: z.string(), headerLabel: z.string(), url: urlField(), width: z.number(), height: z.number() })

export const eventRow = z.object({
  id: z.string(),
  eventTemplateId: z.string(),
  objectType: z.enum(TIMELINE_OBJECT_TYPES),
  /** null while a utk-only event waits for its visitor to be identified. */
  objectId: z.string().nullable(),
  email: z.string().optional(),
  utk: z.string().optional(),
  domain: z.string().optional(),
  timestamp: z.number(),
  tokens: z.record(z.string(), z.string()),
  extraData: z.json().optional(),
  timelineIFrame: iframeRow.optional(),
  createdAt: z.number(),
})
export type EventRow = z.infer<typeof eventRow>

export const utkRow = z.object({ utk: z.string(), contactId: z.string(), tiedAt: z.number() })
export type UtkRow = z.infer<typeof utkRow>

/** Row key of an event: template ids are digits, so the first ':' separates. */
export const eventKey = (templateId: string, eventId: string) => `${templateId}:${eventId}`

// ---------------------------------------------------------------------------
// Response shapes of the real timeline API

export const iso = (ms: number) => new Date(ms).toISOString()

export function tokenResponse(token: TokenRow) {
  return {
    name: token.name,
    label: token.label,
    type: token.type,
    ...(token.options && { options: token.options }),
    ...(token.objectPropertyName !== undefined && { objectPropertyName: token.objectPropertyName }),
    createdAt: iso(token.createdAt),
    updatedAt: iso(token.updatedAt),
  }
}

export function templateResponse(template: TemplateRow) {
  return {
    id: template.id,
    name: template.name,
    objectType: template.objectType,
    ...(template.headerTemplate !== undefined && { headerTemplate: template.headerTemplate }),
    ...(template.detailTemplate !== undefined && { detailTemplate: template.detailTemplate }),
    tokens: template.tokens.map(tokenResponse),
    createdAt: iso(template.createdAt),
    updatedAt: iso(template.updatedAt),
  }
}

export function eventResponse(event: EventRow) {
  return {
    id: event.id,
    eventTemplateId: event.eventTemplateId,
    objectType: event.objectType,
    ...(event.objectId !== null && { objectId: event.objectId }),
    ...(event.email !== undefined && { email: event.email }),
    ...(event.utk !== undefined && { utk: event.utk }),
    ...(event.domain !== undefined && { domain: event.domain }),
    timestamp: iso(event.timestamp),
    tokens: event.tokens,
    ...(event.extraData !== undefined && { extraData: event.extraData }),
    ...(event.timelineIFrame !== undefined && { timelineIFrame: event.timelineIFrame }),
    createdAt: iso(event.createdAt),
  }
}
