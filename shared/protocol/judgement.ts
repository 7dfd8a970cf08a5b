/**
 * The host's two judgements on every widget → host message.
 *
 * - ACT: what the real CRM does with it. It accepts more than the SDK's TypeScript
 *   types promise (the vendor's own demos send CALL_ENDED without engagementId,
 *   CALL_COMPLETED with `hs_call_recording_url: null`, …), so the host normalises
 *   the message by the leniency rules (leniency.ts) and acts on the result. Only a message
 *   the real CRM would ignore is ignored.
 * - REPORT: every deviation from the SDK's documented types, with a severity:
 *   `error` (the real CRM ignores or refuses it, or the field) or `warning` (the
 *   real CRM copes, but the type says otherwise).
 *
 * The rules, their evidence and their normalisers are in leniency.ts.
 */
import {
  checkEnvelope,
  deprecationOf,
  describeError,
  issueText,
  notSdkReason,
  type AcceptedMessageOf,
  type CatalogueEntry,
  type FromWidgetType,
} from './catalogue.ts'
import { SCHEMAS } from './envelopes.ts'
import type { ZodType } from './zod-config.ts'
import type { Issue } from './validator-runtime.ts'
import { IS_VALID } from './predicates.generated.ts'
import { VALIDATORS } from './validators.generated.ts'
import { CLEAN_WHEN_VALID, NORMALIZE, isRecord, show, type Data, type LeniencyRule, type Note, type Severity } from './leniency.ts'

export { LENIENCY_RULES } from './leniency.ts'
export type { LeniencyRule, LeniencyRuleInfo, Severity } from './leniency.ts'

export interface Deviation {
  severity: Severity
  /** Where, e.g. `data.engagementId` (empty for the whole message). */
  path: string
  message: string
  /** The leniency rule that let the host act on it anyway, if any. */
  rule?: LeniencyRule
}

/** A widget → host message as the host acts on it. */
export type AcceptedWidgetMessage = { [K in FromWidgetType]: AcceptedMessageOf<K> }[FromWidgetType]

export type Judgement =
  | {
      act: true
      type: FromWidgetType
      entry: CatalogueEntry
      /** The message as received, or a normalised copy when a leniency rule applied. */
      message: AcceptedWidgetMessage
      deviations: Deviation[]
      deprecation?: string
    }
  | {
      act: false
      type?: string
      entry?: CatalogueEntry
      reason: string
      deviations: Deviation[]
      /**
       * Not a calling-SDK message at all (notSdkReason: no `type` or no `messageId`): a vendor
       * library's traffic in the widget's page, dropped as the SDK drops it. No deviations: it is
       * nothing the widget's SDK use is judged by.
       */
      notSdk?: true
    }

/** `a` is `b` or inside it, or the other way round (data.x covers data.x.y). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)
}

const MAX_DEVIATIONS = 12
const STRICT_OK = { success: true } as const

/**
 * Judges a message a widget posted to the host. Never throws.
 *
 * - `act: true`: the host acts on `message` (the object received when no rule applied,
 *   else a normalised copy); `deviations` lists every departure from the SDK's types.
 * - `act: false`: the real CRM would ignore it; `reason` says why and `deviations` (errors) what.
 *   `notSdk`: not a calling-SDK message at all (a vendor library's own traffic), no deviations.
 */
