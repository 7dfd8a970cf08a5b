/**
 * Event templates with their tokens, per app (the timeline API's
 * event-templates routes), over the timeline tables; the base of
 * TimelineStore (timeline-store.ts). Every write checks everything first.
 */
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import { LIMITS, type TemplateCreate, type TemplateUpdate, type TokenInput, type TokenUpdate } from './schemas.ts'
import { templateRow, eventRow, utkRow, type TokenRow, type TemplateRow, type EventRow, type UtkRow } from './timeline-rows.ts'
import { checkTemplateSyntax, parseTemplateObjectType, checkOptions, newToken, parseTokenList } from './timeline-checks.ts'

/** The timeline tables, and the templates and tokens of every app; TimelineStore adds events and visitor tokens. */
export abstract class TimelineTemplates {
  protected readonly db: Database
  protected readonly objects: ObjectStore
  protected readonly templateTable: Table<TemplateRow>
  protected readonly eventTable: Table<EventRow>
  protected readonly utkTable: Table<UtkRow>

  constructor(db: Database, objects: ObjectStore) {
    this.db = db
    this.objects = objects
    this.templateTable = db.table('timeline_templates', templateRow)
    this.eventTable = db.table('timeline_events', eventRow)
    this.utkTable = db.table('timeline_utks', utkRow)
  }

  // ----------------------------------------------------------- templates

  /** Live templates of an app, in creation order. */
  templates(appId: number): TemplateRow[] {
    return [...this.templateTable.values()].filter((t) => t.appId === appId && t.deletedAt === null)
  }

  /** A live template of the app, or 404. */
  template(appId: number, id: string): TemplateRow {
    const template = this.templateTable.get(id)
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
    const id = String(this.db.nextId('timeline_templates', 1_000_001))
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
    this.templateTable.set(id, template)
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
    this.templateTable.set(id, next)
    return next
  }

  /** As in the real API, the template's events are removed and no new ones can be created. */
  deleteTemplate(appId: number, id: string, now: number): void {
    const template = this.template(appId, id)
    this.templateTable.set(id, { ...template, deletedAt: now })
    const prefix = `${id}:`
    for (const [key] of [...this.eventTable.entries()]) if (key.startsWith(prefix)) this.eventTable.delete(key)
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
    this.templateTable.set(templateId, { ...template, tokens: [...template.tokens, token], updatedAt: now })
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
    this.templateTable.set(templateId, { ...template, tokens: template.tokens.map((t) => (t.name === name ? next : t)), updatedAt: now })
    return next
  }

  /** The token leaves the template; existing events keep their values. */
  deleteToken(appId: number, templateId: string, name: string, now: number): void {
    const template = this.template(appId, templateId)
    if (!template.tokens.some((t) => t.name === name)) throw notFound(`Event template ${templateId} has no token named '${name}'.`)
    this.templateTable.set(templateId, { ...template, tokens: template.tokens.filter((t) => t.name !== name), updatedAt: now })
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
