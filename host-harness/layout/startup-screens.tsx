/**
 * What the harness shows before the emulated API is up (or while the Ringside
 * server that served it does not answer), and when it cannot start (the MSW
 * service worker failed to register or activate, or that server never answered).
 */
import { ServerUnreachableError } from '../../emulator/browser/connect.ts'
import './startup-screens.css'

/** `waiting`: the Ringside server that served the page has not answered yet (which server, since when, what to do). */
export function StartupScreen({ waiting }: { waiting?: string }) {
  return (
    <div className="startup" role="status">
      <p>{waiting ?? 'Starting the emulated CRM…'}</p>
    </div>
  )
}

export function StartupError({ error }: { error: unknown }) {
  if (error instanceof ServerUnreachableError) {
    return (
      <div className="startup startup-error" role="alert">
        <h1>The Ringside server did not answer</h1>
        <p>{error.message}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    )
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const noServiceWorker = typeof navigator === 'undefined' || !('serviceWorker' in navigator)
  return (
    <div className="startup startup-error" role="alert">
      <h1>The emulated CRM could not start</h1>
      <p>
        Ringside serves its CRM API from a service worker (<code>/mockServiceWorker.js</code>) on this origin, and it failed to start, so
        nothing can be shown.
      </p>
      <pre className="startup-error-message">{message}</pre>
      <ul>
        {noServiceWorker && <li>This browser context has no service workers (a private window, or a page not served over http(s)).</li>}
        <li>Service workers need a secure context: open the harness at http://127.0.0.1 or http://localhost, or over https.</li>
        <li>
          Check that <code>/mockServiceWorker.js</code> is served by this origin (it is copied from <code>public/</code> into the build).
        </li>
        <li>Reload after closing other tabs of this harness if the worker was being updated.</li>
      </ul>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  )
}
