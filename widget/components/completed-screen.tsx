import { CallActor } from '../call-context.ts'
import { callTitle } from '../call-record.ts'

/** callCompleted sent: waiting briefly for the CRM's confirmation. */
export function CompletedScreen() {
  const call = CallActor.useSelector((s) => s.context.call)
  const { send } = CallActor.useActorRef()
  return (
    <section className="screen" aria-labelledby="completed-title">
      <h1 id="completed-title">Call finished</h1>
      {call && <p className="meta">{callTitle(call)}</p>}
      <p className="meta">{call?.announced ? 'The call log was sent to the CRM.' : 'No CRM connected: nothing was logged.'}</p>
      <button type="button" onClick={() => send({ type: 'call.dismiss' })}>
        Back to dial pad
      </button>
    </section>
  )
}
