import { CallActor } from '../call-context.ts'
import type { ActiveCall } from '../call-record.ts'
import { EngagementLine } from './engagement-line.tsx'
import { PartyLine } from './party-line.tsx'

function CallerId({ call }: { call: ActiveCall }) {
  const c = call.callerId
  if (c.status === 'pending') return <p className="meta">Looking up the caller in the CRM…</p>
  if (c.status === 'unmatched') return <p className="meta">Unknown caller: no CRM record matches this number.</p>
  if (c.status !== 'matched') return null
  if (c.matches.length === 0) return <p className="meta">Unknown caller: no CRM record matches this number.</p>
  return (
    <ul className="matches" aria-label="CRM matches">
      {c.matches.map((m, i) => (
        <li key={i}>
          {m.callerIdType === 'CONTACT' ? (
            <>
              Contact: {`${m.firstName} ${m.lastName}`.trim()}
              {m.email ? ` (${m.email})` : ''}
            </>
          ) : (
            <>Company: {m.name}</>
          )}
        </li>
      ))}
    </ul>
  )
}

export function IncomingScreen() {
  const call = CallActor.useSelector((s) => s.context.call)
  const { send } = CallActor.useActorRef()
  if (!call) return null
  return (
    <section className="screen" aria-label="Incoming call">
      <PartyLine call={call} />
      <CallerId call={call} />
      <EngagementLine call={call} />
      <div className="actions">
        <button type="button" className="primary" onClick={() => send({ type: 'call.answer' })}>
          Answer
        </button>
        <button type="button" className="danger" onClick={() => send({ type: 'call.reject' })}>
          Decline
        </button>
      </div>
    </section>
  )
}
