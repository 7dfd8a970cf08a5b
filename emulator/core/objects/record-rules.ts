/**
 * The rules every write must pass, checked before anything is written (so a
 * write that throws has changed nothing): property values in their stored
 * form, required properties, pipeline and stage, a pinned call, unique
 * values, association types and limits; and the same rules run over every
 * stored record after an import (findIntegrityProblem).
 */
import { conflict, validationError } from '../http/errors.ts'
import { own } from '../http/http.ts'
import type { AnyAssociationType, AssociatedRecord, AssociationInput } from './association-rows.ts'
import { ISO_TIMESTAMP, isoAt, type CrmRecord, type Values } from './crm-record.ts'
import { OBJECT_TYPE_NAMES, isBuiltinType, upperName, type ObjectType } from './object-types.ts'
import { PIPELINE_PROPERTIES, pipelinesOf } from './pipelines.ts'
import type { PropertyProblem } from './property-values.ts'
import { RecordTables } from './record-tables.ts'
import { parseInstant } from '../../../shared/crm/time.ts'

export interface ResolvedAssociation {
  toType: ObjectType
  toId: string
  type: AnyAssociationType
}

/** The VALIDATION_ERROR for bad property values, in the real API's words ("Property values were not valid: [...]"). */
export function propertyValuesError(problems: readonly PropertyProblem[]) {
  const items = problems.map((p) => ({ isValid: false, message: p.message, error: p.error, name: p.name }))
  return validationError(`Property values were not valid: ${JSON.stringify(items)}`, {
    errors: problems.map((p) => ({ message: p.message, code: p.error, context: { propertyName: [p.name] } })),
  })
}

/** The record tables with the checks of every write; ObjectStore adds the writes. */
export abstract class CheckedRecords extends RecordTables {
  /**
   * Check every stored record as if it were written now: a well-formed id
   * and timestamps, every property value valid and in its stored form, the
   * object rules (required properties, pipeline and stage, pinned call), and
   * associations of known types between records that exist. An import runs
   * it after loading a snapshot, so an export edited by hand cannot bring in
   * what the API itself would refuse (`createdAt: "x"`, a stage "99").
   * Returns the first problem found, or undefined.
   */
  findIntegrityProblem(): string | undefined {
    const labelProblem = this.labels.findIntegrityProblem()
    if (labelProblem) return labelProblem
    const isoTime = (text: string | undefined) => text !== undefined && ISO_TIMESTAMP.test(text) && parseInstant(text) !== undefined
    for (const type of [...OBJECT_TYPE_NAMES, ...this.customTypes.liveTypes()]) {
      for (const archived of [false, true]) {
        const table = this.table(type, archived)
        for (const [key, record] of table.entries()) {
          const where = `${table.name} row "${key}"`
          if (record.id !== key) return `${where}: its id is "${record.id}"`
          if (record.archived !== archived) return `${where}: "archived" is ${record.archived} in the ${archived ? 'recycle bin' : 'live table'}`
          const times: Array<['createdAt' | 'updatedAt' | 'archivedAt', string | undefined]> = [
            ['createdAt', record.createdAt],
            ['updatedAt', record.updatedAt],
            ...(archived ? [['archivedAt', record.archivedAt] as ['archivedAt', string | undefined]] : []),
          ]
          for (const [field, value] of times) {
            if (!isoTime(value)) return `${where}: ${field} ${JSON.stringify(value ?? null)} is not an ISO 8601 timestamp`
          }
          for (const [name, value] of Object.entries(record.properties)) {
            const result = this.normalize(type, name, value)
            if (!result.ok) return `${where}: ${result.problem.message}`
            if (result.value !== value) return `${where}: property "${name}" is not in its stored form (${JSON.stringify(result.value)})`
          }
          if (record.properties.hs_object_id !== record.id) return `${where}: hs_object_id must equal the id`
          try {
            this.checkRules(type, record, new Map(Object.entries(record.properties)), [])
          } catch (error) {
            if (error instanceof Error) return `${where}: ${error.message}`
            throw error
          }
        }
      }
    }
    for (const [key, row] of this.associationRows.entries()) {
      const [fromType, fromId] = key.split(':') as [ObjectType, string]
      if (!this.isType(fromType) || (!this.get(fromType, fromId) && !this.getArchived(fromType, fromId))) {
        return `crm_associations row "${key}": no such record`
      }
      for (const [toType, links] of Object.entries(row) as Array<[ObjectType, AssociatedRecord[]]>) {
        for (const link of links) {
          if (!this.get(toType, link.id) && !this.getArchived(toType, link.id)) return `crm_associations row "${key}": ${toType} ${link.id} does not exist`
          for (const typeId of link.typeIds) {
            if (this.associationTypeFrom(fromType, typeId)?.to !== toType) return `crm_associations row "${key}": ${typeId} is not an association type from ${fromType} to ${toType}`
          }
        }
      }
    }
    return undefined
  }

