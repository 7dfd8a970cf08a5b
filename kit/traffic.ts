/**
 * The traffic of a test, as a saved traffic file (shared/traffic/), and its
 * ladder as SVG: what check-widget's reports and the kit's attachments draw.
 *
 * The harness's own record comes first: the page that hosts the widget (the
 * harness page, or the calling window) offers the inspector's export, with
 * the CRM API requests the host made and the inspector's findings. When no
 * page offers it (an older harness), the kit's own recording of the wire
 * stands in: the messages alone, which the ladder judges with the host's
 * judgement.
 */
import type { Page } from '@playwright/test'
import { buildLadder } from '../shared/traffic/ladder.ts'
import { renderLadderSvg } from '../shared/traffic/ladder-svg.ts'
import { mergeTrafficFiles } from '../shared/traffic/merge.ts'
import { parseTrafficFile, TRAFFIC_FORMAT, TRAFFIC_VERSION, type TrafficFile, type TrafficMessage } from '../shared/traffic/traffic-file.ts'
import type { RecordedMessage } from './message-log.ts'

/** The kit's recording of the wire (widget ↔ host only) as a traffic file with no requests. */
export function trafficFromLog(log: readonly RecordedMessage[], widgetUrl: string | null): TrafficFile {
  const messages: TrafficMessage[] = []
  for (const record of log) {
    if (record.direction === 'other') continue
    const message: TrafficMessage = { seq: messages.length + 1, time: record.time, direction: record.direction === 'from-widget' ? 'in' : 'out', type: record.type, message: record.data }
    if (record.notSdk === true && record.direction === 'from-widget') message.notSdk = true
    messages.push(message)
  }
  return { format: TRAFFIC_FORMAT, version: TRAFFIC_VERSION, exportedAt: new Date().toISOString(), source: 'ringside kit (recorded wire)', widgetUrl, messages, requests: [] }
}

/** The harness's traffic export from `page`, or null when the page offers none (or it does not parse). */
export async function harnessTraffic(page: Page): Promise<TrafficFile | null> {
  const text = await page
    .evaluate(() => {
      const exported = (window as { __ringsideTraffic?: () => unknown }).__ringsideTraffic
      if (typeof exported !== 'function') return null
      // The traffic file's text, as the inspector's Export JSON writes it.
      const text = exported()
      return typeof text === 'string' ? text : JSON.stringify(text)
    })
    .catch(() => null)
  if (text === null) return null
  const parsed = parseTrafficFile(text)
  return parsed.ok ? parsed.file : null
}

/**
 * The traffic of a test: the harness's exports in `pages` (a record page and the calling window both run the
 * harness). The exports whose messages name their frame (the window placement: the calling window and the
 * remote beside it) are merged into one file, each message with its frame; else the one with the most
 * messages; else the recorded wire.
 */
export async function trafficOf(pages: readonly Page[], log: readonly RecordedMessage[], widgetUrl: string | null): Promise<TrafficFile> {
  let best: TrafficFile | null = null
  const framed: TrafficFile[] = []
  for (const page of pages) {
    const file = await harnessTraffic(page)
    if (file === null || file.messages.length === 0) continue
    if (file.messages.some((m) => m.frame !== undefined)) framed.push(file)
    if (file.messages.length > (best?.messages.length ?? -1)) best = file
  }
  if (framed.length > 1) return mergeTrafficFiles(framed)
  return best ?? trafficFromLog(log, widgetUrl)
}

/** Messages drawn in one attached ladder: a flood test's tens of thousands would make an SVG of megabytes. */
export const MAX_LADDER_MESSAGES = 1_500

/**
 * The ladder as an attachment: the SVG, or, should the traffic defeat the
 * drawing, a text that says so. A ladder is an aid: it never fails a test.
 */
export function ladderAttachment(traffic: TrafficFile, title: string): { name: string; body: string; contentType: string } {
  try {
    return { name: 'ladder.svg', body: ladderSvg(traffic, title), contentType: 'image/svg+xml' }
  } catch (error) {
    return { name: 'ladder.txt', body: `The ladder of this test's traffic could not be drawn: ${error instanceof Error ? error.message : String(error)}`, contentType: 'text/plain' }
  }
}

/** The ladder of every call in the traffic, as a standalone SVG document (the first MAX_LADDER_MESSAGES messages, and the requests up to the last of them). */
export function ladderSvg(traffic: TrafficFile, title: string): string {
  if (traffic.messages.length <= MAX_LADDER_MESSAGES) return renderLadderSvg(buildLadder(traffic), { title })
  const messages = [...traffic.messages].sort((a, b) => a.seq - b.seq).slice(0, MAX_LADDER_MESSAGES)
  const lastSeq = messages.at(-1)!.seq
  const lastTime = Math.max(...messages.map((m) => m.time))
  const requests = traffic.requests.filter((r) => (r.causeSeq ?? r.afterSeq ?? -1) <= lastSeq && r.time <= lastTime)
  const shown = `${title} (the first ${MAX_LADDER_MESSAGES.toLocaleString('en-US')} of ${traffic.messages.length.toLocaleString('en-US')} messages)`
  const findings = traffic.findings?.filter((f) => f.seq === null || f.seq <= lastSeq)
  return renderLadderSvg(buildLadder({ ...traffic, messages, requests, ...(findings !== undefined && { findings }) }), { title: shown })
}
