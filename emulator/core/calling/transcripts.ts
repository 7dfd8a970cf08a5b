/**
 * Transcripts a calling app made itself, attached to a call
 * (https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/third-party-transcripts):
 *
 * - POST /crm/v3/extensions/calling/transcripts
 *   `{engagementId, transcriptCreateUtterances: [{speaker: {id, name, email?}, text, languageCode?, startTimeMillis, endTimeMillis}]}`
 *   → 200 `{id}`;
 * - GET /crm/v3/extensions/calling/transcripts/{transcriptId} → 200
 *   `{id, engagementId, transcriptSource: "INTEGRATOR_GENERATED", transcriptUtterances, createdAt, updatedAt}`;
 * - DELETE the same path → 204.
 *
 * OAuth scopes `crm.extensions_calling_transcripts.write` (create, delete) and
 * `.read` (get). Times are milliseconds from the start of the call. Emulator
 * rules where the docs say nothing: the call must exist; a time is a whole
 * number ≥ 0 and an utterance does not end before it starts; utterances do
 * not overlap (each starts at or after the previous one ends; they are stored
 * in time order); a call has at most one transcript (a second is 409 naming
 * the first, which can be deleted); at most 10,000 utterances of at most
 * 10,000 characters each.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { conflict, notFound, validationError, type ErrorDetail } from '../http/errors.ts'
import { boundedArray, json, noContent, parseInput } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'

/** Budgets of one transcript (emulator choices; the real limits are not published). */
export const TRANSCRIPT_LIMITS = { utterances: 10_000, textLength: 10_000 } as const

const speakerSchema = z.object({ id: z.string().min(1).max(256), name: z.string().max(256), email: z.string().max(256).optional() })
const millis = z.number().int()

const utteranceInput = z.object({
  speaker: speakerSchema,
  text: z.string().max(TRANSCRIPT_LIMITS.textLength),
  languageCode: z.string().max(35).optional(),
  startTimeMillis: millis,
  endTimeMillis: millis,
})
const createSchema = z.object({
  engagementId: z.number().int().positive(),
  transcriptCreateUtterances: boundedArray(utteranceInput, TRANSCRIPT_LIMITS.utterances, { count: 1, message: 'must hold at least one utterance' }),
})

const utteranceRow = utteranceInput.extend({ id: z.string() })
const transcriptRow = z.object({
  id: z.string(),
  engagementId: z.number().int(),
  transcriptSource: z.literal('INTEGRATOR_GENERATED'),
  transcriptUtterances: z.array(utteranceRow),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type TranscriptRow = z.infer<typeof transcriptRow>

export function transcriptsTable(db: Database): Table<TranscriptRow> {
  return db.table('calling_transcripts', transcriptRow)
}

/** Transcript id by call id: a call has at most one. */
function transcriptOfCallTable(db: Database): Table<string> {
  return db.table('calling_transcript_of_call', z.string())
}

/** The transcript attached to a call, if any. */
export function transcriptOfCall(db: Database, callId: string): TranscriptRow | undefined {
  const id = transcriptOfCallTable(db).get(callId)
  return id === undefined ? undefined : transcriptsTable(db).get(id)
}

type UtteranceInput = z.infer<typeof utteranceInput>

/** Every timing problem of the utterances, each naming where it is. */
function timingProblems(utterances: readonly UtteranceInput[]): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const at = (i: number, field: string) => `transcriptCreateUtterances[${i}].${field}`
  utterances.forEach((u, i) => {
    if (u.startTimeMillis < 0) problems.push({ message: `startTimeMillis must not be negative, got ${u.startTimeMillis}`, in: at(i, 'startTimeMillis'), code: 'NEGATIVE_TIME' })
    if (u.endTimeMillis < 0) problems.push({ message: `endTimeMillis must not be negative, got ${u.endTimeMillis}`, in: at(i, 'endTimeMillis'), code: 'NEGATIVE_TIME' })
    if (u.endTimeMillis < u.startTimeMillis) {
      problems.push({ message: `endTimeMillis ${u.endTimeMillis} is before startTimeMillis ${u.startTimeMillis}`, in: at(i, 'endTimeMillis'), code: 'END_BEFORE_START' })
    }
  })
  const order = utterances.map((_, i) => i).sort((a, b) => utterances[a]!.startTimeMillis - utterances[b]!.startTimeMillis || a - b)
  for (let k = 1; k < order.length; k++) {
    const previous = utterances[order[k - 1]!]!
    const current = utterances[order[k]!]!
    if (current.startTimeMillis < previous.endTimeMillis) {
      problems.push({
        message: `utterance ${order[k]} (${current.startTimeMillis}–${current.endTimeMillis} ms) overlaps utterance ${order[k - 1]} (${previous.startTimeMillis}–${previous.endTimeMillis} ms)`,
        in: at(order[k]!, 'startTimeMillis'),
        code: 'OVERLAPPING_UTTERANCES',
      })
    }
    if (problems.length >= 20) break
  }
  return problems
}

export function transcriptRoutes(deps: ServiceDeps): Route[] {
  const transcripts = transcriptsTable(deps.db)
  const ofCall = transcriptOfCallTable(deps.db)
  const path = '/crm/v3/extensions/calling/transcripts'
  const existing = (id: string): TranscriptRow => {
    const row = transcripts.get(id)
    if (!row) throw notFound(`No transcript with id ${id}.`)
    return row
  }
  return [
    {
      method: 'POST',
      path,
      auth: { kind: 'bearer', scopes: ['crm.extensions_calling_transcripts.write'] },
      handler(ctx) {
        const input = parseInput(createSchema, ctx.jsonBody())
        const callId = String(input.engagementId)
        if (!deps.objects.get('calls', callId)) throw notFound(`No call with id ${callId} (engagementId): a transcript is attached to a call that exists.`)
        const problems = timingProblems(input.transcriptCreateUtterances)
        if (problems.length > 0) {
          throw validationError(`Invalid utterance times: ${problems.slice(0, 5).map((p) => `${p.in}: ${p.message}`).join('; ')}`, { errors: problems })
        }
        const taken = ofCall.get(callId)
        if (taken !== undefined) throw conflict(`Call ${callId} already has transcript ${taken}; delete it first to replace it.`, { context: { transcriptId: [taken] } })
        const id = String(deps.db.nextId('calling_transcripts'))
        const iso = new Date(ctx.now).toISOString()
        const utterances = [...input.transcriptCreateUtterances]
          .sort((a, b) => a.startTimeMillis - b.startTimeMillis)
          .map((u, i) => ({ id: `${id}-${i + 1}`, ...u }))
        transcripts.set(id, { id, engagementId: input.engagementId, transcriptSource: 'INTEGRATOR_GENERATED', transcriptUtterances: utterances, createdAt: iso, updatedAt: iso })
        ofCall.set(callId, id)
        return json({ id })
      },
    },
    {
      method: 'GET',
      path: `${path}/:transcriptId`,
      auth: { kind: 'bearer', scopes: ['crm.extensions_calling_transcripts.read'] },
      handler(ctx) {
        return json(existing(ctx.params.transcriptId!))
      },
    },
    {
      method: 'DELETE',
      path: `${path}/:transcriptId`,
      auth: { kind: 'bearer', scopes: ['crm.extensions_calling_transcripts.write'] },
      handler(ctx) {
        const row = existing(ctx.params.transcriptId!)
        transcripts.delete(row.id)
        ofCall.delete(String(row.engagementId))
        return noContent()
      },
    },
  ]
}
