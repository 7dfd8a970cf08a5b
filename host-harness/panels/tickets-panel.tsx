/**
 * Tickets through the API: create (subject, pipeline, stage, priority),
 * change stage, pin an activity (one of the ticket's associated calls),
 * delete (to the recycle bin), and restore from the recycle bin.
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { api } from '../lib/api-client.ts'
import { hrefs } from '../lib/hash-routes.ts'
import { associatedIds, batchRead, objectsPath, type CrmObject, type ListResponse } from '../lib/crm-api.ts'
import { formatDateTime, humanizeEnum } from '../lib/format.ts'
import { listPipelines, type Pipeline } from '../lib/crm-api.ts'
import { useApiData } from '../lib/use-api-data.ts'
import { CALL_PROPERTIES, callHeading, callTime } from '../lib/call-summary.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'

export const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const
const TICKET_PROPERTIES = ['subject', 'hs_pipeline', 'hs_pipeline_stage', 'hs_ticket_priority', 'hs_pinned_engagement_id', 'createdate']
const TICKETS = objectsPath('tickets')

/** The emulator's restore route (the real API restores only through its UI). */
export const restorePath = (id: string) => `${TICKETS}/${encodeURIComponent(id)}/restore`

interface TicketsData {
  pipelines: Pipeline[]
  tickets: CrmObject[]
  calls: Map<string, CrmObject>
  archived: CrmObject[]
}

async function loadTickets(): Promise<TicketsData> {
  const [pipelines, live, archived] = await Promise.all([
    listPipelines('tickets'),
    api.get<ListResponse>(TICKETS, { query: { limit: 100, properties: TICKET_PROPERTIES.join(','), associations: 'calls' } }),
    api.get<ListResponse>(TICKETS, { query: { limit: 100, properties: TICKET_PROPERTIES.join(','), archived: 'true' } }),
  ])
  const callIds = live.results.flatMap((t) => associatedIds(t, 'calls'))
  const calls = callIds.length > 0 ? await batchRead('calls', callIds, CALL_PROPERTIES) : []
  return { pipelines, tickets: live.results, calls: new Map(calls.map((c) => [c.id, c])), archived: archived.results }
}

function stageLabel(pipelines: Pipeline[], pipelineId: string | null | undefined, stageId: string | null | undefined): string {
  const pipeline = pipelines.find((p) => p.id === pipelineId) ?? pipelines[0]
  return pipeline?.stages.find((s) => s.id === stageId)?.label ?? stageId ?? '—'
}

