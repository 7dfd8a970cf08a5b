/**
 * The inspector's traffic as a traffic file (shared/traffic/traffic-file.ts): what Export JSON
 * downloads and what `window.__ringsideTraffic()` returns to test kits. Messages with their reply
 * links, the API requests the controller made (each with its cause), and the conformance findings.
 */
import { stringifyTrafficFile, TRAFFIC_FORMAT, TRAFFIC_VERSION, type TrafficFile, type TrafficMessage } from '../../../shared/traffic/traffic-file.ts'
import type { CallingState } from './calling-store.ts'
import { RULES } from './conformance.ts'
import { buildLinkIndex } from './links.ts'

export type ExportedState = Pick<CallingState, 'traffic' | 'links' | 'requests' | 'conformance' | 'currentSrc'>

export function trafficFileOf(state: ExportedState, now = new Date()): TrafficFile {
  const links = buildLinkIndex(state.traffic, state.links)
  const messages = state.traffic.map((e) => {
    const m: TrafficMessage = { seq: e.seq, time: e.time, direction: e.direction, type: e.type, valid: e.valid, message: e.message }
    if (e.reason !== undefined) m.reason = e.reason
    if (e.deprecation !== undefined) m.deprecation = e.deprecation
    if (e.deviations !== undefined) m.deviations = e.deviations
    if (e.beforeHandshake) m.beforeHandshake = true
    if (e.notSdk) m.notSdk = true
    if (e.fault !== undefined) m.fault = e.fault
    if (e.composed !== undefined) m.composed = e.composed
    if (e.truncated !== undefined) m.truncated = e.truncated
    if (e.frame !== undefined) m.frame = e.frame
    const partners = links.get(e.seq)
    if (partners !== undefined) m.linkedTo = partners
    return m
  })
  return {
    format: TRAFFIC_FORMAT,
    version: TRAFFIC_VERSION,
    exportedAt: now.toISOString(),
    source: 'harness',
    widgetUrl: state.currentSrc,
    messages,
    requests: state.requests,
    findings: state.conformance.findings.map((f) => ({
      seq: f.seq,
      severity: f.severity,
      rule: f.rule,
      title: RULES[f.rule].title,
      message: f.message,
      ...(f.externalCallId !== undefined ? { externalCallId: f.externalCallId } : {}),
    })),
  }
}

/** The getter test kits read: `window.__ringsideTraffic()` → the traffic file's JSON text. */
export const TRAFFIC_GETTER = '__ringsideTraffic'

/** Installs the getter on this page (the page whose host runs the widget); returns its removal. */
export function exposeTraffic(read: () => ExportedState): () => void {
  const scope = window as unknown as Record<string, unknown>
  const getter = () => stringifyTrafficFile(trafficFileOf(read()))
  scope[TRAFFIC_GETTER] = getter
  return () => {
    if (scope[TRAFFIC_GETTER] === getter) delete scope[TRAFFIC_GETTER]
  }
}
