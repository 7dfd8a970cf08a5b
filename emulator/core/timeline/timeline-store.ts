/**
 * Timeline data and rules: event templates with their tokens, events, and the
 * visitor tokens (utk) tied to contacts. Routes call this; it calls the
 * ObjectStore for the records events land on.
 *
 * Every write method checks everything first and then writes, so a failed
 * call changes nothing even inside a batch (where the request's transaction
 * is shared by all items): an event touches the CRM records with at most one
 * ObjectStore call (itself all-or-nothing) before its own rows, which cannot
 * fail.
 */
import { z } from 'zod'
import type { Database, Json, Table } from '../data/db.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { OBJECT_TYPES, parseObjectType } from '../objects/object-types.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { utf8Bytes } from '../http/http.ts'
import { renderFailure, renderTemplate } from './render.ts'
import { compileTemplate } from './template-compile.ts'
import { TemplateError } from './template-rules.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import {
  LIMITS,
  parseOr400,
  tokenInputSchema,
  type EventInput,
  type TemplateCreate,
  type TemplateUpdate,
  type TimelineIFrame,
  type TokenInput,
  type TokenType,
  type TokenUpdate,
} from './schemas.ts'
import { urlField } from '../http/url-field.ts'

/** Object types a template can target in the real API. */
export const TIMELINE_OBJECT_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const
export type TimelineObjectType = (typeof TIMELINE_OBJECT_TYPES)[number]

/** Where an event's token values are written (ValueWithTimestamp.sourceType). */
const SOURCE_TYPE = 'INTEGRATION'

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