  /** Normalize every value; collect every problem and throw them together. */
  protected checkValues(objectType: ObjectType, input: Readonly<Record<string, unknown>>, current: CrmRecord | undefined): Values {
    const values: Values = new Map()
    const problems: PropertyProblem[] = []
    for (const [name, raw] of Object.entries(input)) {
      const result = this.normalize(objectType, name, raw)
      if (!result.ok) {
        problems.push(result.problem)
        continue
      }
      if (this.definition(objectType, name)?.modificationMetadata.readOnlyValue) {
        // Echoing a read-only value back unchanged is harmless; changing it is not.
        if (result.value !== ((current && own(current.properties, name)) ?? null)) {
          problems.push({ name, error: 'READ_ONLY_VALUE', message: `Property "${name}" is read-only` })
        }
        continue
      }
      values.set(name, result.value)
    }
    if (problems.length > 0) throw propertyValuesError(problems)
    return values
  }

  protected applyDefaults(objectType: ObjectType, values: Values, now: number): void {
    // The pipeline defaults to the type's only pipeline; once there are several, a new record must name one.
    const pp = PIPELINE_PROPERTIES[objectType]
    if ((objectType === 'tickets' || objectType === 'deals') && pp && (values.get(pp.pipeline) ?? null) === null) {
      const needed = objectType === 'tickets' || (values.get(pp.stage) ?? null) !== null
      const live = pipelinesOf(this.db, objectType)
      if (needed && live.length === 1) values.set(pp.pipeline, live[0]!.id)
    }
    if ((objectType === 'calls' || objectType === 'tasks' || objectType === 'notes') && (values.get('hs_timestamp') ?? null) === null) {
      values.set('hs_timestamp', isoAt(now))
    }
  }

  /** Object-level rules: required properties, pipeline/stage, pinned activity. */
  protected checkRules(objectType: ObjectType, current: CrmRecord | undefined, values: Values, links: readonly ResolvedAssociation[]): void {
    const merged = (name: string): string | null => (values.has(name) ? (values.get(name) ?? null) : ((current && own(current.properties, name)) ?? null))

    // Tickets need these; a custom type needs its schema's requiredProperties.
    const required = objectType === 'tickets' ? ['subject', 'hs_pipeline', 'hs_pipeline_stage'] : (this.customTypes.schema(objectType)?.requiredProperties ?? [])
    if (required.length > 0) {
      const missing = required.filter((name) => merged(name) === null)
      if (missing.length > 0) {
        const message = current
          ? `Properties ${missing.join(', ')} of a ${this.customTypes.singularOf(objectType)} cannot be cleared.`
          : `Cannot create object with type: ${upperName(objectType)}. The following required properties were missing: [${missing.join(', ')}]`
        throw validationError(message, {
          errors: missing.map((name) => ({ message: `${name} is required`, code: 'REQUIRED_PROPERTY', context: { propertyName: [name] } })),
        })
      }
    }

    const problems: PropertyProblem[] = []
    const pp = PIPELINE_PROPERTIES[objectType]
    if (pp && (objectType === 'tickets' || objectType === 'deals') && (values.has(pp.pipeline) || values.has(pp.stage))) {
      const pipelineId = merged(pp.pipeline)
      const stageId = merged(pp.stage)
      const pipeline = pipelineId === null ? undefined : this.pipeline(objectType, pipelineId)
      if (pipelineId !== null && !pipeline) {
        problems.push({ name: pp.pipeline, error: 'INVALID_OPTION', message: `${pipelineId} is not a valid pipeline id` })
      } else if (stageId !== null && pipelineId === null) {
        problems.push({ name: pp.pipeline, error: 'REQUIRED_PROPERTY', message: `${pp.stage} needs ${pp.pipeline}` })
      } else if (pipeline && stageId !== null && !pipeline.stages.some((s) => s.id === stageId && !s.archived)) {
        problems.push({
          name: pp.stage,
          error: 'INVALID_OPTION',
          message: `${stageId} is not a valid stage of pipeline ${pipeline.id}; its stages are [${pipeline.stages.map((s) => s.id).join(', ')}]`,
        })
      }
    }

    if (objectType === 'tickets' && values.has('hs_pinned_engagement_id')) {
      const pinned = values.get('hs_pinned_engagement_id') ?? null
      if (pinned !== null) {
        const inSameCreate = links.some((l) => l.toType === 'calls' && l.toId === pinned)
        const alreadyLinked = current !== undefined && this.isAssociated('tickets', current.id, 'calls', pinned)
        if (!this.get('calls', pinned)) {
          problems.push({ name: 'hs_pinned_engagement_id', error: 'INVALID_PINNED_ENGAGEMENT', message: `No call activity with id ${pinned} exists` })
        } else if (!inSameCreate && !alreadyLinked) {
          problems.push({
            name: 'hs_pinned_engagement_id',
            error: 'INVALID_PINNED_ENGAGEMENT',
            message: `Call ${pinned} cannot be pinned: it is not associated with this ticket`,
          })
        }
      }
    }
    if (problems.length > 0) throw propertyValuesError(problems)
  }

