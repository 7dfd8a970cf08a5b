/**
 * Custom timeline events of one record, read through the emulator's
 * list-events-for-record route `GET /_ringside/v1/timeline/events?objectType=&objectId=`
 * (the real API has no such list; the CRM's own UI reads them internally).
 * Each event comes with its header and detail already rendered to HTML by
 * the emulator; the harness still sanitizes both before display. The response is checked with zod: an event the
 * harness cannot understand is skipped and counted, never rendered half-way.
 */
import { z } from 'zod'
import { api } from '../lib/api-client.ts'
import type { ObjectType } from '../lib/crm-types.ts'

const iframeSchema = z.object({
  linkLabel: z.string().catch(''),
  headerLabel: z.string().catch(''),
  url: z.string(),
  width: z.number().optional().catch(undefined),
  height: z.number().optional().catch(undefined),
})

const eventSchema = z.object({
  id: z.string(),
  eventTemplateId: z.string(),
  templateName: z.string().optional().catch(undefined),
  appId: z.number().optional().catch(undefined),
  appName: z.string().optional().catch(undefined),
  timestamp: z.union([z.string(), z.number()]).transform((t) => (typeof t === 'number' ? new Date(t).toISOString() : t)),
  headerHtml: z.string().catch(''),
  detailHtml: z.string().catch(''),
  timelineIFrame: iframeSchema.optional().catch(undefined),
})
export type TimelineEventView = z.infer<typeof eventSchema>

export interface RecordEvents {
  events: TimelineEventView[]
  /** Events in the response that did not have the expected shape. */
  skipped: number
}

export const RECORD_EVENTS_PATH = '/_ringside/v1/timeline/events'

export async function listRecordEvents(objectType: ObjectType, objectId: string): Promise<RecordEvents> {
  const body = await api.get<unknown>(RECORD_EVENTS_PATH, { query: { objectType, objectId } })
  const results = z.object({ results: z.array(z.unknown()) }).safeParse(body)
  if (!results.success) return { events: [], skipped: 0 }
  const events: TimelineEventView[] = []
  let skipped = 0
  for (const raw of results.data.results) {
    const parsed = eventSchema.safeParse(raw)
    if (parsed.success) events.push(parsed.data)
    else skipped++
  }
  return { events, skipped }
}
