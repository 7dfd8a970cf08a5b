import { CallActor } from '../call-context.ts'

/** What became of the previous call's log in the CRM. */
export function LastCallLine() {
  const lastCall = CallActor.useSelector((s) => s.context.lastCall)
  if (!lastCall) return null
  const u = lastCall.update
  const text =
    u.status === 'saved'
      ? 'saved in the CRM'
      : u.status === 'pending'
        ? 'waiting for the CRM to save it…'
        : u.status === 'failed'
          ? `the CRM could not save it: ${u.message}`
          : 'not logged (no CRM connected)'
  return (
    <p className={`meta ${u.status === 'failed' ? 'error' : u.status === 'saved' ? 'ok' : ''}`}>
      Last call ({lastCall.title}): {text}
    </p>
  )
}
