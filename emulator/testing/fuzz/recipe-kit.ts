/**
 * What every recipe of the route fuzz shares: the fixture (the live service),
 * the dice drawn by fast-check, and helpers that build credentials, bodies and
 * valid property values, or find records that exist at that moment.
 */
import { ACCOUNT } from '../../core/http/auth.ts'
import { ASSOCIATION_TYPES } from '../../../shared/crm/association-types.ts'
import type { BuiltinObjectType, ObjectType } from '../../core/objects/object-types.ts'
import { DEFAULT_PIPELINES } from '../../core/objects/pipelines.ts'
import { propertyDefinitions, type PropertyDefinition } from '../../core/objects/properties.ts'
import type { CrmService } from '../../core/service.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'
import { toRequest, type RequestSpec } from './hostile.ts'

export interface Fixture {
  service: CrmService
  /** An OAuth access token with every scope. */
  oauthToken: string
}

/** A redirect URL a fresh account has registered. */
export const REDIRECT_URI = EXAMPLE_BACKEND_REDIRECT_URL

/** Draws from fast-check numbers: `pick(list)` and `int(n)` consume them in turn. */
export class Dice {
  #values: number[]
  #i = 0
  constructor(values: number[]) {
    this.#values = values
  }
  int(n: number): number {
    const v = this.#values[this.#i++ % this.#values.length] ?? 0
    return n <= 0 ? 0 : v % n
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)] as T
  }
}

export type Recipe = (fx: Fixture, dice: Dice) => Promise<RequestSpec | undefined>

export const json = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' })
export const form = (value: Record<string, string>) => ({ text: new URLSearchParams(value).toString(), type: 'application/x-www-form-urlencoded' })
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
export const PAT = bearer(ACCOUNT.privateAppToken)
export const DEV: Array<[string, string]> = [['hapikey', ACCOUNT.developerApiKey]]

export async function send(fx: Fixture, spec: RequestSpec): Promise<any> {
  const response = await fx.service.handle(toRequest(spec))
  const text = await response.text()
  return text ? JSON.parse(text) : undefined
}

/** Live (or archived) record ids of a type, at this moment. */
export function liveIds(fx: Fixture, type: ObjectType, archived = false): string[] {
  return [...fx.service.objects.records(type, archived)].map((r) => r.id)
}

let counter = 0
/** A name no earlier recipe used (fuzz runs share one service per route). */
export const fresh = (prefix: string) => `${prefix}${(counter++).toString(36)}`

/** A value the property accepts. */
export function validValue(fx: Fixture, type: ObjectType, def: PropertyDefinition, dice: Dice): unknown {
  switch (def.name) {
    case 'email':
      return `${fresh('fuzz')}@fuzz.example`
    case 'hs_pipeline':
    case 'pipeline':
    case 'hs_pipeline_stage':
    case 'dealstage':
    case 'hs_pinned_engagement_id':
      return undefined // set together by pipelineValues; pins need an association first
    case 'hubspot_owner_id':
      return '1'
    case 'hs_call_recording_url':
      return dice.pick(['https://rec.example/1.mp3', 'https://127.0.0.1/r.wav'])
  }
  switch (def.type) {
    case 'enumeration':
      return def.options.length > 0 ? dice.pick(def.options).value : fresh('opt')
    case 'number':
      return dice.pick([dice.int(1e9), String(dice.int(1000)), '3.25'])
    case 'datetime':
    case 'date':
      return dice.pick(['2026-01-01T10:00:00Z', 1_767_225_600_000 + dice.int(1e9), '2024-02-29'])
    case 'bool':
      return dice.pick([true, false, 'true'])
    case 'phone_number':
      return `+1 617 555 01${String(dice.int(100)).padStart(2, '0')}`
    default:
      return dice.pick(['Fuzz value', 'Ünïcødé ✓', '<b>not html</b>', fresh('v')])
  }
}

/** A valid pipeline and stage of the type, or nothing. */
export function pipelineValues(fx: Fixture, type: ObjectType, dice: Dice): Record<string, string> {
  if (type !== 'tickets' && type !== 'deals') return {}
  const pipelines = DEFAULT_PIPELINES.filter((p) => p.objectType === type)
  const live = pipelines.map((p) => fx.service.objects.pipeline(type, p.id)).filter((p) => p !== undefined)
  const pipeline = live[0]
  if (!pipeline) return {}
  const stage = dice.pick(pipeline.stages.filter((s) => !s.archived))
  return type === 'tickets' ? { hs_pipeline: pipeline.id, hs_pipeline_stage: stage.id } : { pipeline: pipeline.id, dealstage: stage.id }
}

/** Valid properties of a type; `create` adds what a create requires. */
export function validProperties(fx: Fixture, type: ObjectType, dice: Dice, create: boolean): Record<string, unknown> {
  const writable = propertyDefinitions(type).filter((d) => !d.modificationMetadata.readOnlyValue)
  const out: Record<string, unknown> = {}
  for (let i = 0, n = 1 + dice.int(4); i < n; i++) {
    const def = dice.pick(writable)
    const value = validValue(fx, type, def, dice)
    if (value !== undefined) out[def.name] = value
  }
  if (create && type === 'tickets') Object.assign(out, { subject: 'Fuzz ticket' }, pipelineValues(fx, type, dice))
  else if (dice.int(3) === 0) Object.assign(out, pipelineValues(fx, type, dice))
  if (type === 'contacts' && create) out.email = `${fresh('c')}@fuzz.example`
  return out
}

/** A live record of the type (made through the API when there is none). */
export async function someRecord(fx: Fixture, type: ObjectType, dice: Dice): Promise<string> {
  const ids = liveIds(fx, type)
  if (ids.length > 0) return dice.pick(ids)
  const made = await send(fx, { method: 'POST', path: `/crm/v3/objects/${type}`, headers: PAT, body: json({ properties: validProperties(fx, type, dice, true) }) })
  return made.id
}

/** An association type from `type` (and its target type), if the type has any. */
export function someAssociation(type: BuiltinObjectType, dice: Dice) {
  const types = ASSOCIATION_TYPES.filter((t) => t.from === type)
  return types.length > 0 ? dice.pick(types) : undefined
}

/** An association type from `type`, the CRM's own or a custom object schema's. */
export function someLink(fx: Fixture, type: ObjectType, dice: Dice) {
  const types = [...ASSOCIATION_TYPES.filter((t) => t.from === type), ...fx.service.objects.customTypes.associationTypesFrom(type)]
  return types.length > 0 ? dice.pick(types) : undefined
}