  protected checkUnique(objectType: ObjectType, current: CrmRecord | undefined, values: ReadonlyMap<string, string | null>): void {
    // Custom properties created with hasUniqueValue: checked by a scan (only when such a value is written).
    for (const def of this.properties.uniqueCustom(objectType)) {
      const value = values.get(def.name)
      if (value === undefined || value === null) continue
      for (const record of this.table(objectType, false).values()) {
        if (record.id !== current?.id && own(record.properties, def.name) === value) {
          throw conflict(`A ${this.customTypes.singularOf(objectType)} with ${def.name}=${value} already exists. Existing ID: ${record.id}`, {
            context: { [def.name]: [value], existingId: [record.id] },
          })
        }
      }
    }
    for (const [name, index] of this.uniqueIndexes.get(objectType) ?? []) {
      const value = values.get(name)
      if (value === undefined || value === null) continue
      const owner = index.holder(value)
      if (owner !== undefined && owner !== current?.id) {
        throw conflict(`${this.customTypes.singularOf(objectType).replace(/^./, (c) => c.toUpperCase())} already exists. Existing ID: ${owner}`, {
          context: { [name]: [value], existingId: [owner] },
        })
      }
    }
  }

  protected associationType(fromType: ObjectType, toType: ObjectType, typeId: number): AnyAssociationType {
    const type = this.associationTypeFrom(fromType, typeId)
    if (!type || type.to !== toType) {
      throw validationError(
        `Association type id ${typeId} is not a valid association from ${fromType} to ${toType}. See GET /crm/v4/associations/${fromType}/${toType}/labels.`,
      )
    }
    return type
  }

  /**
   * The limits set on `type` (from `fromType`) and its inverse hold once
   * `fromId` is linked to `toId` (undefined: a record being created).
   */
  protected checkLimit(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string | undefined, type: AnyAssociationType): void {
    const over = (aType: ObjectType, aId: string, bType: ObjectType, bId: string | undefined, typeId: number) => {
      const max = isBuiltinType(aType) ? this.labels.limitOf(aType, typeId) : undefined
      if (max === undefined) return
      const linked = this.associations(aType, aId, bType).filter((a) => a.typeIds.includes(typeId) && a.id !== bId).length
      if (linked + 1 > max) {
        throw validationError(
          `${upperName(aType)} ${aId} already has ${linked} ${bType} associated through association type ${typeId}, the limit configured for it (${max}).`,
          { context: { fromObjectId: [aId], associationTypeId: [String(typeId)], limit: [String(max)] } },
        )
      }
    }
    over(fromType, fromId, toType, toId, type.typeId)
    if (toId !== undefined) over(toType, toId, fromType, fromId, type.inverseTypeId)
  }

  protected resolveAssociations(fromType: ObjectType, inputs: readonly AssociationInput[]): ResolvedAssociation[] {
    const resolved: ResolvedAssociation[] = []
    for (const [index, input] of inputs.entries()) {
      if (input.types.length === 0) throw validationError(`associations[${index}].types must name at least one association type.`)
      for (const spec of input.types) {
        const type = this.associationTypeFrom(fromType, spec.associationTypeId)
        if (!type || spec.associationCategory !== type.category) {
          throw validationError(
            `associations[${index}]: ${spec.associationCategory} association type ${spec.associationTypeId} does not exist for ${fromType}.`,
          )
        }
        if (!this.get(type.to, input.to.id)) {
          throw validationError(`associations[${index}]: ${upperName(type.to)} ${input.to.id} does not exist.`)
        }
        resolved.push({ toType: type.to, toId: input.to.id, type })
      }
    }
    return resolved
  }
}