export function TicketsPanel() {
  const { state } = useApiData(loadTickets, [])
  const [error, setError] = useState<unknown>(undefined)
  const [message, setMessage] = useState('')
  const data = state.data

  /** Run a write; true if it succeeded (the error is shown otherwise). */
  const run = async (label: string, action: () => Promise<unknown>): Promise<boolean> => {
    setError(undefined)
    setMessage('')
    try {
      await action()
      setMessage(label)
      return true
    } catch (e) {
      setError(e)
      return false
    }
  }

  return (
    <section className="panel" aria-labelledby="tickets-panel-heading">
      <h1 id="tickets-panel-heading">Tickets</h1>
      {state.status === 'error' && <ApiErrorView error={state.error} title="Could not load tickets" />}
      {data && <CreateTicketForm pipelines={data.pipelines} onCreate={(body) => run('Ticket created.', () => api.post(TICKETS, body))} />}
      {message && (
        <p role="status" className="success">
          {message}
        </p>
      )}
      <ApiErrorView error={error} />
      <section className="card" aria-labelledby="ticket-list-heading">
        <h2 id="ticket-list-heading">Open and closed tickets</h2>
        <table className="record-table" aria-label="Tickets">
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Stage</th>
              <th scope="col">Priority</th>
              <th scope="col">Pinned activity</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.tickets.map((ticket) => (
              <TicketRow key={ticket.id} ticket={ticket} data={data} run={run} />
            ))}
            {data && data.tickets.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No tickets.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
      <section className="card" aria-labelledby="recycle-bin-heading">
        <h2 id="recycle-bin-heading">Recycle bin</h2>
        {data && data.archived.length === 0 ? (
          <p className="muted">The recycle bin is empty.</p>
        ) : (
          <ul className="recycle-bin" aria-label="Deleted tickets">
            {data?.archived.map((ticket) => (
              <li key={ticket.id}>
                <span>{ticket.properties.subject ?? `Ticket ${ticket.id}`}</span>
                {ticket.archivedAt && <span className="muted"> deleted {formatDateTime(ticket.archivedAt)}</span>}{' '}
                <button
                  type="button"
                  aria-label={`Restore ${ticket.properties.subject ?? `ticket ${ticket.id}`}`}
                  onClick={() => void run('Ticket restored.', () => api.post(restorePath(ticket.id)))}
                >
                  Restore
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  )
}

function CreateTicketForm({ pipelines, onCreate }: { pipelines: Pipeline[]; onCreate(body: unknown): Promise<boolean> }) {
  const [subject, setSubject] = useState('')
  const [pipelineId, setPipelineId] = useState(pipelines[0]?.id ?? '')
  const pipeline = pipelines.find((p) => p.id === pipelineId)
  const [stageId, setStageId] = useState(pipeline?.stages[0]?.id ?? '')
  const [priority, setPriority] = useState<string>('MEDIUM')
  const ids = useId()

  // A different pipeline has different stages: start at its first one.
  useEffect(() => {
    const stages = pipelines.find((p) => p.id === pipelineId)?.stages ?? []
    if (!stages.some((s) => s.id === stageId)) setStageId(stages[0]?.id ?? '')
  }, [pipelineId, pipelines, stageId])

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const properties: Record<string, string> = { subject, hs_pipeline: pipelineId, hs_pipeline_stage: stageId, hs_ticket_priority: priority }
    void onCreate({ properties }).then((ok) => ok && setSubject(''))
  }

  return (
    <form className="card form-grid" onSubmit={onSubmit} aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>New ticket</h2>
      <label>
        Subject
        <input value={subject} onChange={(e) => setSubject(e.target.value)} />
      </label>
      <label>
        Pipeline
        <select value={pipelineId} onChange={(e) => setPipelineId(e.target.value)}>
          {pipelines.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Stage
        <select value={stageId} onChange={(e) => setStageId(e.target.value)}>
          {pipeline?.stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Priority
        <select value={priority} onChange={(e) => setPriority(e.target.value)}>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {humanizeEnum(p)}
            </option>
          ))}
        </select>
      </label>
      <div className="button-row">
        <button type="submit">Create ticket</button>
      </div>
    </form>
  )
}

function TicketRow({ ticket, data, run }: { ticket: CrmObject; data: TicketsData; run(label: string, action: () => Promise<unknown>): Promise<boolean> }) {
  const p = ticket.properties
  const subject = p.subject ?? `Ticket ${ticket.id}`
  const pipeline = data.pipelines.find((x) => x.id === p.hs_pipeline) ?? data.pipelines[0]
  const callIds = associatedIds(ticket, 'calls')
  const patch = (properties: Record<string, string>) => api.patch(`${TICKETS}/${ticket.id}`, { properties })
  const callLabel = (id: string) => {
    const call = data.calls.get(id)
    return call ? `${callHeading(call)} · ${formatDateTime(callTime(call))}` : `Activity ${id}`
  }

  return (
    <tr>
      <td>
        <a href={hrefs.record('tickets', ticket.id)}>{subject}</a>
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`stage-${ticket.id}`}>
          Stage of {subject}
        </label>
        <select
          id={`stage-${ticket.id}`}
          value={p.hs_pipeline_stage ?? ''}
          onChange={(e) => void run(`Stage of “${subject}” changed to ${stageLabel(data.pipelines, p.hs_pipeline, e.target.value)}.`, () => patch({ hs_pipeline_stage: e.target.value }))}
        >
          {pipeline?.stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </td>
      <td>{p.hs_ticket_priority ? humanizeEnum(p.hs_ticket_priority) : '—'}</td>
      <td>
        {callIds.length === 0 ? (
          <span className="muted">No associated calls</span>
        ) : (
          <>
            <label className="visually-hidden" htmlFor={`pin-${ticket.id}`}>
              Pinned activity of {subject}
            </label>
            <select
              id={`pin-${ticket.id}`}
              value={p.hs_pinned_engagement_id ?? ''}
              onChange={(e) => void run(`Pinned activity of “${subject}” updated.`, () => patch({ hs_pinned_engagement_id: e.target.value }))}
            >
              <option value="">Nothing pinned</option>
              {callIds.map((id) => (
                <option key={id} value={id}>
                  {callLabel(id)}
                </option>
              ))}
            </select>
          </>
        )}
      </td>
      <td>
        <button
          type="button"
          className="danger"
          aria-label={`Delete ${subject}`}
          onClick={() => void run(`“${subject}” moved to the recycle bin.`, () => api.delete(`${TICKETS}/${ticket.id}`))}
        >
          Delete
        </button>
      </td>
    </tr>
  )
}