const templateRow = z.object({
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

const eventRow = z.object({
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

const utkRow = z.object({ utk: z.string(), contactId: z.string(), tiedAt: z.number() })
export type UtkRow = z.infer<typeof utkRow>

/** Row key of an event: template ids are digits, so the first ':' separates. */
const eventKey = (templateId: string, eventId: string) => `${templateId}:${eventId}`

// ---------------------------------------------------------------------------
// Response shapes of the real timeline API

const iso = (ms: number) => new Date(ms).toISOString()

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

// ---------------------------------------------------------------------------
// Checks

/** 400 INVALID_TEMPLATE with the parser's message when a template cannot be used. */
export function checkTemplateSyntax(source: string | undefined | null, field: string): void {
  if (source === undefined || source === null) return
  try {
    compileTemplate(source)
  } catch (error) {
    if (error instanceof TemplateError) throw validationError(`${field} is not a valid template: ${error.message}`, { subCategory: 'INVALID_TEMPLATE' })
    throw error
  }
}

function parseTemplateObjectType(input: string | undefined): TimelineObjectType {
  if (input === undefined) return 'contacts'
  const type = parseObjectType(input)
  if (!type || !(TIMELINE_OBJECT_TYPES as readonly string[]).includes(type)) {
    throw validationError(`objectType '${input}' is not supported; use one of ${TIMELINE_OBJECT_TYPES.join(', ')} (or CONTACT, COMPANY, DEAL, TICKET).`)
  }
  return type as TimelineObjectType
}

function checkOptions(type: TokenType, options: TokenInput['options'], where: string): TokenRow['options'] {
  if (type !== 'enumeration') {
    if (options !== undefined && options.length > 0) throw validationError(`${where}: options are only used with type enumeration.`)
    return undefined
  }
  if (options === undefined || options.length === 0) throw validationError(`${where}: a token of type enumeration needs at least one option.`)
  const seen = new Set<string>()
  for (const option of options) {
    if (seen.has(option.value)) throw validationError(`${where}: option value '${option.value}' appears twice.`)
    seen.add(option.value)
  }
  return options.map((o) => ({ value: o.value, label: o.label }))
}

function newToken(input: TokenInput, now: number, where: string): TokenRow {
  const options = checkOptions(input.type, input.options, where)
  return {
    name: input.name,
    label: input.label,
    type: input.type,
    ...(options && { options }),
    ...(input.objectPropertyName !== undefined && { objectPropertyName: input.objectPropertyName }),
    createdAt: now,
    updatedAt: now,
  }
}

/** Parse a template's tokens[]: each valid, names unique (409), at most 500. */
function parseTokenList(raw: readonly unknown[], now: number, previous: readonly TokenRow[] = []): TokenRow[] {
  if (raw.length > LIMITS.tokensPerTemplate) {
    throw validationError(`A template can have at most ${LIMITS.tokensPerTemplate} tokens; got ${raw.length}.`, { subCategory: 'TOO_MANY_TOKENS' })
  }
  const tokens: TokenRow[] = []
  const names = new Set<string>()
  raw.forEach((item, index) => {
    const input = parseOr400(tokenInputSchema, item, `tokens[${index}]`)
    if (names.has(input.name)) throw conflict(`tokens[${index}]: a token named '${input.name}' is already defined in this template.`)
    names.add(input.name)
    const token = newToken(input, now, `tokens[${index}]`)
    const before = previous.find((t) => t.name === token.name)
    tokens.push(before ? { ...token, createdAt: before.createdAt } : token)
  })
  return tokens
}

/**
 * One token value of an event, checked against its definition; returns the
 * stored string.
 */
function checkTokenValue(def: TokenRow, raw: string | number | boolean): string {
  const where = `Token '${def.name}'`
  if (typeof raw === 'boolean') throw validationError(`${where} must be a string or a number, got a boolean.`)
  if (typeof raw === 'number' && !Number.isFinite(raw)) throw validationError(`${where} must be a finite number.`)
  const text = String(raw)
  const bytes = utf8Bytes(text)
  if (bytes > LIMITS.valueBytes) {
    throw validationError(`${where} is ${bytes} bytes; a token value can be at most ${LIMITS.valueBytes} bytes (510 KB).`, { subCategory: 'VALUE_TOO_LARGE' })
  }
  switch (def.type) {
    case 'number':
      if (!/^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) || !Number.isFinite(Number(text))) {
        throw validationError(`${where} is of type number; '${truncate(text)}' is not a number.`)
      }
      return text.trim()
    case 'date': {
      const trimmed = text.trim()
      if (!/^-?\d+$/.test(trimmed) || Math.abs(Number(trimmed)) > 8.64e15) {
        throw validationError(`${where} is of type date; send Unix time in milliseconds as an integer, got '${truncate(text)}'.`)
      }
      return String(Number(trimmed))
    }
    case 'enumeration': {
      const values = (def.options ?? []).map((o) => o.value)
      if (!values.includes(text)) {
        throw validationError(`${where} must be one of [${values.join(', ')}]; got '${truncate(text)}'.`, { subCategory: 'INVALID_OPTION' })
      }
      return text
    }
    case 'string':
      return text
  }
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

function parseTimestamp(raw: string | number | undefined, now: number): number {
  if (raw === undefined) return now
  const ms = parseInstant(raw)
  if (ms === undefined) {
    const shown = typeof raw === 'number' ? String(raw) : `'${truncate(raw)}'`
    throw validationError(`timestamp must be an ISO 8601 string or integer epoch milliseconds; got ${shown}.`)
  }
  return ms
}

/** `{{uuid}}` in a client-chosen id is replaced by a fresh UUID. */
function expandEventId(id: string | undefined): string {
  if (id === undefined) return crypto.randomUUID()
  return id.replace(/\{\{\s*uuid\s*\}\}/g, () => crypto.randomUUID())
}

// ---------------------------------------------------------------------------
// The store

/** What an event will do, decided before anything is written. */
interface EventPlan {
  row: EventRow
  /** The one ObjectStore write, if any. */
  write?: { kind: 'create'; properties: Record<string, string> } | { kind: 'update'; id: string; properties: Record<string, string> }
  /** Tie this utk to the event's contact once it is known. */
  tieUtk?: string
}

export interface RenderedEvent {
  header: string
  detail: string
}

export class TimelineStore {
  readonly #db: Database
  readonly #objects: ObjectStore
  readonly #templates: Table<TemplateRow>
  readonly #events: Table<EventRow>
  readonly #utks: Table<UtkRow>

  constructor(db: Database, objects: ObjectStore) {
    this.#db = db
    this.#objects = objects
    this.#templates = db.table('timeline_templates', templateRow)
    this.#events = db.table('timeline_events', eventRow)
    this.#utks = db.table('timeline_utks', utkRow)
  }

  // ----------------------------------------------------------- templates

  /** Live templates of an app, in creation order. */
  templates(appId: number): TemplateRow[] {
    return [...this.#templates.values()].filter((t) => t.appId === appId && t.deletedAt === null)
  }

  /** A live template of the app, or 404. */
  template(appId: number, id: string): TemplateRow {
    const template = this.#templates.get(id)
    if (!template || template.appId !== appId) throw notFound(`Event template ${id} does not exist for app ${appId}.`)
    if (template.deletedAt !== null) throw notFound(`Event template ${id} was deleted.`)
    return template
  }

  createTemplate(appId: number, input: TemplateCreate, now: number): TemplateRow {
    if (this.templates(appId).length >= LIMITS.templatesPerApp) {
      throw validationError(`An app can have at most ${LIMITS.templatesPerApp} event templates; delete one first.`, { subCategory: 'TOO_MANY_TEMPLATES' })
    }
    const objectType = parseTemplateObjectType(input.objectType)
    checkTemplateSyntax(input.headerTemplate, 'headerTemplate')
    checkTemplateSyntax(input.detailTemplate, 'detailTemplate')
    const tokens = parseTokenList(input.tokens ?? [], now)
    const id = String(this.#db.nextId('timeline_templates', 1_000_001))
    const template: TemplateRow = {
      id,
      appId,
      name: input.name,
      objectType,
      ...(input.headerTemplate !== undefined && { headerTemplate: input.headerTemplate }),
      ...(input.detailTemplate !== undefined && { detailTemplate: input.detailTemplate }),
      tokens,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    }
    this.#templates.set(id, template)
    return template
  }

  /**
   * PUT: name is required; headerTemplate/detailTemplate are replaced when
   * present (null clears one) and kept when absent; tokens, when present,
   * replace the whole list. objectType and id cannot change.
   */
  updateTemplate(appId: number, id: string, input: TemplateUpdate, now: number): TemplateRow {
    const current = this.template(appId, id)
    if (input.id !== undefined && String(input.id) !== id) throw validationError(`The body's id '${input.id}' does not match the path's template id '${id}'.`)
    if (input.objectType !== undefined && parseTemplateObjectType(input.objectType) !== current.objectType) {
      throw validationError(`objectType cannot be changed (this template is for ${current.objectType}).`)
    }
    checkTemplateSyntax(input.headerTemplate, 'headerTemplate')
    checkTemplateSyntax(input.detailTemplate, 'detailTemplate')
    const tokens = input.tokens === undefined ? current.tokens : parseTokenList(input.tokens, now, current.tokens)
    const next: TemplateRow = { ...current, name: input.name, tokens, updatedAt: now }
    for (const field of ['headerTemplate', 'detailTemplate'] as const) {
      const value = input[field]
      if (value === null) delete next[field]
      else if (value !== undefined) next[field] = value
    }
    this.#templates.set(id, next)
    return next
  }

  /** As in the real API, the template's events are removed and no new ones can be created. */
  deleteTemplate(appId: number, id: string, now: number): void {
    const template = this.template(appId, id)
    this.#templates.set(id, { ...template, deletedAt: now })
    const prefix = `${id}:`
    for (const [key] of [...this.#events.entries()]) if (key.startsWith(prefix)) this.#events.delete(key)
  }

  // -------------------------------------------------------------- tokens

  addToken(appId: number, templateId: string, input: TokenInput, now: number): TokenRow {
    const template = this.template(appId, templateId)
    if (template.tokens.some((t) => t.name === input.name)) {
      throw conflict(`A token named '${input.name}' already exists in event template ${templateId}.`)
    }
    if (template.tokens.length >= LIMITS.tokensPerTemplate) {
      throw validationError(`A template can have at most ${LIMITS.tokensPerTemplate} tokens; event template ${templateId} has ${template.tokens.length}.`, {
        subCategory: 'TOO_MANY_TOKENS',
      })
    }
    const token = newToken(input, now, `Token '${input.name}'`)
    this.#templates.set(templateId, { ...template, tokens: [...template.tokens, token], updatedAt: now })
    return token
  }

  /** label, options and objectPropertyName can change; name and type cannot. */
  updateToken(appId: number, templateId: string, name: string, input: TokenUpdate, now: number): TokenRow {
    const template = this.template(appId, templateId)
    const current = template.tokens.find((t) => t.name === name)
    if (!current) throw notFound(`Event template ${templateId} has no token named '${name}'.`)
    if (input.name !== undefined && input.name !== name) throw validationError(`A token's name cannot be changed ('${name}' → '${input.name}').`)
    if (input.type !== undefined && input.type !== current.type) throw validationError(`A token's type cannot be changed ('${current.type}' → '${input.type}').`)
    const options = input.options === undefined ? current.options : checkOptions(current.type, input.options, `Token '${name}'`)
    const next: TokenRow = { ...current, label: input.label, updatedAt: now }
    if (options) next.options = options
    if (input.objectPropertyName === null) delete next.objectPropertyName
    else if (input.objectPropertyName !== undefined) next.objectPropertyName = input.objectPropertyName
    this.#templates.set(templateId, { ...template, tokens: template.tokens.map((t) => (t.name === name ? next : t)), updatedAt: now })
    return next
  }

  /** The token leaves the template; existing events keep their values. */
  deleteToken(appId: number, templateId: string, name: string, now: number): void {
    const template = this.template(appId, templateId)
    if (!template.tokens.some((t) => t.name === name)) throw notFound(`Event template ${templateId} has no token named '${name}'.`)
    this.#templates.set(templateId, { ...template, tokens: template.tokens.filter((t) => t.name !== name), updatedAt: now })
  }

  // -------------------------------------------------------------- events

  /** Create one event (all checks first; see the module comment). */
  createEvent(appId: number, input: EventInput, raw: unknown, now: number): EventRow {
    const plan = this.#plan(appId, input, raw, now)
    let objectId = plan.row.objectId
    if (plan.write?.kind === 'create') {
      objectId = this.#objects.create('contacts', plan.write.properties, now, SOURCE_TYPE).id
    } else if (plan.write?.kind === 'update') {
      this.#objects.setProperties(plan.row.objectType, plan.write.id, plan.write.properties, now, SOURCE_TYPE)
    }
    const row: EventRow = { ...plan.row, objectId }
    this.#events.set(eventKey(row.eventTemplateId, row.id), row)
    if (plan.tieUtk !== undefined && objectId !== null) this.#tie(plan.tieUtk, objectId, now)
    return row
  }

  #plan(appId: number, input: EventInput, raw: unknown, now: number): EventPlan {
    const size = utf8Bytes(JSON.stringify(raw))
    if (size > LIMITS.eventBytes) {
      throw validationError(`The event is ${size} bytes serialized; an event can be at most ${LIMITS.eventBytes} bytes (1 MB).`, { subCategory: 'EVENT_TOO_LARGE' })
    }
    const template = this.template(appId, input.eventTemplateId)
    const id = expandEventId(input.id)
    const idBytes = utf8Bytes(id)
    if (idBytes > LIMITS.eventIdBytes) {
      throw validationError(`The event id is ${idBytes} bytes; it can be at most ${LIMITS.eventIdBytes} bytes.`, { subCategory: 'EVENT_ID_TOO_LARGE' })
    }
    if (this.#events.has(eventKey(template.id, id))) {
      throw conflict(`An event with id '${truncate(id)}' already exists for event template ${template.id}.`)
    }

    const given = input.tokens ?? {}
    const defs = new Map(template.tokens.map((t) => [t.name, t]))
    const unknown = Object.keys(given).filter((name) => !defs.has(name))
    if (unknown.length > 0) {
      throw validationError(`Event template ${template.id} has no token${unknown.length > 1 ? 's' : ''} named ${unknown.map((n) => `'${n}'`).join(', ')}.`)
    }
    const missing = template.tokens.filter((t) => !Object.prototype.hasOwnProperty.call(given, t.name)).map((t) => t.name)
    if (missing.length > 0) {
      throw validationError(`The event is missing token${missing.length > 1 ? 's' : ''} required by event template ${template.id}: ${missing.join(', ')}.`, {
        subCategory: 'MISSING_TOKENS',
        context: { missingTokens: missing },
      })
    }
    const tokens: Record<string, string> = {}
    const properties: Record<string, string> = {}
    for (const def of template.tokens) {
      const value = checkTokenValue(def, given[def.name] as string | number | boolean)
      tokens[def.name] = value
      // As in the real API, a mapped property the record type does not have is
      // ignored for the record; the value stays on the event.
      if (def.objectPropertyName !== undefined && this.#objects.hasProperty(template.objectType, def.objectPropertyName)) {
        properties[def.objectPropertyName] = value
      }
    }

    const row: EventRow = {
      id,
      eventTemplateId: template.id,
      objectType: template.objectType,
      objectId: null,
      ...(input.email !== undefined && { email: input.email }),
      ...(input.utk !== undefined && { utk: input.utk }),
      ...(input.domain !== undefined && { domain: input.domain }),
      timestamp: parseTimestamp(input.timestamp, now),
      tokens,
      ...(input.extraData !== undefined && { extraData: input.extraData as Json }),
      ...(input.timelineIFrame !== undefined && { timelineIFrame: input.timelineIFrame as TimelineIFrame }),
      createdAt: now,
    }
    return this.#associate(template, row, input, properties)
  }

  /**
   * Finds an event's record by the real API's rules
   * (https://developers.hubspot.com/docs/api/crm/timeline):
   * 1. A contacts event may send any combination of email, objectId and utk.
   * 2. When several are sent, objectId wins, then utk, then email.
   * 3. email updates the contact with that address, or creates one holding
   *    only the email. A new email sent with the objectId of an existing
   *    contact changes that contact's email.
   * 4. objectId must be the id of an existing contact; it never creates one.
   * 5. A utk alone (an anonymous visitor) creates no contact: the event stays
   *    invisible until a contact is tied to that utk.
   * 6. Company, deal and ticket events need objectId, the record's id.
   */
  #associate(template: TemplateRow, row: EventRow, input: EventInput, properties: Record<string, string>): EventPlan {
    const update = (id: string, props: Record<string, string>): EventPlan['write'] =>
      Object.keys(props).length > 0 ? { kind: 'update', id, properties: props } : undefined
    const upper = OBJECT_TYPES[template.objectType].upper

    if (template.objectType !== 'contacts') {
      // Rule 6.
      if (input.objectId === undefined) {
        throw validationError(`Events of a ${template.objectType} template need objectId (the ${OBJECT_TYPES[template.objectType].singular} id).`)
      }
      if (!this.#objects.get(template.objectType, input.objectId)) throw notFound(`${upper} ${input.objectId} does not exist; objectId never creates a record.`)
      return { row: { ...row, objectId: input.objectId }, write: update(input.objectId, properties) }
    }

    const untiedUtk = input.utk !== undefined && !this.#utks.has(input.utk) ? input.utk : undefined
    // Rule 2: objectId first, then utk, then email.
    if (input.objectId !== undefined) {
      // Rule 4: objectId must name an existing contact.
      const contact = this.#objects.get('contacts', input.objectId)
      if (!contact) throw notFound(`CONTACT ${input.objectId} does not exist; objectId never creates a contact.`)
      // Rule 3 (second sentence): a new email with an objectId changes that contact's email.
      const props = { ...properties }
      if (input.email !== undefined && input.email.trim().toLowerCase() !== contact.properties.email) props.email = input.email
      return { row: { ...row, objectId: contact.id }, write: update(contact.id, props), ...(untiedUtk !== undefined && { tieUtk: untiedUtk }) }
    }
    if (input.utk !== undefined) {
      const tied = this.#utks.get(input.utk)
      if (tied && this.#objects.get('contacts', tied.contactId)) {
        return { row: { ...row, objectId: tied.contactId }, write: update(tied.contactId, properties) }
      }
    }
    if (input.email !== undefined) {
      // Rule 3: update the contact with that email, or create one holding the email.
      const existing = this.#objects.findByProperty('contacts', 'email', input.email)
      if (existing) return { row: { ...row, objectId: existing.id }, write: update(existing.id, properties), ...(untiedUtk !== undefined && { tieUtk: untiedUtk }) }
      return { row, write: { kind: 'create', properties: { ...properties, email: input.email } }, ...(untiedUtk !== undefined && { tieUtk: untiedUtk }) }
    }
    if (input.utk !== undefined) {
      // Rule 5: an anonymous visitor; the event waits, invisible, for the utk to be tied.
      return { row }
    }
    throw validationError('An event of a contacts template needs objectId, utk or email to find its contact.')
  }

  /** A stored event of a live template, or 404. */
  event(templateId: string, eventId: string): EventRow {
    const template = this.#templates.get(templateId)
    if (!template || template.deletedAt !== null) throw notFound(`Event template ${templateId} does not exist.`)
    const event = this.#events.get(eventKey(templateId, eventId))
    if (!event) throw notFound(`Event '${truncate(eventId)}' of event template ${templateId} does not exist.`)
    return event
  }

  /**
   * Render an event with its template as it is now. Whatever goes wrong
   * (a template imported past the checks, data no budget foresaw) shows as a
   * notice in this event alone, so a listing never fails because of one event.
   */
  render(event: EventRow): RenderedEvent {
    const template = this.#templates.get(event.eventTemplateId)
    const input = { tokens: event.tokens, extraData: event.extraData, timestamp: event.timestamp }
    const safely = (source: string | null | undefined, kind: 'header' | 'detail') => {
      try {
        return renderTemplate(source ?? undefined, kind, input)
      } catch (error) {
        return renderFailure(error instanceof Error ? error.message : String(error))
      }
    }
    return { header: safely(template?.headerTemplate, 'header'), detail: safely(template?.detailTemplate, 'detail') }
  }

  templateOf(event: EventRow): TemplateRow | undefined {
    return this.#templates.get(event.eventTemplateId)
  }

  /**
   * Visible events on one record (newest first). A contact also sees the
   * events of every utk tied to it.
   */
  eventsFor(objectType: TimelineObjectType, objectId: string): EventRow[] {
    return this.#sorted((e) => e.objectType === objectType && e.objectId === objectId)
  }

  /** Events still waiting for their utk to be tied to a contact. */
  pendingEvents(utk: string): EventRow[] {
    return this.#sorted((e) => e.objectId === null && e.utk === utk)
  }

  /** Every visible event (newest first). */
  allEvents(): EventRow[] {
    return this.#sorted((e) => e.objectId !== null)
  }

  #sorted(keep: (e: EventRow) => boolean): EventRow[] {
    return [...this.#events.values()].filter(keep).sort((a, b) => b.timestamp - a.timestamp || b.createdAt - a.createdAt)
  }

  // ---------------------------------------------------------------- utks

  utk(utk: string): UtkRow | undefined {
    return this.#utks.get(utk)
  }

  /**
   * Tie a visitor token to a contact (the tracking code's identify call):
   * by contactId, or by email (finding or creating the contact). Pending
   * events of the utk become visible on that contact. 409 if the utk is
   * already tied to another contact.
   */
  identify(utk: string, who: { contactId?: string; email?: string }, now: number): { contactId: string; resolvedEvents: number; created: boolean } {
    let contactId: string
    let created = false
    if (who.contactId !== undefined) {
      if (!this.#objects.get('contacts', who.contactId)) throw notFound(`CONTACT ${who.contactId} does not exist.`)
      contactId = who.contactId
    } else if (who.email !== undefined) {
      const existing = this.#objects.findByProperty('contacts', 'email', who.email)
      const tied = this.#utks.get(utk)
      if (tied && tied.contactId !== existing?.id) throw conflict(`utk '${truncate(utk)}' is already tied to contact ${tied.contactId}.`)
      contactId = existing ? existing.id : this.#objects.create('contacts', { email: who.email }, now, SOURCE_TYPE).id
      created = existing === undefined
    } else {
      throw validationError('Send contactId or email to tie the utk to.')
    }
    const tied = this.#utks.get(utk)
    if (tied && tied.contactId !== contactId) throw conflict(`utk '${truncate(utk)}' is already tied to contact ${tied.contactId}.`)
    const resolvedEvents = tied ? 0 : this.#tie(utk, contactId, now)
    return { contactId, resolvedEvents, created }
  }

  /** Record the tie and attach the utk's pending events; returns how many. */
  #tie(utk: string, contactId: string, now: number): number {
    this.#utks.set(utk, { utk, contactId, tiedAt: now })
    let resolved = 0
    for (const [key, event] of [...this.#events.entries()]) {
      if (event.objectId === null && event.utk === utk && event.objectType === 'contacts') {
        this.#events.set(key, { ...event, objectId: contactId })
        resolved++
      }
    }
    return resolved
  }

  /** Sample token values for a template preview. */
  static sampleTokens(template: TemplateRow, now: number): Record<string, string> {
    const sample: Record<string, string> = {}
    for (const token of template.tokens) {
      sample[token.name] =
        token.type === 'number' ? '42' : token.type === 'date' ? String(now) : token.type === 'enumeration' ? (token.options?.[0]?.value ?? '') : `Sample ${token.label}`
    }
    return sample
  }

  /** Epoch ms of a preview's timestamp (ISO, epoch ms, or now). */
  static previewTimestamp(raw: string | number | undefined, now: number): number {
    return raw === undefined ? now : (parseInstant(raw) ?? now)
  }
}
