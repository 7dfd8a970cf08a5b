/**
 * What a call engagement carries beyond its properties, read through the
 * API (GET /_ringside/v1/calls/{id}/media) and, for an inbound call, the
 * CRM's search:
 * - the recording the calling app marked ready: a player whose audio comes
 *   through Ringside (`/_ringside/v1/calls/{id}/recording`, which forwards
 *   each Range request to the app's server), so the page never holds the
 *   app's URL or credentials; seeking works when the app answers 206;
 * - the app's transcript: each utterance with its speaker and time; choosing
 *   one plays the recording from there. The text is the app's: React renders
 *   it as text, never as HTML;
 * - the caller-ID matches of an inbound call's number (shared/crm/caller-id.ts).
 */
import { useRef } from 'react'
import { OWN_PATHS, safeUrl } from '../../shared/url/safe-url.ts'
import { CALLER_ID_SEARCHES, callerIdSearchBody, tooShortForCallerId } from '../../shared/crm/caller-id.ts'
import { api } from '../lib/api-client.ts'
import type { CrmObject, SearchResponse } from '../lib/crm-api.ts'
import { objectTypeInfo, recordLabel } from '../lib/crm-types.ts'
import { formatDuration } from '../lib/format.ts'
import { useApiData } from '../lib/use-api-data.ts'

interface Utterance {
  id: string
  speaker?: { id: string; name: string; email?: string }
  text: string
  startTimeMillis: number
  endTimeMillis: number
}

interface CallMedia {
  recording: { status: 'PENDING' | 'READY' | 'FAILED'; reason?: string; contentType?: string; size?: number; rangeRequests?: boolean; audioUrl?: string } | null
  transcript: { id: string; transcriptUtterances: Utterance[] } | null
}

const mediaPath = (callId: string) => `/_ringside/v1/calls/${encodeURIComponent(callId)}/media`


function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`
}

export function CallMediaView({ callId }: { callId: string }) {
  const media = useApiData(() => api.get<CallMedia>(mediaPath(callId)), [callId])
  const player = useRef<HTMLAudioElement>(null)
  const data = media.state.data
  if (!data || (!data.recording && !data.transcript)) return null
  const { recording, transcript } = data
  // Only the API's own recording path is played (OWN_PATHS.recordingAudio), never a calling app's URL.
  const audioUrl = safeUrl(recording?.audioUrl, { paths: [OWN_PATHS.recordingAudio] })
  const playFrom = (ms: number) => {
    const audio = player.current
    if (!audio) return
    audio.currentTime = ms / 1000
    // play() is refused until the user has interacted with the page; the seek stands either way.
    audio.play()?.catch(() => {})
  }
  return (
    <div className="call-media">
      {recording?.status === 'READY' && audioUrl !== undefined && (
        <figure className="call-recording">
          <figcaption className="muted">
            Recording{recording.contentType ? ` · ${recording.contentType}` : ''}
            {recording.size !== undefined ? ` · ${formatBytes(recording.size)}` : ''}
            {recording.rangeRequests === false ? ' · the calling app ignores Range requests, so seeking waits for the file' : ''}
          </figcaption>
          <audio ref={player} controls preload="metadata" src={audioUrl} aria-label="Call recording" />
        </figure>
      )}
      {recording?.status === 'PENDING' && <p className="muted">Recording: being fetched from the calling app…</p>}
      {recording?.status === 'FAILED' && (
        <p className="muted" role="note">
          Recording could not be fetched: {recording.reason ?? 'no reason given'}
        </p>
      )}
      {transcript && (
        <section className="call-transcript" aria-label="Transcript">
          <h4>Transcript</h4>
          <ol>
            {transcript.transcriptUtterances.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  className="link-button"
                  disabled={recording?.status !== 'READY'}
                  title={recording?.status === 'READY' ? 'Play the recording from here' : 'No recording to play'}
                  onClick={() => playFrom(u.startTimeMillis)}
                >
                  <time>{formatDuration(u.startTimeMillis)}</time>
                </button>{' '}
                <strong>{u.speaker?.name || u.speaker?.id || 'Speaker'}</strong>: <span className="utterance-text">{u.text}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  )
}

interface Match {
  key: string
  label: string
}

/** The records whose number is the caller's (the CRM's caller-ID rule, through the search API). */
async function callerMatches(number: string): Promise<Match[]> {
  if (tooShortForCallerId(number)) return []
  const matches: Match[] = []
  for (const search of CALLER_ID_SEARCHES) {
    const found = await api.post<SearchResponse>(`/crm/v3/objects/${search.objectType}/search`, callerIdSearchBody(search, number))
    for (const record of found.results) {
      matches.push({ key: `${search.objectType}:${record.id}`, label: `${recordLabel(search.objectType, record.properties) ?? record.id} (${objectTypeInfo(search.objectType).label.toLowerCase()})` })
    }
  }
  return matches
}

/** An inbound call's caller and the records that match its number. */
export function CallerMatches({ call }: { call: CrmObject }) {
  const from = call.properties.hs_call_from_number ?? ''
  const inbound = call.properties.hs_call_direction === 'INBOUND' && from !== ''
  const matches = useApiData(() => (inbound ? callerMatches(from) : Promise.resolve([])), [inbound, from])
  if (!inbound) return null
  const list = matches.state.data
  return (
    <p className="caller-matches">
      <span className="muted">Caller ID matches for {from}: </span>
      {list === undefined ? '…' : list.length === 0 ? 'none' : list.map((m) => m.label).join(', ')}
    </p>
  )
}
