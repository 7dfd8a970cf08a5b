/**
 * The API's check for a URL field it stores and a page later frames, plays or
 * links (a calling widget's `url`, a timeline event's `timelineIFrame.url`,
 * `hs_call_recording_url`): the same rule the pages apply before they use it,
 * shared/url/safe-url.ts, so what a 2xx stored is what the CRM shows; and
 * for a URL the CRM itself fetches (a channel webhook, a recording), the
 * outbound rule of emulator/core/outbound/address.ts. The route's body schema and
 * the table's row schema (what an import is checked against) both use these,
 * so a URL refused by a route is refused by an import too.
 */
import { z } from 'zod'
import { checkUrl } from '../../../shared/url/safe-url.ts'
import { vendorUrlProblem } from '../outbound/address.ts'

/** Why `value` is not a URL the CRM stores (`https` only when `httpsOnly`), or null. */
export function urlFieldProblem(value: string, httpsOnly = false): string | null {
  const verdict = checkUrl(value)
  if (!verdict.ok) return `must be an absolute http(s) URL: it ${verdict.reason}`
  if (httpsOnly && !verdict.href.startsWith('https:')) return 'must be an https URL: only secure URLs are accepted here'
  return null
}

/** A zod string field holding such a URL; its issue message is urlFieldProblem's. */
export const urlField = () =>
  z.string().superRefine((value, ctx) => {
    const problem = urlFieldProblem(value)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

/** Why `value` is not a URL the CRM fetches (https, or http on this machine), or null. */
export const vendorUrlFieldProblem = (value: string): string | null => vendorUrlProblem(value)

/** A zod string field holding a URL the CRM fetches; its issue message is vendorUrlFieldProblem's. */
export const vendorUrlField = () =>
  z.string().superRefine((value, ctx) => {
    const problem = vendorUrlFieldProblem(value)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })
