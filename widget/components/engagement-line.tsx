import type { ActiveCall } from '../call-record.ts'

/** Where the CRM is with logging this call. A failure never stops the call. */
export function EngagementLine({ call }: { call: ActiveCall }) {
  const e = call.engagement
  switch (e.status) {
    case 'none':
      return call.announced ? null : <p className="meta">Not connected to a CRM: this call is not logged.</p>
    case 'pending':
      return <p className="meta">Logging the call in the CRM…</p>
    case 'created':
      return <p className="meta ok">Logged in the CRM (engagement {e.engagementId})</p>
    case 'failed':
      return (
        <p className="meta error" role="alert">
          The CRM could not log this call: {e.message} The call continues.
        </p>
      )
  }
}
