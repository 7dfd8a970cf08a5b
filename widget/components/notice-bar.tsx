import { CallActor } from '../call-context.ts'

/** The latest message for the user; errors are announced as alerts. */
export function NoticeBar() {
  const notice = CallActor.useSelector((s) => s.context.notice)
  const { send } = CallActor.useActorRef()
  if (!notice) return null
  return (
    <div className={`notice ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" className="link" aria-label="Dismiss message" onClick={() => send({ type: 'notice.dismiss' })}>
        ×
      </button>
    </div>
  )
}
