import { render, screen } from '@testing-library/react'
import { OAuthCallback } from './oauth-callback.tsx'
import { callApi, installTestCrm } from '../lib/test-crm.ts'
import { resetHarnessStore, useHarnessStore } from '../lib/harness-store.ts'
import { redirectUri } from './oauth-flow.ts'
import type { CrmService } from '../../emulator/core/service.ts'

let service: CrmService

beforeEach(() => {
  service = installTestCrm()
  resetHarnessStore()
  window.history.replaceState(null, '', '/')
})

/** A real authorization code for the harness's redirect URI (as the consent page would get). */
async function issueCode(state: string): Promise<string> {
  const decision = await callApi<{ code: string }>(service, 'POST', '/_ringside/v1/oauth/authorize', {
    body: { client_id: 'local-client', redirect_uri: redirectUri(), scope: 'oauth timeline', state, decision: 'grant' },
  })
  return decision.code
}

test('a callback with the state the harness sent exchanges the code, stores the tokens and leaves the callback address', async () => {
  useHarnessStore.getState().setPendingOAuthState('s-123')
  const code = await issueCode('s-123')
  window.history.replaceState(null, '', `/?oauth_callback=1&code=${code}&state=s-123`)
  render(<OAuthCallback params={new URLSearchParams(window.location.search)} />)
  await vi.waitFor(() => expect(useHarnessStore.getState().oauth).not.toBeNull())
  const stored = useHarnessStore.getState().oauth!
  expect(stored.accessToken).toMatch(/^CN/)
  expect(stored.scopes).toEqual(['oauth', 'timeline'])
  expect(stored.expiresAt - stored.obtainedAt).toBe(1800 * 1000)
  expect(useHarnessStore.getState().pendingOAuthState).toBeNull()
  await vi.waitFor(() => expect(window.location.search).toBe(''))
  expect(window.location.hash).toBe('#/developer/oauth')
})

test('a callback whose state does not match is refused and the code is not exchanged', async () => {
  useHarnessStore.getState().setPendingOAuthState('expected')
  const code = await issueCode('forged')
  render(<OAuthCallback params={new URLSearchParams({ oauth_callback: '1', code, state: 'forged' })} />)
  expect(await screen.findByRole('alert')).toHaveTextContent('state parameter does not match')
  expect(useHarnessStore.getState().oauth).toBeNull()
  // The code is still unused: exchanging it now works.
  const tokens = await callApi<{ access_token: string }>(service, 'POST', '/oauth/v1/token', {
    form: { grant_type: 'authorization_code', client_id: 'local-client', client_secret: 'local-secret', redirect_uri: redirectUri(), code },
  })
  expect(tokens.access_token).toMatch(/^CN/)
})

test('a denied consent says so', async () => {
  render(<OAuthCallback params={new URLSearchParams({ oauth_callback: '1', error: 'access_denied', error_description: 'The user denied the authorization request.' })} />)
  expect(await screen.findByRole('alert')).toHaveTextContent('The app was not connected: The user denied the authorization request.')
})

test('a code the token endpoint refuses shows the API error', async () => {
  useHarnessStore.getState().setPendingOAuthState('s-9')
  render(<OAuthCallback params={new URLSearchParams({ oauth_callback: '1', code: 'not-a-code', state: 's-9' })} />)
  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('The token exchange failed')
  expect(alert).toHaveTextContent('missing or unknown auth code')
  expect(alert).toHaveTextContent('VALIDATION_ERROR')
})
