/**
 * Compact calling status for the app header: handshake, login, availability.
 */
import { useCalling } from '../core/calling-store.ts'

export function handshakeLabel(status: string, cause: string | null): string {
  switch (status) {
    case 'ready':
      return 'ready'
    case 'syncing':
      return 'syncing'
    case 'failed':
      return `failed${cause ? ` (${cause})` : ''}`
    default:
      return 'not loaded'
  }
}

export function CallingStatusBadge() {
  const status = useCalling((s) => s.status)
  const cause = useCalling((s) => s.failureCause)
  const loggedIn = useCalling((s) => s.loggedIn)
  const available = useCalling((s) => s.available)
  const isReady = useCalling((s) => s.effective?.isReady ?? true)
  const tone = status === 'ready' ? 'ok' : status === 'failed' ? 'bad' : 'wait'
  return (
    <span className="calling-badge" role="group" aria-label="Calling status">
      <span className={`calling-badge__item calling-badge__item--${tone}`}>
        <span className="calling-badge__dot" aria-hidden="true" />
        Widget {handshakeLabel(status, cause)}
      </span>
      {status === 'ready' ? (
        <>
          <span className={`calling-badge__item calling-badge__item--${loggedIn ? 'ok' : 'bad'}`}>{loggedIn ? 'Logged in' : 'Logged out'}</span>
          {available !== null ? (
            <span className={`calling-badge__item calling-badge__item--${available ? 'ok' : 'wait'}`}>{available ? 'Available' : 'Unavailable'}</span>
          ) : null}
        </>
      ) : null}
      {!isReady ? <span className="calling-badge__item calling-badge__item--testing">testing</span> : null}
    </span>
  )
}
