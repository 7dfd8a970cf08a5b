/**
 * OAuth: connect (install) the app through the consent page, see the tokens
 * the harness holds and the installation state the API reports, refresh the
 * access token, and disconnect (uninstall, which revokes the tokens). The
 * app's redirect URLs are registered here too, as in the app's auth settings
 * in the real CRM: an authorization request may only send the browser to one
 * of them.
 */
import { useState } from 'react'
import { formatDateTime } from '../lib/format.ts'
import { useHarnessStore } from '../lib/harness-store.ts'
import { useApiData } from '../lib/use-api-data.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import {
  beginConnect,
  DEFAULT_SCOPES,
  disconnect,
  loadInstallation,
  loadRedirectUrls,
  redirectUri,
  refreshConnection,
  registerRedirectUrl,
  removeRedirectUrl,
} from './oauth-flow.ts'

const ALL_SCOPES = [...DEFAULT_SCOPES, 'crm.objects.companies.write', 'crm.objects.deals.write', 'crm.schemas.contacts.read']

export function OAuthPanel({ connect = beginConnect }: { connect?: (scopes: readonly string[]) => void }) {
  const { state } = useApiData(loadInstallation, [])
  const oauth = useHarnessStore((s) => s.oauth)
  const clear = useHarnessStore((s) => s.clearOAuthConnection)
  const [scopes, setScopes] = useState<string[]>([...DEFAULT_SCOPES])
  const [error, setError] = useState<unknown>(undefined)
  const [busy, setBusy] = useState(false)
  const [newUrl, setNewUrl] = useState('')
  const redirects = useApiData(loadRedirectUrls, [])
  const installation = state.data

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }

  const toggle = (scope: string, on: boolean) => setScopes((list) => (on ? [...list, scope] : list.filter((s) => s !== scope)))
  const expired = oauth !== null && oauth.expiresAt <= Date.now()

  return (
    <section className="panel" aria-labelledby="oauth-heading">
      <h1 id="oauth-heading">OAuth</h1>
      <p className="muted">
        The harness acts as your app's back end: it sends you to the consent page, receives the code at <code>{redirectUri()}</code> and
        exchanges it at <code>/oauth/v1/token</code>.
      </p>

      <section className="card" aria-labelledby="installation-heading">
        <h2 id="installation-heading">Installation</h2>
        {state.status === 'error' && <ApiErrorView error={state.error} title="Could not read the installation" />}
        {installation && (
          <dl className="facts">
            <div>
              <dt>App</dt>
              <dd>
                {installation.appName} (appId {installation.appId})
              </dd>
            </div>
            <div>
              <dt>State</dt>
              <dd>
                <strong>{installation.installed ? 'Installed' : 'Not installed'}</strong>
                {installation.installed && installation.installedAt && <> since {formatDateTime(installation.installedAt)}</>}
                {!installation.installed && installation.uninstalledAt && <> (uninstalled {formatDateTime(installation.uninstalledAt)})</>}
              </dd>
            </div>
            <div>
              <dt>Granted scopes</dt>
              <dd>{installation.scopes.length > 0 ? installation.scopes.join(' ') : '—'}</dd>
            </div>
            <div>
              <dt>Live access tokens</dt>
              <dd>{installation.accessTokens.length}</dd>
            </div>
          </dl>
        )}
        {installation?.installed && (
          <button type="button" className="danger" disabled={busy} onClick={() => void run(disconnect)}>
            Disconnect (uninstall)
          </button>
        )}
      </section>

      <section className="card" aria-labelledby="connect-heading">
        <h2 id="connect-heading">{installation?.installed ? 'Connect again' : 'Connect the app'}</h2>
        <fieldset className="scope-list">
          <legend>Scopes to request</legend>
          {ALL_SCOPES.map((scope) => (
            <label key={scope} className="checkbox">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
              <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        <button type="button" disabled={busy || scopes.length === 0} onClick={() => connect(scopes)}>
          Connect (open the consent page)
        </button>
      </section>

      <section className="card" aria-labelledby="redirect-urls-heading">
        <h2 id="redirect-urls-heading">Redirect URLs</h2>
        <p className="muted">
          An authorization request's <code>redirect_uri</code> must be exactly one of these, as in the app's auth settings in the real CRM
          (https, or http on <code>localhost</code> only). Ringside's own callback pages on this origin are always accepted.
        </p>
        {redirects.state.status === 'error' && <ApiErrorView error={redirects.state.error} title="Could not read the redirect URLs" />}
        {redirects.state.data && (
          <>
            <ul className="redirect-urls" aria-label="Registered redirect URLs">
              {redirects.state.data.redirectUrls.map((url) => (
                <li key={url}>
                  <code>{url}</code>{' '}
                  <button type="button" disabled={busy} aria-label={`Remove ${url}`} onClick={() => void run(() => removeRedirectUrl(url))}>
                    Remove
                  </button>
                </li>
              ))}
              {redirects.state.data.redirectUrls.length === 0 && <li className="muted">None registered.</li>}
            </ul>
            <p className="muted">
              Always accepted here:{' '}
              {redirects.state.data.builtIn.map((url, i) => (
                <span key={url}>
                  {i > 0 && ', '}
                  <code>{url}</code>
                </span>
              ))}
            </p>
          </>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault()
            const url = newUrl.trim()
            void run(async () => {
              await registerRedirectUrl(url)
              setNewUrl('')
            })
          }}
        >
          <label>
            Redirect URL{' '}
            <input type="url" value={newUrl} onChange={(e) => setNewUrl(e.target.value)} placeholder="https://app.example.com/oauth/callback" required />
          </label>{' '}
          <button type="submit" disabled={busy || newUrl.trim() === ''}>
            Register
          </button>
        </form>
      </section>

      <section className="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Tokens held by the harness</h2>
        {oauth === null ? (
          <p className="muted">No tokens. Connect the app to get some.</p>
        ) : (
          <>
            <dl className="facts">
              <div>
                <dt>Access token</dt>
                <dd>
                  <code className="token">{oauth.accessToken}</code>
                </dd>
              </div>
              <div>
                <dt>Refresh token</dt>
                <dd>
                  <code className="token">{oauth.refreshToken}</code>
                </dd>
              </div>
              <div>
                <dt>Scopes</dt>
                <dd>{oauth.scopes.join(' ') || '—'}</dd>
              </div>
              <div>
                <dt>Expires</dt>
                <dd>
                  {formatDateTime(oauth.expiresAt)} {expired ? <strong>(expired)</strong> : null}
                </dd>
              </div>
            </dl>
            <div className="button-row">
              <button type="button" disabled={busy} onClick={() => void run(() => refreshConnection(oauth.refreshToken))}>
                Refresh the access token
              </button>
              <button type="button" disabled={busy} onClick={clear}>
                Forget these tokens
              </button>
            </div>
          </>
        )}
      </section>
      <ApiErrorView error={error} />
    </section>
  )
}
