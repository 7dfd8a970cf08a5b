/**
 * One custom timeline event: the app's icon and name, the rendered header
 * (sanitized), the detail on expand (sanitized), and the timelineIFrame link
 * that opens a sandboxed modal (absolute http(s) URLs only: shared/url/safe-url.ts).
 */
import { useState } from 'react'
import { formatDateTime } from '../lib/format.ts'
import { checkUrl, safeUrl } from '../../shared/url/safe-url.ts'
import { sanitizeHtml } from '../lib/security/sanitize.ts'
import { AppBadge } from '../lib/app-badge.tsx'
import type { TimelineEventView } from './events-api.ts'
import { IframeModal } from './iframe-modal.tsx'

export function CustomEventEntry({ event }: { event: TimelineEventView }) {
  const [expanded, setExpanded] = useState(false)
  const [frameOpen, setFrameOpen] = useState(false)
  const headingId = `event-${event.eventTemplateId}-${event.id}-heading`
  const detailId = `event-${event.eventTemplateId}-${event.id}-detail`
  const iframe = event.timelineIFrame
  const iframeCheck = iframe ? checkUrl(iframe.url) : null
  const iframeUrl = iframe ? safeUrl(iframe.url) : undefined
  const headerHtml = sanitizeHtml(event.headerHtml)
  const hasDetail = event.detailHtml.trim() !== ''

  return (
    <article className="timeline-entry custom-event" aria-labelledby={headingId}>
      <header className="timeline-entry-header">
        <AppBadge appId={event.appId} appName={event.appName} />
        <time dateTime={event.timestamp} className="muted">
          {formatDateTime(event.timestamp)}
        </time>
      </header>
      {headerHtml.trim() !== '' ? (
        <h3 id={headingId} className="event-header rendered-html" dangerouslySetInnerHTML={{ __html: headerHtml }} />
      ) : (
        <h3 id={headingId} className="event-header">
          {event.templateName ?? `Event ${event.id}`}
        </h3>
      )}
      <div className="timeline-entry-actions">
        {hasDetail && (
          <button type="button" className="link-button" aria-expanded={expanded} aria-controls={detailId} onClick={() => setExpanded((e) => !e)}>
            {expanded ? 'Hide details' : 'Show details'}
          </button>
        )}
        {iframe && iframeUrl && (
          <button type="button" className="link-button" onClick={() => setFrameOpen(true)}>
            {iframe.linkLabel || 'Open'}
          </button>
        )}
        {iframeCheck && !iframeCheck.ok && <span className="muted">Link hidden: its URL {iframeCheck.reason}.</span>}
      </div>
      {hasDetail && expanded && <div id={detailId} className="event-detail rendered-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(event.detailHtml) }} />}
      {frameOpen && iframe && iframeUrl && (
        <IframeModal url={iframeUrl} title={iframe.headerLabel || iframe.linkLabel || 'Event'} width={iframe.width} height={iframe.height} onClose={() => setFrameOpen(false)} />
      )}
    </article>
  )
}