export function judgeWidgetMessage(raw: unknown): Judgement {
  try {
    const notSdk = notSdkReason(raw)
    if (notSdk !== undefined) {
      const dropped: Judgement = { act: false, reason: notSdk, deviations: [], notSdk: true }
      const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined
      if (typeof type === 'string' && type !== '') dropped.type = type.length > 120 ? `${type.slice(0, 120)}…` : type
      return dropped
    }
    const envelope = checkEnvelope(raw, 'from-widget')
    if (!envelope.ok) {
      const path = envelope.reason === 'missing type' ? 'type' : envelope.reason === 'missing messageId' ? 'messageId' : ''
      const message = envelope.reason === 'unknown type' ? `unknown type ${show(envelope.type)}: the host ignores it` : `${envelope.reason}: the host ignores it`
      const ignored: Judgement = { act: false, reason: envelope.reason, deviations: [{ severity: 'error', path, message }] }
      if (envelope.type !== undefined) ignored.type = envelope.type
      return ignored
    }
    const { type, entry } = envelope
    const widgetType = type as FromWidgetType
    // The strict check: the generated predicate (true exactly when the type's validator finds
    // no issue) answers for a valid message, the common case; the generated validator runs for
    // an invalid one, and zod parses it for the issues that become the deviations.
    const issues: Issue[] = []
    if (!IS_VALID[widgetType](envelope.raw)) VALIDATORS[widgetType](envelope.raw, issues)
    if (issues.length === 0 && (CLEAN_WHEN_VALID.has(widgetType) || NORMALIZE[widgetType] === undefined)) {
      // Valid, and no leniency rule has anything to do: the host acts on the message as received.
      return accept(widgetType, entry, envelope.raw, [], envelope.raw.data)
    }
    const deviations: Deviation[] = []
    let changed = false
    const note: Note = Object.assign(
      (severity: Severity, path: string, message: string, rule?: LeniencyRule) => {
        changed = true
        if (deviations.length >= MAX_DEVIATIONS) return
        deviations.push(rule === undefined ? { severity, path, message } : { severity, path, message, rule })
      },
      { changed: () => void (changed = true) },
    )
    const schemas: { schema: ZodType; accept?: ZodType } = SCHEMAS[widgetType]
    const strict = issues.length === 0 ? STRICT_OK : schemas.schema.safeParse(envelope.raw)
    const normalize = strict.success && CLEAN_WHEN_VALID.has(widgetType) ? undefined : NORMALIZE[widgetType]
    let message: Data = envelope.raw
    const rawData = envelope.raw.data
    if (normalize && (rawData === undefined || rawData === null || isRecord(rawData))) {
      const copy = structuredClone(envelope.raw)
      const data = normalize(isRecord(copy.data) ? copy.data : undefined, note, copy)
      if (changed) {
        if (data === undefined) delete copy.data
        else copy.data = data
        message = copy
      }
    }
    const accepted = message === envelope.raw && strict.success ? strict : (schemas.accept ?? schemas.schema).safeParse(message)
    const act = accepted.success
    if (!strict.success) {
      for (const issue of strict.error.issues) {
        const path = issue.path.map(String).join('.')
        if (deviations.some((d) => overlaps(d.path, path))) continue
        note(act ? 'warning' : 'error', path, issueText(issue))
      }
    }
    if (!act) {
      // Whatever the rules did, the host cannot act on it: every finding is an error.
      for (const issue of accepted.error.issues) {
        const path = issue.path.map(String).join('.')
        if (!deviations.some((d) => overlaps(d.path, path))) note('error', path, issueText(issue))
      }
      const reason = `invalid: ${accepted.error.issues.slice(0, 3).map(issueText).join('; ')}`
      return { act: false, type, entry, reason, deviations: deviations.map((d) => ({ ...d, severity: 'error' })) }
    }
    return accept(widgetType, entry, message, deviations, envelope.raw.data)
  } catch (error) {
    return { act: false, reason: `invalid: judgement failed (${describeError(error)})`, deviations: [] }
  }
}

/** The judgement for a message the host acts on (`message`: as received, or the normalised copy; deprecations are of the data as received). */
function accept(type: FromWidgetType, entry: CatalogueEntry, message: Data, deviations: Deviation[], rawData: unknown): Judgement {
  const judged: Judgement = { act: true, type, entry, message: message as AcceptedWidgetMessage, deviations }
  const deprecation = deprecationOf(type, rawData)
  if (deprecation !== undefined) judged.deprecation = deprecation
  return judged
}

/**
 * The failure reply that answers a request the host could not act on: every request
 * that expects an answer gets one. OUTGOING_CALL_STARTED and INCOMING_CALL expect
 * CREATE_ENGAGEMENT_* only with createEngagement: true.
 */
export const FAILURE_REPLY = {
  CALL_COMPLETED: 'UPDATE_ENGAGEMENT_FAILED',
  FINALIZE_ENGAGEMENT: 'FINALIZE_ENGAGEMENT_FAILED',
  PUBLISH_TO_CHANNEL: 'PUBLISH_TO_CHANNEL_FAILED',
  NAVIGATE_TO_RECORD: 'NAVIGATE_TO_RECORD_FAILED',
  SET_WIDGET_URL: 'SET_WIDGET_URL_FAILED',
  OUTGOING_CALL_STARTED: 'CREATE_ENGAGEMENT_FAILED',
  INCOMING_CALL: 'CALLER_ID_MATCH_FAILED',
} as const satisfies Partial<Record<FromWidgetType, string>>
