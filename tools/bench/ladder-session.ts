/**
 * The ladder benchmark's session: the call recorded by the harness
 * (shared/traffic/testing/recorded-call.json) played again until 10,000 SDK messages,
 * as a traffic file. `npx tsx tools/bench/ladder-session.ts <file>` writes it for the browser
 * part of the benchmark (tools/bench/ladder-section.mjs) and prints its counts and the size of
 * its SVG as JSON; tools/bench/ladder.bench.ts imports it.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { buildLadder } from '../../shared/traffic/ladder.ts'
import { renderLadderSvg } from '../../shared/traffic/ladder-svg.ts'
import { repeatRecording } from '../../shared/traffic/testing/fixtures.ts'
import { parseTrafficFile, stringifyTrafficFile, type TrafficFile } from '../../shared/traffic/traffic-file.ts'

export const LADDER_MESSAGES = 10_000

export function ladderSession(): TrafficFile {
  const recorded = parseTrafficFile(readFileSync(new URL('../../shared/traffic/testing/recorded-call.json', import.meta.url), 'utf8'))
  if (!recorded.ok) throw new Error(recorded.error)
  const file = repeatRecording(recorded.file, LADDER_MESSAGES)
  file.messages = file.messages.slice(0, LADDER_MESSAGES)
  const last = file.messages.at(-1)!.seq
  file.requests = file.requests.filter((r) => (r.causeSeq ?? 0) <= last && (r.afterSeq ?? 0) <= last)
  return file
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\u0000') && process.argv[2]) {
  const file = ladderSession()
  writeFileSync(process.argv[2], stringifyTrafficFile(file))
  const model = buildLadder(file)
  console.log(JSON.stringify({ messages: file.messages.length, requests: file.requests.length, arrows: model.rows.length, calls: model.calls.length, svgBytes: Buffer.byteLength(renderLadderSvg(model)) }))
}
