/**
 * The one place where the app shell and the record pages meet the calling
 * integration (host-harness/calling). Until that module lands, these are
 * stand-ins that say so on screen and refuse to dial.
 */
import type { ReactNode } from 'react'

export interface StartCallInput {
  objectType: string
  objectId: string
  phoneNumber: string
  phoneProperty: string
  record: unknown
}

export function useCanDial(): { ok: boolean; reason?: string } {
  return { ok: false, reason: 'The calling integration is not loaded.' }
}

export function startCall(_input: StartCallInput): void {
  // Not loaded: useCanDial() keeps every Call button disabled.
}

export function configureCalling(_options: { navigate(objectType: string, objectId: string): boolean }): void {}

function Placeholder({ label }: { label: string }): ReactNode {
  return <p className="muted placeholder">{label} is not available (calling integration not loaded).</p>
}

export const CallingDock = () => <Placeholder label="The calling widget" />
export const InspectorPanel = () => <Placeholder label="The message inspector" />
export const FaultsPanel = () => <Placeholder label="Fault injection" />
export const ComposerPanel = () => <Placeholder label="The message composer" />
export const CallingStatusBadge = () => <span className="badge">calling: not loaded</span>
