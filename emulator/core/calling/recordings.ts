/**
 * Call recordings, as the real CRM takes them from a calling app
 * (https://developers.hubspot.com/docs/api/crm/extensions/recordings-and-transcriptions):
 *
 * 1. The app registers the endpoint that hands out recording URLs:
 *    POST /crm/v3/extensions/calling/{appId}/settings/recording
 *    `{urlToRetrieveAuthedRecording}`, a URL holding `%s`, where the CRM puts
 *    the call's external id (GET and PATCH as well; there is no DELETE).
 * 2. It logs the call with hs_call_external_id and hs_call_app_id (and
 *    hs_call_external_account_id, hs_call_source), the properties the CRM
 *    needs to ask for the recording.
 * 3. It marks the recording ready: POST /crm/v3/extensions/calling/recordings/ready
 *    `{engagementId}` → 204.
 * 4. The CRM then calls the endpoint (`%s` replaced,
 *    `?externalAccountId=…&appId=…` added, signed with the app's client
 *    secret like every request HubSpot makes to an app), which answers
 *    `{"authenticatedUrl": "…"}`, and fetches the recording from that URL with
 *    HTTP Range requests: a vendor that answers 206 Partial Content lets users
 *    seek, as the guide requires; one that answers 200 still plays.
 *
 * The emulator's own endpoints (no real API has them) let the harness play the
 * recording without ever holding the vendor's URL or credentials:
 * - GET /_ringside/v1/calls/{callId}/media → `{recording, transcript}` (either null);
 * - GET /_ringside/v1/calls/{callId}/recording → the audio, through Ringside:
 *   a Range header is answered 206 from the vendor's bytes (416 past the end).
 */
import { z } from 'zod'
import { ACCOUNT } from '../http/auth.ts'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { ApiError, Category, notFound, validationError } from '../http/errors.ts'
import { noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { appSettingsRoutes } from './app-settings.ts'
import { vendorUrlProblem } from '../../../shared/url/ip-address.ts'
import { vendorUrlField } from '../http/url-field.ts'
import { contentRangeOf, countBytes, cutRange } from '../outbound/range.ts'
import { OutboundError, type Reads } from '../outbound/read.ts'
import { OUTBOUND_LIMITS, signedHeaders, vendorJson } from './outbound.ts'

// ------------------------------------------------------------ settings

/** Where the CRM puts the call's external id in `urlToRetrieveAuthedRecording`. */
export const EXTERNAL_ID_PLACEHOLDER = '%s'

const recordingUrl = z.string().superRefine((value, ctx) => {
  if (!value.includes(EXTERNAL_ID_PLACEHOLDER)) {
    ctx.addIssue({ code: 'custom', message: `must contain ${EXTERNAL_ID_PLACEHOLDER}, which the CRM replaces with the call's hs_call_external_id` })
    return
  }
  const problem = vendorUrlProblem(value.replaceAll(EXTERNAL_ID_PLACEHOLDER, 'id'))
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})
const recordingSettingsSchema = z.object({ urlToRetrieveAuthedRecording: recordingUrl, createdAt: z.string(), updatedAt: z.string() })
type RecordingSettings = z.infer<typeof recordingSettingsSchema>
const recordingPost = z.object({ urlToRetrieveAuthedRecording: recordingUrl }).strict()
const recordingPatch = recordingPost.partial()

export function recordingSettingsTable(db: Database): Table<RecordingSettings> {
  return db.table('calling_recording_settings', recordingSettingsSchema)
}

// ------------------------------------------------------------ recordings

const recordingSchema = z.object({
  callId: z.string(),
  appId: z.number().int(),
  externalId: z.string(),
  status: z.enum(['PENDING', 'READY', 'FAILED']),
  /** Which ready request this row belongs to (a later one replaces it). */
  attempt: z.string(),
  requestedAt: z.string(),
  updatedAt: z.string(),
  reason: z.string().optional(),
  /** The vendor's URL of the file: never shown to the browser. */
  authenticatedUrl: vendorUrlField().optional(),
  contentType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  /** Whether the vendor answered a Range request with 206. */
  rangeRequests: z.boolean().optional(),
})
export type RecordingRow = z.infer<typeof recordingSchema>

export function recordingsTable(db: Database): Table<RecordingRow> {
  return db.table('calling_recordings', recordingSchema)
}

/** What the harness is told about a call's recording (never the vendor's URL). */
export function recordingStatus(row: RecordingRow) {
  return {
    status: row.status,
    requestedAt: row.requestedAt,
    updatedAt: row.updatedAt,
    ...(row.reason !== undefined && { reason: row.reason }),
    ...(row.contentType !== undefined && { contentType: row.contentType }),
    ...(row.size !== undefined && { size: row.size }),
    ...(row.rangeRequests !== undefined && { rangeRequests: row.rangeRequests }),
    ...(row.status === 'READY' && { audioUrl: recordingAudioPath(row.callId) }),
  }
}

/** Where the harness plays a call's recording. */
export const recordingAudioPath = (callId: string) => `/_ringside/v1/calls/${encodeURIComponent(callId)}/recording`

/** Content types a recording may have: audio, MP4, or a plain download (the guide asks for an octet-stream). */
function isPlayableType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  return type.startsWith('audio/') || type === 'video/mp4' || type === 'application/octet-stream'
}

