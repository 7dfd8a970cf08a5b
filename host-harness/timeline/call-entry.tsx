/**
 * One call engagement on a record's timeline: direction, status, duration,
 * numbers, the notes (hs_call_body, HTML from the calling app: sanitized),
 * the recording link (only if it is an http(s) URL), and what call-media.tsx
 * shows: the caller-ID matches of an inbound call, the recording the calling
 * app marked ready (played through Ringside) and its transcript. A call log the CRM
 * refused (the widget's CALL_COMPLETED, e.g. with an outcome that is not one of the
 * account's) is shown beside it, with the reason and the notes that were not saved.
 */
import type { CrmObject } from '../lib/crm-api.ts'
import { callHeading, callTime } from '../lib/call-summary.ts'
import { formatDateTime, formatDuration, humanizeEnum } from '../lib/format.ts'
import { checkUrl, safeUrl } from '../../shared/url/safe-url.ts'
import { sanitizeHtml } from '../lib/security/sanitize.ts'
import { CallerMatches, CallMediaView } from './call-media.tsx'
import { useRefusedLog } from '../layout/calling-seam.tsx'

export function CallEntry({ call, dispositions, pinned = false }: { call: CrmObject; dispositions?: ReadonlyMap<string, string>; pinned?: boolean }) {
  const p = call.properties
  const recordingCheck = p.hs_call_recording_url ? checkUrl(p.hs_call_recording_url) : null
  const recording = safeUrl(p.hs_call_recording_url)
  const body = p.hs_call_body?.trim()
  const disposition = p.hs_call_disposition ? (dispositions?.get(p.hs_call_disposition) ?? p.hs_call_disposition) : undefined
  const headingId = `call-${call.id}${pinned ? '-pinned' : ''}-heading`
  return (
    <article className="timeline-entry call-entry" aria-labelledby={headingId}>
      <header className="timeline-entry-header">
        <span className="timeline-icon" aria-hidden="true">
          ☎
        </span>
        <h3 id={headingId}>{callHeading(call)}</h3>
        <time dateTime={callTime(call)} className="muted">
          {formatDateTime(callTime(call))}
        </time>
      </header>
      <dl className="call-facts">
        <div>
          <dt>Status</dt>
          <dd>{p.hs_call_status ? humanizeEnum(p.hs_call_status) : '—'}</dd>
        </div>
        <div>
          <dt>Direction</dt>
          <dd>{p.hs_call_direction ? humanizeEnum(p.hs_call_direction) : '—'}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(p.hs_call_duration)}</dd>
        </div>
        {disposition !== undefined && (
          <div>
            <dt>Outcome</dt>
            <dd>{disposition}</dd>
          </div>
        )}
        {p.hs_call_to_number && (
          <div>
            <dt>To</dt>
            <dd>{p.hs_call_to_number}</dd>
          </div>
        )}
        {p.hs_call_from_number && (
          <div>
            <dt>From</dt>
            <dd>{p.hs_call_from_number}</dd>
          </div>
        )}
      </dl>
      <RefusedLogNotice engagementId={call.id} />
      <CallerMatches call={call} />
      {body && <div className="call-notes rendered-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(body) }} />}
      <CallMediaView callId={call.id} />
      {recording && (
        <p>
          <a href={recording} target="_blank" rel="noopener noreferrer">
            Recording
          </a>
        </p>
      )}
      {recordingCheck && !recordingCheck.ok && <p className="muted">Recording link hidden: its URL {recordingCheck.reason}.</p>}
    </article>
  )
}

/** The widget's CALL_COMPLETED for this call that the CRM refused: why, and what the widget sent (not saved). */
function RefusedLogNotice({ engagementId }: { engagementId: string }) {
  const refused = useRefusedLog(engagementId)
  if (!refused) return null
  return (
    <section className="call-refused" role="status" aria-label="Call log not saved">
      <p>
        <strong>The call log the widget sent was not saved.</strong> The CRM refused its CALL_COMPLETED at {formatDateTime(refused.at)}: {refused.reason}
      </p>
      {refused.outcome !== undefined && <p>Outcome sent: {refused.outcome}</p>}
      {refused.notes !== undefined && (
        <>
          <p>Notes the widget sent (not in the CRM):</p>
          <div className="call-notes rendered-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(refused.notes) }} />
        </>
      )}
    </section>
  )
}
