/**
 * A ticket's pinned activity (hs_pinned_engagement_id), shown above its
 * timeline. The emulator's activities are calls.
 */
import { getObject } from '../lib/crm-api.ts'
import type { CrmObject } from '../lib/crm-api.ts'
import { useApiData } from '../lib/use-api-data.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { CallEntry } from './call-entry.tsx'
import { CALL_PROPERTIES } from '../lib/call-summary.ts'

export function PinnedActivity({ ticket }: { ticket: CrmObject }) {
  const pinnedId = ticket.properties.hs_pinned_engagement_id?.trim() || undefined
  const { state } = useApiData(() => (pinnedId ? getObject('calls', pinnedId, { properties: CALL_PROPERTIES }) : Promise.resolve(undefined)), [pinnedId])
  if (!pinnedId) return null
  return (
    <section className="card pinned-activity" aria-labelledby="pinned-heading">
      <h2 id="pinned-heading">Pinned activity</h2>
      {state.status === 'error' && <ApiErrorView error={state.error} title={`Could not load the pinned activity ${pinnedId}`} />}
      {state.data && <CallEntry call={state.data} pinned />}
    </section>
  )
}
