/**
 * A record's activity, as its record page shows it: on tickets the pinned
 * activity first, then the timeline (calls, notes and apps' events).
 */
import { associatedIds, type CrmObject } from '../lib/crm-api.ts'
import type { ObjectType } from '../lib/crm-types.ts'
import { PinnedActivity } from './pinned-activity.tsx'
import { Timeline } from './timeline.tsx'

export function RecordActivity({ objectType, record, callIds }: { objectType: ObjectType; record: CrmObject; callIds: readonly string[] }) {
  return (
    <>
      {objectType === 'tickets' && <PinnedActivity ticket={record} />}
      <Timeline objectType={objectType} objectId={record.id} callIds={callIds} noteIds={associatedIds(record, 'notes')} />
    </>
  )
}
