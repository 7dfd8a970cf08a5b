// Plain-text tables for the benchmark output.

/** Renders rows (arrays of cells) under a header, columns padded to fit. */
export function renderTable(header, rows) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell)))
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0)))
  const line = (row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')
  const rule = widths.map((w) => '-'.repeat(w)).join('  ')
  return [line(all[0]), rule, ...all.slice(1).map(line)].join('\n')
}

/** Prints one section: title, table, notes. */
export function printSection(section) {
  console.log(`\n## ${section.title}\n`)
  console.log(renderTable(section.header, section.rows))
  for (const note of section.notes ?? []) console.log(`  ${note}`)
}

/** The p-th percentile (0..100) of already sorted numbers, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** A sorted copy of numbers, ascending (for percentile). */
export function sorted(samples) {
  return [...samples].sort((a, b) => a - b)
}

/**
 * Throughput and latency of requests timed as { start, ms } (performance.now()
 * clock) over the window [from, to]: those that ended in it count, whatever
 * they started (a request stalled across the window's start counts with its
 * whole latency). Returns { perSecond, p50Ms, p99Ms, requests, latencies (sorted) }.
 */
function windowStats(samples, from, to) {
  const inWindow = samples.filter((s) => s.start + s.ms >= from && s.start + s.ms <= to)
  const latencies = sorted(inWindow.map((s) => s.ms))
  return { perSecond: inWindow.length / ((to - from) / 1000), p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), requests: inWindow.length, latencies }
}

/**
 * The timed window of a load phase: a warm-up of min(2 s, 0.4 × ms) (a server
 * just started still compiles its hot paths), then `ms`,
 * prolonged until at least `minRequests` requests have ended in it (so that a
 * short run still measures something). Call `ended(sample)` as each request
 * ends, stop issuing requests once `over()`, then `stats(samples)`.
 */
export function loadWindow(ms, minRequests = 20) {
  const from = performance.now() + Math.min(2000, ms * 0.4)
  const to = from + ms
  let endedInWindow = 0
  let closedAt
  return {
    ended(sample) {
      if (sample.start + sample.ms >= from) endedInWindow++
    },
    over() {
      if (closedAt === undefined && performance.now() > to && endedInWindow >= minRequests) closedAt = performance.now()
      return closedAt !== undefined
    },
    stats(samples) {
      return windowStats(samples, from, closedAt ?? performance.now())
    },
  }
}
