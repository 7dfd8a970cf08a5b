/**
 * Chromium CPU profiles over CDP (`Profiler` domain), summarised: where a page's main
 * thread spent its time, by function, self and total. For measurements (the flood
 * test writes one when FLOOD_PROFILE=1), never for assertions.
 */
import type { Page } from '@playwright/test'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
}

export interface ProfileRow {
  fn: string
  selfMs: number
  totalMs: number
}

/** Starts sampling `page`'s renderer (100 µs interval); the returned function stops it and summarises. */
export async function startCpuProfile(page: Page): Promise<() => Promise<{ rows: ProfileRow[]; totalMs: number }>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
    await cdp.detach()
    return summarise(profile)
  }
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame
  const file = url.split('/').pop() ?? ''
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}:${columnNumber + 1}` : ''}`
}

/** Self and total (inclusive, counted once per sample even under recursion) time per function, by self time. */
export function summarise(profile: Profile): { rows: ProfileRow[]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  let totalUs = 0
  for (let i = 0; i < samples.length; i += 1) {
    const us = deltas[i + 1] ?? 0 // a sample's time is the gap to the next one
    totalUs += us
    let node = byId.get(samples[i]!)
    if (!node) continue
    const leaf = label(node)
    self.set(leaf, (self.get(leaf) ?? 0) + us)
    const seen = new Set<string>()
    while (node) {
      const name = label(node)
      if (!seen.has(name)) {
        seen.add(name)
        total.set(name, (total.get(name) ?? 0) + us)
      }
      const up = parent.get(node.id)
      node = up === undefined ? undefined : byId.get(up)
    }
  }
  const rows = [...total.keys()].map((fn) => ({ fn, selfMs: (self.get(fn) ?? 0) / 1000, totalMs: (total.get(fn) ?? 0) / 1000 }))
  rows.sort((a, b) => b.selfMs - a.selfMs)
  return { rows, totalMs: totalUs / 1000 }
}

/** A text table: the top `n` by self time, then the top `n` by total time. */
export function formatProfile({ rows, totalMs }: { rows: ProfileRow[]; totalMs: number }, n = 40): string {
  const line = (r: ProfileRow) => `${r.selfMs.toFixed(1).padStart(9)} ${r.totalMs.toFixed(1).padStart(9)}  ${r.fn}`
  const byTotal = [...rows].sort((a, b) => b.totalMs - a.totalMs)
  return [
    `sampled ${totalMs.toFixed(0)} ms`,
    '   self ms  total ms  function (by self time)',
    ...rows.slice(0, n).map(line),
    '',
    '   self ms  total ms  function (by total time)',
    ...byTotal.slice(0, n).map(line),
  ].join('\n')
}
