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