/**
 * Ask the vendor for the recording of `row` (step 4 above): its endpoint for
 * the authenticated URL, then the first bytes of the file with a Range
 * request. Returns the row's new fields; throws an OutboundError.
 */
async function retrieve(deps: ServiceDeps, reads: Reads, settings: RecordingSettings, row: RecordingRow, externalAccountId: string | undefined): Promise<Partial<RecordingRow>> {
  const endpoint = new URL(settings.urlToRetrieveAuthedRecording.replaceAll(EXTERNAL_ID_PLACEHOLDER, encodeURIComponent(row.externalId)))
  if (externalAccountId !== undefined) endpoint.searchParams.set('externalAccountId', externalAccountId)
  endpoint.searchParams.set('appId', String(row.appId))
  const headers = await signedHeaders(ACCOUNT.clientSecret, 'GET', endpoint.href, '', deps.now())
  const what = `The recording endpoint (GET ${endpoint.href})`
  const answer = vendorJson(await reads.all(new Request(endpoint, { headers: { accept: 'application/json', ...headers } }), { maxBytes: OUTBOUND_LIMITS.maxJsonBytes, trust: 'vendor' }), what)
  const authenticatedUrl = (answer as { authenticatedUrl?: unknown } | null)?.authenticatedUrl
  if (typeof authenticatedUrl !== 'string') throw new OutboundError(`${what} answered without an "authenticatedUrl" string.`)
  const problem = vendorUrlProblem(authenticatedUrl)
  if (problem) throw new OutboundError(`${what} answered an authenticatedUrl the CRM cannot fetch: ${problem}`)

  const probe = await reads.open(new Request(authenticatedUrl, { headers: { range: 'bytes=0-1' } }), { maxBytes: OUTBOUND_LIMITS.maxAudioBytes, trust: 'vendor' })
  const contentType = probe.headers.get('content-type') ?? 'application/octet-stream'
  const declared = probe.headers.get('content-length')
  let size: number | undefined
  let rangeRequests = false
  if (probe.status === 206) {
    await probe.body.cancel()
    size = contentRangeOf(probe.headers.get('content-range'))?.total
    if (size === undefined) throw new OutboundError(`The recording (${authenticatedUrl}) answered 206 without a Content-Range naming its size.`)
    rangeRequests = true
  } else if (probe.status === 200 && declared !== null && /^\d{1,15}$/.test(declared.trim())) {
    // It ignores Range: its Content-Length is the size (each later read is cut, or fails, where the bytes disagree).
    await probe.body.cancel()
    size = Number(declared)
  } else if (probe.status === 200) {
    // Neither: the bytes are counted as they stream (within the audio budget), never kept.
    size = await countBytes(probe.body)
  } else {
    await probe.body.cancel()
    throw new OutboundError(`The recording (${authenticatedUrl}) answered HTTP ${probe.status} to a Range request.`)
  }
  if (!isPlayableType(contentType)) throw new OutboundError(`The recording (${authenticatedUrl}) is ${contentType}, not audio (.mp3, .wav, .flac, .mp4) or an octet-stream.`)
  if (size === 0) throw new OutboundError(`The recording (${authenticatedUrl}) is empty.`)
  return { status: 'READY', authenticatedUrl, contentType, size, rangeRequests }
}

/** A byte range of a file of `size` bytes, from a Range header; undefined: the whole file. */
export function parseRange(header: string | null, size: number): { start: number; end: number; open: boolean } | 'unsatisfiable' | undefined {
  if (header === null) return undefined
  // One range is served; a list (bytes=0-1,5-9) is answered with its first, as RFC 9110 lets a server do.
  const match = /^bytes=(\d*)-(\d*)(?:,.*)?$/i.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1, open: false }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (start >= size) return 'unsatisfiable'
  if (end < start) return undefined
  return { start, end, open: match[2] === '' }
}

const markReadySchema = z.object({ engagementId: z.number().int().positive() })

