import type { FormEvent } from 'react'
import { CallActor } from '../call-context.ts'
import { durationMs, formatDuration } from '../call-record.ts'
import { CALL_OUTCOMES, isCallOutcomeKey } from '../../shared/crm/call-outcomes.ts'
import { END_STATUS_LABELS } from '../call-status.ts'
import { EngagementLine } from './engagement-line.tsx'
import { PartyLine } from './party-line.tsx'

/** Ended: notes and disposition, then Save (callCompleted). */
export function WrapUpScreen() {
  const call = CallActor.useSelector((s) => s.context.call)
  const { send } = CallActor.useActorRef()
  if (!call) return null
  const save = (e: FormEvent) => {
    e.preventDefault()
    send({ type: 'wrapUp.save' })
  }
  return (
    <section className="screen" aria-labelledby="wrap-up-title">
      <h1 id="wrap-up-title">Wrap-up</h1>
      <PartyLine call={call} />
      <p className="meta">
        {END_STATUS_LABELS[call.endStatus ?? 'COMPLETED']} · {formatDuration(durationMs(call))}
        {call.transferredTo ? ` · transferred to ${call.transferredTo}` : ''}
      </p>
      <EngagementLine call={call} />
      <form className="wrap-up" onSubmit={save}>
        <label htmlFor="wrap-notes">Notes</label>
        <textarea id="wrap-notes" rows={4} value={call.notes} onChange={(e) => send({ type: 'wrapUp.notes', notes: e.target.value })} />
        <label htmlFor="wrap-disposition">Disposition</label>
        <select
          id="wrap-disposition"
          value={call.disposition}
          onChange={(e) => {
            const value = e.target.value
            send({ type: 'wrapUp.disposition', disposition: isCallOutcomeKey(value) ? value : '' })
          }}
        >
          <option value="">Choose an outcome…</option>
          {CALL_OUTCOMES.map((d) => (
            <option key={d.key} value={d.key}>
              {d.label}
            </option>
          ))}
        </select>
        <button type="submit" className="primary">
          Save
        </button>
      </form>
    </section>
  )
}
