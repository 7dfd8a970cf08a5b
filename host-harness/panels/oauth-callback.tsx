/**
 * The OAuth redirect target: checks `state`, exchanges the code at
 * /oauth/v1/token, stores the tokens, then shows the OAuth panel with the
 * query removed from the address (a code is single-use).
 */
import { useEffect, useState } from 'react'
import { hrefs, OAUTH_CALLBACK_MARKER, replaceLocation } from '../lib/hash-routes.ts'
import { useHarnessStore } from '../lib/harness-store.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { exchangeCode } from './oauth-flow.ts'

/** Codes already sent to the token endpoint in this page (React may run effects twice). */
const handledCodes = new Set<string>()

type Outcome = { kind: 'working' } | { kind: 'denied'; description: string } | { kind: 'refused'; reason: string } | { kind: 'failed'; error: unknown }

/** The address without the callback's query parameters, showing the OAuth panel. */
function panelUrl(): string {
  const query = new URLSearchParams(window.location.search)
  for (const key of [OAUTH_CALLBACK_MARKER, 'code', 'state', 'error', 'error_description']) query.delete(key)
  const search = query.toString()
  return `${window.location.pathname}${search ? `?${search}` : ''}${hrefs.developer('oauth')}`
}

export function OAuthCallback({ params }: { params: URLSearchParams }) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' })
  const code = params.get('code')
  const state = params.get('state')
  const error = params.get('error')

  useEffect(() => {
    if (error !== null) {
      setOutcome({ kind: 'denied', description: params.get('error_description') ?? error })
      useHarnessStore.getState().setPendingOAuthState(null)
      return
    }
    if (code === null || code === '') {
      setOutcome({ kind: 'refused', reason: 'The callback carries no authorization code.' })
      return
    }
    const expected = useHarnessStore.getState().pendingOAuthState
    if (expected === null || state !== expected) {
      setOutcome({
        kind: 'refused',
        reason:
          'The state parameter does not match the one this harness sent to the consent page, so the code was not exchanged (this is how an app defends against login CSRF). Connect again from the OAuth panel.',
      })
      return
    }
    if (handledCodes.has(code)) return
    handledCodes.add(code)
    exchangeCode(code).then(
      () => {
        useHarnessStore.getState().setPendingOAuthState(null)
        replaceLocation(panelUrl())
      },
      (e: unknown) => setOutcome({ kind: 'failed', error: e }),
    )
  }, [code, state, error, params])

  return (
    <section className="panel" aria-labelledby="oauth-callback-heading">
      <h1 id="oauth-callback-heading">Connecting the app</h1>
      {outcome.kind === 'working' && <p role="status">Exchanging the authorization code for tokens…</p>}
      {outcome.kind === 'denied' && <p role="alert">The app was not connected: {outcome.description}</p>}
      {outcome.kind === 'refused' && <p role="alert">{outcome.reason}</p>}
      {outcome.kind === 'failed' && <ApiErrorView error={outcome.error} title="The token exchange failed" />}
      {outcome.kind !== 'working' && (
        <button type="button" onClick={() => replaceLocation(panelUrl())}>
          Back to the OAuth panel
        </button>
      )}
    </section>
  )
}
