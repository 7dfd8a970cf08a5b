/**
 * Everything a record page shows, loaded in one go through the API: the
 * property definitions, the record with all its properties and
 * associations, pipeline labels (tickets, deals) and the titles of the
 * associated records.
 */
import { OBJECT_TYPES, type ObjectType } from '../lib/crm-types.ts'
import { associatedIds, batchRead, getObject, listPipelines, listProperties, type CrmObject, type PropertyDefinition } from '../lib/crm-api.ts'
import { OBJECT_CONFIG } from './object-config.ts'
import { recordTitle } from '../lib/crm-types.ts'

export interface AssociatedRecord {
  objectType: ObjectType
  id: string
  title: string
}

export interface RecordView {
  objectType: ObjectType
  record: CrmObject
  title: string
  definitions: PropertyDefinition[]
  /** Option labels by property name (enumerations, pipelines and stages). */
  optionLabels: Record<string, Array<{ value: string; label: string }>>
  associated: AssociatedRecord[]
  callIds: string[]
}

const PIPELINE_PROPERTIES: Partial<Record<ObjectType, { pipeline: string; stage: string }>> = {
  tickets: { pipeline: 'hs_pipeline', stage: 'hs_pipeline_stage' },
  deals: { pipeline: 'pipeline', stage: 'dealstage' },
}

/** Property option labels, with pipelines and stages filled in from the pipelines API. */
export async function optionLabelsFor(objectType: ObjectType, definitions: PropertyDefinition[]): Promise<RecordView['optionLabels']> {
  const labels: RecordView['optionLabels'] = {}
  for (const d of definitions) if (d.options && d.options.length > 0) labels[d.name] = d.options
  const names = PIPELINE_PROPERTIES[objectType]
  if (names && (objectType === 'tickets' || objectType === 'deals')) {
    const pipelines = await listPipelines(objectType)
    labels[names.pipeline] = pipelines.map((p) => ({ value: p.id, label: p.label }))
    labels[names.stage] = pipelines.flatMap((p) => p.stages.map((s) => ({ value: s.id, label: pipelines.length > 1 ? `${s.label} (${p.label})` : s.label })))
  }
  return labels
}

export async function loadRecordView(objectType: ObjectType, id: string): Promise<RecordView> {
  const definitions = await listProperties(objectType)
  const others = OBJECT_TYPES.filter((t) => t !== objectType)
  const record = await getObject(objectType, id, {
    properties: definitions.map((d) => d.name),
    associations: [...others, 'calls', 'notes'],
  })
  const optionLabels = await optionLabelsFor(objectType, definitions)
  const associated: AssociatedRecord[] = []
  for (const type of others) {
    const ids = associatedIds(record, type)
    if (ids.length === 0) continue
    const rows = await batchRead(type, ids, OBJECT_CONFIG[type].titleProperties)
    for (const row of rows) associated.push({ objectType: type, id: row.id, title: recordTitle(type, row) })
  }
  return {
    objectType,
    record,
    title: recordTitle(objectType, record),
    definitions,
    optionLabels,
    associated,
    callIds: associatedIds(record, 'calls'),
  }
}

/** Phone properties of the record that hold a number, in definition order. */
export function phoneNumbersOf(view: RecordView): Array<{ property: string; label: string; number: string }> {
  const phoneDefs = view.definitions.filter((d) => d.type === 'phone_number' || d.fieldType === 'phonenumber')
  const candidates =
    phoneDefs.length > 0
      ? phoneDefs.map((d) => ({ property: d.name, label: d.label }))
      : OBJECT_CONFIG[view.objectType].phoneFallback.map((name) => ({ property: name, label: name }))
  const numbers: Array<{ property: string; label: string; number: string }> = []
  for (const c of candidates) {
    const value = view.record.properties[c.property]
    if (typeof value === 'string' && value.trim() !== '') numbers.push({ ...c, number: value.trim() })
  }
  return numbers
}

/** Option labels of a type's properties (for lists, which do not load whole records). */
export async function loadOptionLabels(objectType: ObjectType): Promise<RecordView['optionLabels']> {
  return optionLabelsFor(objectType, await listProperties(objectType))
}
