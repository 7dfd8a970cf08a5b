/**
 * One note on a record's timeline: when it was taken and its body (HTML
 * written through the API by anyone: sanitized before display).
 */
import type { CrmObject } from '../lib/crm-api.ts'
import { formatDateTime } from '../lib/format.ts'
import { sanitizeHtml } from '../lib/security/sanitize.ts'

/** The note properties the timeline reads. */
export const NOTE_PROPERTIES = ['hs_timestamp', 'hs_note_body', 'hubspot_owner_id'] as const

/** When the note was taken: hs_timestamp, else the create date. */
export function noteTime(note: CrmObject): string {
  return note.properties.hs_timestamp ?? note.createdAt
}

export function NoteEntry({ note }: { note: CrmObject }) {
  const body = note.properties.hs_note_body?.trim()
  const headingId = `note-${note.id}-heading`
  return (
    <article className="timeline-entry note-entry" aria-labelledby={headingId}>
      <header className="timeline-entry-header">
        <span className="timeline-icon" aria-hidden="true">
          ✎
        </span>
        <h3 id={headingId}>Note</h3>
        <time dateTime={noteTime(note)} className="muted">
          {formatDateTime(noteTime(note))}
        </time>
      </header>
      {body ? <div className="note-body rendered-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(body) }} /> : <p className="muted">Empty note.</p>}
    </article>
  )
}
