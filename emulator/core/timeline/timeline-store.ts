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
 *
 * Templates and tokens are in timeline-templates.ts (the base class), the
 * rows and response shapes in timeline-rows.ts, the input checks in
 * timeline-checks.ts.
 */
import type { Json } from '../data/table.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { OBJECT_TYPES } from '../objects/object-types.ts'
import { utf8Bytes } from '../http/http.ts'
import { renderFailure, renderTemplate } from './render.ts'
import { LIMITS, type EventInput, type TimelineIFrame } from './schemas.ts'
import { SOURCE_TYPE, eventKey, type TimelineObjectType, type TemplateRow, type EventRow, type UtkRow } from './timeline-rows.ts'
import { checkTokenValue, truncate, parseTimestamp, expandEventId } from './timeline-checks.ts'
import { TimelineTemplates } from './timeline-templates.ts'

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

export class TimelineStore extends TimelineTemplates {
  // -------------------------------------------------------------- events

  /** Create one event (all checks first; see the module comment). */
  createEvent(appId: number, input: EventInput, raw: unknown, now: number): EventRow {
    const plan = this.#plan(appId, input, raw, now)
    let objectId = plan.row.objectId
    if (plan.write?.kind === 'create') {
      objectId = this.objects.create('contacts', plan.write.properties, now, SOURCE_TYPE).id
    } else if (plan.write?.kind === 'update') {
      this.objects.setProperties(plan.row.objectType, plan.write.id, plan.write.properties, now, SOURCE_TYPE)
    }
    const row: EventRow = { ...plan.row, objectId }
    this.eventTable.set(eventKey(row.eventTemplateId, row.id), row)
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
    if (this.eventTable.has(eventKey(template.id, id))) {
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
      if (def.objectPropertyName !== undefined && this.objects.hasProperty(template.objectType, def.objectPropertyName)) {
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
      if (!this.objects.get(template.objectType, input.objectId)) throw notFound(`${upper} ${input.objectId} does not exist; objectId never creates a record.`)
      return { row: { ...row, objectId: input.objectId }, write: update(input.objectId, properties) }
    }

    const untiedUtk = input.utk !== undefined && !this.utkTable.has(input.utk) ? input.utk : undefined
    // Rule 2: objectId first, then utk, then email.
    if (input.objectId !== undefined) {
      // Rule 4: objectId must name an existing contact.
      const contact = this.objects.get('contacts', input.objectId)
      if (!contact) throw notFound(`CONTACT ${input.objectId} does not exist; objectId never creates a contact.`)
      // Rule 3 (second sentence): a new email with an objectId changes that contact's email.
      const props = { ...properties }
      if (input.email !== undefined && input.email.trim().toLowerCase() !== contact.properties.email) props.email = input.email
      return { row: { ...row, objectId: contact.id }, write: update(contact.id, props), ...(untiedUtk !== undefined && { tieUtk: untiedUtk }) }
    }
    if (input.utk !== undefined) {
      const tied = this.utkTable.get(input.utk)
      if (tied && this.objects.get('contacts', tied.contactId)) {
        return { row: { ...row, objectId: tied.contactId }, write: update(tied.contactId, properties) }
      }
    }
    if (input.email !== undefined) {
      // Rule 3: update the contact with that email, or create one holding the email.
      const existing = this.objects.findByProperty('contacts', 'email', input.email)
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
    const template = this.templateTable.get(templateId)
    if (!template || template.deletedAt !== null) throw notFound(`Event template ${templateId} does not exist.`)
    const event = this.eventTable.get(eventKey(templateId, eventId))
    if (!event) throw notFound(`Event '${truncate(eventId)}' of event template ${templateId} does not exist.`)
    return event
  }

  /**
   * Render an event with its template as it is now. Whatever goes wrong
   * (a template imported past the checks, data no budget foresaw) shows as a
   * notice in this event alone, so a listing never fails because of one event.
   */
  render(event: EventRow): RenderedEvent {
    const template = this.templateTable.get(event.eventTemplateId)
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
    return this.templateTable.get(event.eventTemplateId)
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
    return [...this.eventTable.values()].filter(keep).sort((a, b) => b.timestamp - a.timestamp || b.createdAt - a.createdAt)
  }

  // ---------------------------------------------------------------- utks

  utk(utk: string): UtkRow | undefined {
    return this.utkTable.get(utk)
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
      if (!this.objects.get('contacts', who.contactId)) throw notFound(`CONTACT ${who.contactId} does not exist.`)
      contactId = who.contactId
    } else if (who.email !== undefined) {
      const existing = this.objects.findByProperty('contacts', 'email', who.email)
      const tied = this.utkTable.get(utk)
      if (tied && tied.contactId !== existing?.id) throw conflict(`utk '${truncate(utk)}' is already tied to contact ${tied.contactId}.`)
      contactId = existing ? existing.id : this.objects.create('contacts', { email: who.email }, now, SOURCE_TYPE).id
      created = existing === undefined
    } else {
      throw validationError('Send contactId or email to tie the utk to.')
    }
    const tied = this.utkTable.get(utk)
    if (tied && tied.contactId !== contactId) throw conflict(`utk '${truncate(utk)}' is already tied to contact ${tied.contactId}.`)
    const resolvedEvents = tied ? 0 : this.#tie(utk, contactId, now)
    return { contactId, resolvedEvents, created }
  }

  /** Record the tie and attach the utk's pending events; returns how many. */
  #tie(utk: string, contactId: string, now: number): number {
    this.utkTable.set(utk, { utk, contactId, tiedAt: now })
    let resolved = 0
    for (const [key, event] of [...this.eventTable.entries()]) {
      if (event.objectId === null && event.utk === utk && event.objectType === 'contacts') {
        this.eventTable.set(key, { ...event, objectId: contactId })
        resolved++
      }
    }
    return resolved
  }
}
