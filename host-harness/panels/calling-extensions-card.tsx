/**
 * The calling app's recording and channel-connection settings, read through
 * the API (`GET /_ringside/v1/calling/settings`, which says "none" where the
 * real GETs answer 404), and the state of the channel
 * connection: the CRM asks the app's webhook for its numbers with a signed
 * request (POST /_ringside/v1/calling/channel-connection/check) and shows
 * what came back. The check reaches the app's server, so it runs once when
 * the panel opens and again on demand, never on every change.
 */
import { api } from '../lib/api-client.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { formatDateTime } from '../lib/format.ts'
import { useApiData } from '../lib/use-api-data.ts'

const SETTINGS_PATH = '/_ringside/v1/calling/settings'
const CHECK_PATH = '/_ringside/v1/calling/channel-connection/check'

interface ExtensionSettings {
  recording: { urlToRetrieveAuthedRecording: string } | null
  channelConnection: { url: string; isReady: boolean } | null
}

interface ChannelCheck {
  status: 'NOT_CONFIGURED' | 'NOT_READY' | 'CONNECTED' | 'FAILED'
  url?: string
  checkedAt: string
  reason?: string
  numbers?: Array<{ e164PhoneNumber: string; extension?: string; friendlyName?: string; connectable: boolean; problem?: string }>
}

const STATUS_TEXT: Record<ChannelCheck['status'], string> = {
  NOT_CONFIGURED: 'Not configured: the app has no channel-connection settings.',
  NOT_READY: 'Not ready: the settings say isReady false, so the CRM does not call the webhook.',
  CONNECTED: 'Connected: the webhook answered the signed request.',
  FAILED: 'Failed',
}

export function CallingExtensionsCard() {
  const settings = useApiData(() => api.get<ExtensionSettings>(SETTINGS_PATH), [])
  const stored = settings.state.data
  const check = useApiData(() => api.post<ChannelCheck>(CHECK_PATH), [], { refreshOnChange: false })
  const result = check.state.data
  return (
    <section className="card" aria-labelledby="calling-extensions-heading">
      <h2 id="calling-extensions-heading">Recordings and channel connection</h2>
      <dl className="call-facts">
        <div>
          <dt>Recording endpoint</dt>
          <dd>{stored === undefined ? '…' : stored.recording === null ? 'not registered' : <code>{stored.recording.urlToRetrieveAuthedRecording}</code>}</dd>
        </div>
        <div>
          <dt>Channel-connection webhook</dt>
          <dd>{stored === undefined ? '…' : stored.channelConnection === null ? 'not registered' : <code>{stored.channelConnection.url}</code>}</dd>
        </div>
      </dl>
      {settings.state.status === 'error' && <ApiErrorView error={settings.state.error} title="Could not read the settings" />}
      <section aria-label="Channel connection status" className="channel-status">
        {result === undefined ? (
          <p className="muted">Checking the channel connection…</p>
        ) : (
          <>
            <p>
              <strong>{STATUS_TEXT[result.status]}</strong>
              {result.reason ? ` ${result.reason}` : ''} <span className="muted">(checked {formatDateTime(result.checkedAt)})</span>
            </p>
            {result.numbers && (
              <ul aria-label="Numbers the app offers">
                {result.numbers.length === 0 && <li className="muted">The app offers no numbers.</li>}
                {result.numbers.map((n, i) => (
                  <li key={`${n.e164PhoneNumber}-${i}`}>
                    {n.e164PhoneNumber}
                    {n.extension ? ` ext. ${n.extension}` : ''}
                    {n.friendlyName ? ` — ${n.friendlyName}` : ''}
                    {n.connectable ? '' : ` (cannot be connected: ${n.problem ?? 'unknown reason'})`}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
      {check.state.status === 'error' && <ApiErrorView error={check.state.error} title="The check failed" />}
      <div className="button-row">
        <button type="button" onClick={() => check.reload()} disabled={check.state.status === 'loading'}>
          Check the channel connection
        </button>
      </div>
    </section>
  )
}
