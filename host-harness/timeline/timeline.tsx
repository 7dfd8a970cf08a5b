/**
 * A record's activity timeline: its call engagements, its notes and the custom
 * timeline events of apps, newest first, filterable by source. Refreshes after every
 * write made through the API client.
 */
import { useId, useMemo, useState } from 'react'
import type { ObjectType } from '../lib/crm-types.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { batchRead, listProperties, type CrmObject } from '../lib/crm-api.ts'
import { useApiData } from '../lib/use-api-data.ts'
import { useHarnessStore } from '../lib/harness-store.ts'
import { CallEntry } from './call-entry.tsx'
import { CALL_PROPERTIES, callTime } from '../lib/call-summary.ts'
import { CustomEventEntry } from './custom-event-entry.tsx'
import { NOTE_PROPERTIES, NoteEntry, noteTime } from './note-entry.tsx'
import { listRecordEvents, type TimelineEventView } from './events-api.ts'
import './timeline.css'

type Item = { kind: 'call'; time: number; call: CrmObject } | { kind: 'note'; time: number; note: CrmObject } | { kind: 'event'; time: number; event: TimelineEventView }

const toMs = (value: string) => {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value)
  return Number.isNaN(ms) ? 0 : ms
}

function itemKey(item: Item): string {
  if (item.kind === 'call') return `call-${item.call.id}`
  if (item.kind === 'note') return `note-${item.note.id}`
  return `event-${item.event.eventTemplateId}-${item.event.id}`
}

export interface CallsData {
  calls: CrmObject[]
  dispositions: Map<string, string>
}

export async function loadCalls(callIds: readonly string[]): Promise<CallsData> {
  if (callIds.length === 0) return { calls: [], dispositions: new Map() }
  const [calls, definitions] = await Promise.all([batchRead('calls', callIds, CALL_PROPERTIES), listProperties('calls')])
  const dispositionDef = definitions.find((d) => d.name === 'hs_call_disposition')
  return { calls, dispositions: new Map((dispositionDef?.options ?? []).map((o) => [o.value, o.label])) }
}

export function Timeline({
  objectType,
  objectId,
  callIds,
  noteIds = [],
}: {
  objectType: ObjectType
  objectId: string
  callIds: readonly string[]
  noteIds?: readonly string[]
}) {
  const callKey = callIds.join(',')
  const calls = useApiData(() => loadCalls(callIds), [callKey])
  const noteKey = noteIds.join(',')
  const notes = useApiData(() => (noteIds.length === 0 ? Promise.resolve([]) : batchRead('notes', noteIds, NOTE_PROPERTIES)), [noteKey])
  const events = useApiData(() => listRecordEvents(objectType, objectId), [objectType, objectId])
  const fallbackName = useHarnessStore((s) => s.appName)
  const [filter, setFilter] = useState('all')
  const filterId = useId()

  const items = useMemo(() => {
    const list: Item[] = []
    for (const call of calls.state.data?.calls ?? []) list.push({ kind: 'call', time: toMs(callTime(call)), call })
    for (const note of notes.state.data ?? []) list.push({ kind: 'note', time: toMs(noteTime(note)), note })
    for (const event of events.state.data?.events ?? []) list.push({ kind: 'event', time: toMs(event.timestamp), event })
    return list.sort((a, b) => b.time - a.time)
  }, [calls.state.data, notes.state.data, events.state.data])

  const apps = new Map<number, string>()
  for (const e of events.state.data?.events ?? []) if (e.appId !== undefined && !apps.has(e.appId)) apps.set(e.appId, e.appName ?? fallbackName)
  const visible = items.filter((item) => {
    if (filter === 'all') return true
    if (filter === 'calls') return item.kind === 'call'
    if (filter === 'notes') return item.kind === 'note'
    return item.kind === 'event' && `app:${item.event.appId}` === filter
  })
  const loading = calls.state.status === 'loading' || notes.state.status === 'loading' || events.state.status === 'loading'

  return (
    <section className="card timeline" aria-labelledby="timeline-heading" aria-busy={loading}>
      <header className="timeline-header">
        <h2 id="timeline-heading">Activity</h2>
        <label htmlFor={filterId} className="visually-hidden">
          Filter activity
        </label>
        <select id={filterId} value={filter} onChange={(e) => setFilter(e.target.value)}>
          <option value="all">All activity</option>
          <option value="calls">Calls</option>
          <option value="notes">Notes</option>
          {[...apps].map(([id, name]) => (
            <option key={id} value={`app:${id}`}>
              {name}
            </option>
          ))}
        </select>
      </header>
      {calls.state.status === 'error' && <ApiErrorView error={calls.state.error} title="Could not load calls" />}
      {notes.state.status === 'error' && <ApiErrorView error={notes.state.error} title="Could not load notes" />}
      {events.state.status === 'error' && <ApiErrorView error={events.state.error} title="Could not load timeline events" />}
      {(events.state.data?.skipped ?? 0) > 0 && (
        <p className="muted" role="note">
          {events.state.data?.skipped} event(s) could not be shown: unexpected shape.
        </p>
      )}
      {visible.length === 0 && !loading && <p className="muted">No activity yet.</p>}
      <ol className="timeline-list">
        {visible.map((item) => (
          <li key={itemKey(item)}>
            {item.kind === 'call' ? (
              <CallEntry call={item.call} dispositions={calls.state.data?.dispositions} />
            ) : item.kind === 'note' ? (
              <NoteEntry note={item.note} />
            ) : (
              <CustomEventEntry event={item.event} />
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}
