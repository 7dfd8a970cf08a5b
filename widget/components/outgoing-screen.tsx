import { CallActor } from '../call-context.ts'
import { EngagementLine } from './engagement-line.tsx'
import { PartyLine } from './party-line.tsx'

export function OutgoingScreen() {
  const call = CallActor.useSelector((s) => s.context.call)
  const { send } = CallActor.useActorRef()
  if (!call) return null
  return (
    <section className="screen" aria-label="Outgoing call">
      <PartyLine call={call} />
      <EngagementLine call={call} />
      <button type="button" className="danger" onClick={() => send({ type: 'call.hangUp' })}>
        Hang up
      </button>
    </section>
  )
}
