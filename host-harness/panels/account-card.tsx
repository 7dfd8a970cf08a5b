/**
 * The fixed account, app and credentials of the emulator, for copying into
 * a calling app's configuration.
 */
import { ACCOUNT } from '../../shared/crm/account.ts'
import { DEVELOPER_API_KEY, HARNESS_TOKEN } from '../lib/api-client.ts'

const ROWS: ReadonlyArray<{ group: string; rows: ReadonlyArray<[label: string, value: string | number]> }> = [
  {
    group: 'Customer account',
    rows: [
      ['hub_id (portal id)', ACCOUNT.hubId],
      ['hub_domain', ACCOUNT.hubDomain],
      ['user_id', ACCOUNT.userId],
    ],
  },
  {
    group: 'Developer app',
    rows: [
      ['appId', ACCOUNT.appId],
      ['client_id', ACCOUNT.clientId],
      ['client_secret', ACCOUNT.clientSecret],
    ],
  },
  {
    group: 'Keys and tokens',
    rows: [
      ['Developer API key (hapikey)', DEVELOPER_API_KEY],
      ['Private-app access token', HARNESS_TOKEN],
    ],
  },
]

export function AccountCard() {
  return (
    <section className="panel" aria-labelledby="account-heading">
      <h1 id="account-heading">Account & credentials</h1>
      <p className="muted">
        Every emulator starts with this account. The values are fixed, so a calling app can be configured once. They are local test values,
        not secrets.
      </p>
      {ROWS.map(({ group, rows }) => (
        <section className="card" key={group} aria-label={group}>
          <h2>{group}</h2>
          <dl className="facts">
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>
                  <code>{value}</code>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <section className="card" aria-label="Endpoints">
        <h2>Endpoints on this origin</h2>
        <dl className="facts">
          <div>
            <dt>API base URL</dt>
            <dd>
              <code>{window.location.origin}</code>
            </dd>
          </div>
          <div>
            <dt>OAuth consent page</dt>
            <dd>
              <code>{window.location.origin}/oauth/authorize</code>
            </dd>
          </div>
          <div>
            <dt>Token endpoint</dt>
            <dd>
              <code>{window.location.origin}/oauth/v1/token</code>
            </dd>
          </div>
        </dl>
      </section>
    </section>
  )
}
