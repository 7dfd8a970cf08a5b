import { CallActor } from '../call-context.ts'
import { statusText } from '../call-status.ts'
import { useNow } from '../use-now.ts'

/** App name, live call status, host connection, availability and logout. */
export function HeaderBar() {
  const snapshot = CallActor.useSelector((s) => s)
  const { send } = CallActor.useActorRef()
  const inCall = snapshot.matches({ signedIn: 'answered' })
  const now = useNow(inCall)
  const { hostReady, available, visibility } = snapshot.context
  const signedIn = snapshot.matches('signedIn')
  const idle = snapshot.matches({ signedIn: 'idle' })
  return (
    <header className="header">
      <div className="header-row">
        <span className="brand">Ringside Phone</span>
        <span className={`host ${hostReady ? 'on' : 'off'}`}>{hostReady ? 'CRM connected' : 'No CRM connected'}</span>
      </div>
      <div className="header-row">
        <p className="status" role="status" aria-label="Call status">
          {statusText(snapshot, now)}
        </p>
        {signedIn && (
          <button
            type="button"
            role="switch"
            aria-checked={available}
            className={`switch ${available ? 'on' : ''}`}
            onClick={() => send({ type: 'presence.setAvailable', available: !available })}
          >
            Available
          </button>
        )}
        {idle && (
          <button type="button" className="link" onClick={() => send({ type: 'auth.logOut' })}>
            Log out
          </button>
        )}
      </div>
      {(visibility.isHidden || visibility.isMinimized) && (
        <p className="meta">The CRM reports this widget as {visibility.isHidden ? 'hidden' : 'minimized'}.</p>
      )}
    </header>
  )
}