export function recordingRoutes(deps: ServiceDeps): Route[] {
  const settings = recordingSettingsTable(deps.db)
  const recordings = recordingsTable(deps.db)

  const callOf = (callId: string) => {
    const call = deps.objects.get('calls', callId)
    if (!call) throw notFound(`No call with id ${callId}.`)
    return call
  }

  return [
    ...appSettingsRoutes({
      path: '/crm/v3/extensions/calling/:appId/settings/recording',
      what: 'Recording settings',
      table: settings,
      postSchema: recordingPost,
      patchSchema: recordingPatch,
      toResponse: (row: RecordingSettings) => ({ urlToRetrieveAuthedRecording: row.urlToRetrieveAuthedRecording }),
      deletable: false,
    }),
    {
      method: 'POST',
      path: '/crm/v3/extensions/calling/recordings/ready',
      auth: { kind: 'bearer', scopes: ['crm.objects.contacts.write'] },
      // The CRM fetches the recording while the request waits, outside the request's transaction, so a slow
      // vendor holds up only this request. (The real CRM answers first and fetches later; waiting here makes
      // the outcome visible as soon as the app's request returns.)
      outsideTransaction: true,
      async handler(ctx) {
        const { engagementId } = parseInput(markReadySchema, ctx.jsonBody())
        const callId = String(engagementId)
        // A read slot is taken first: when every one is in use the request is refused (429) before anything is written.
        return deps.outbound.run(async (reads) => {
          const started = await ctx.db.transaction(() => {
            const p = callOf(callId).properties
            const missing = ['hs_call_external_id', 'hs_call_app_id'].filter((name) => !p[name])
            if (missing.length > 0) {
              throw validationError(`Call ${callId} has no ${missing.join(' or ')}: the CRM needs them to ask the calling app for the recording.`, {
                context: { missingProperties: missing },
              })
            }
            const appId = Number(p.hs_call_app_id)
            const settingsRow = appId === ACCOUNT.appId ? settings.get(String(appId)) : undefined
            if (!settingsRow) {
              throw validationError(`App ${p.hs_call_app_id} (the call's hs_call_app_id) has no recording settings: register urlToRetrieveAuthedRecording first.`)
            }
            const iso = new Date(ctx.now).toISOString()
            const row: RecordingRow = { callId, appId, externalId: p.hs_call_external_id!, status: 'PENDING', attempt: crypto.randomUUID(), requestedAt: iso, updatedAt: iso }
            recordings.set(callId, row)
            return { settingsRow, row, externalAccountId: p.hs_call_external_account_id }
          }, { client: ctx.client })
          const outcome = await retrieve(deps, reads, started.settingsRow, started.row, started.externalAccountId).catch((error: unknown) => {
            if (!(error instanceof OutboundError)) throw error
            return { status: 'FAILED' as const, reason: error.message }
          })
          await ctx.db.transaction(() => {
            // Unless another ready request for the call replaced the row meanwhile.
            const current = recordings.get(callId)
            if (current?.attempt !== started.row.attempt) return
            recordings.set(callId, recordingSchema.parse({ ...current, ...outcome, updatedAt: new Date(deps.now()).toISOString() }))
          }, { client: ctx.client })
          return noContent()
        })
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/calls/:callId/recording',
      auth: { kind: 'none' },
      outsideTransaction: true,
      async handler(ctx: RouteContext) {
        const callId = ctx.params.callId!
        const row = await ctx.db.transaction(() => {
          callOf(callId)
          return recordings.get(callId)
        })
        if (row?.status !== 'READY' || row.authenticatedUrl === undefined || row.size === undefined) {
          throw notFound(`Call ${callId} has no recording ready${row ? ` (${row.status}${row.reason ? `: ${row.reason}` : ''})` : ''}.`)
        }
        const size = row.size
        const range = parseRange(ctx.request.headers.get('range'), size)
        if (range === 'unsatisfiable') {
          throw new ApiError(416, Category.VALIDATION_ERROR, `Range ${ctx.request.headers.get('range')} is past the end of the recording (${size} bytes).`, {
            headers: { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' },
          })
        }
        const start = range?.start ?? 0
        // An open-ended range gets one chunk (the player asks on); any answer at most the budget.
        const limit = range?.open ? OUTBOUND_LIMITS.playerChunkBytes : OUTBOUND_LIMITS.maxAudioBytes
        const end = Math.min(range?.end ?? size - 1, start + limit - 1)
        // Streamed through: the vendor's bytes are passed on as they arrive (a vendor that ignores Range is cut
        // at the range); one that breaks off, or passes the deadline, ends the answer short.
        let cut: Awaited<ReturnType<typeof cutRange>>
        try {
          const answer = await deps.outbound.stream(new Request(row.authenticatedUrl, { headers: { range: `bytes=${start}-${end}` } }), { maxBytes: OUTBOUND_LIMITS.maxAudioBytes, trust: 'vendor' })
          cut = await cutRange(answer, start, end, OUTBOUND_LIMITS.maxAudioBytes, `The recording (${row.authenticatedUrl})`)
        } catch (error) {
          if (!(error instanceof OutboundError)) throw error
          throw new ApiError(502, Category.INTERNAL_ERROR, `The calling app's server did not deliver the recording: ${error.message}`)
        }
        const partial = range !== undefined || cut.last < size - 1
        const headers: Record<string, string> = {
          'content-type': row.contentType ?? 'application/octet-stream',
          'accept-ranges': 'bytes',
          'content-length': String(cut.last - start + 1),
          'cache-control': 'no-store',
        }
        if (partial) headers['content-range'] = `bytes ${start}-${cut.last}/${size}`
        return new Response(cut.body, { status: partial ? 206 : 200, headers })
      },
    },
  ]
}
