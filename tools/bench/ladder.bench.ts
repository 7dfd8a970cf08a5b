/**
 * The ladder of 10,000 SDK messages (the recorded call played again, tools/bench/ladder-session.ts),
 * in Node: reading the traffic file, building the model, choosing one call, the layout the
 * windowed view scrolls over, and the full standalone SVG document.
 *
 *   npx vitest bench --run --project node tools/bench/ladder.bench.ts
 */
import { bench, describe } from 'vitest'
import { buildLadder, selectCall } from '../../shared/traffic/ladder.ts'
import { layoutLadder, renderLadderSvg } from '../../shared/traffic/ladder-svg.ts'
import { parseTrafficFile, stringifyTrafficFile } from '../../shared/traffic/traffic-file.ts'
import { ladderSession } from './ladder-session.ts'

const file = ladderSession()
const text = stringifyTrafficFile(file)
const model = buildLadder(file)
const someCall = model.calls[Math.floor(model.calls.length / 2)]!.key
const OPTIONS = { time: 2000, warmupTime: 300 }

describe(`ladder of ${file.messages.length} messages and ${file.requests.length} API requests`, () => {
  bench('parseTrafficFile', () => void parseTrafficFile(text), OPTIONS)
  bench('buildLadder', () => void buildLadder(file), OPTIONS)
  bench('selectCall (one call of the model)', () => void selectCall(model, someCall), OPTIONS)
  bench('layoutLadder', () => void layoutLadder(model), OPTIONS)
  bench('renderLadderSvg (every arrow)', () => void renderLadderSvg(model), OPTIONS)
})
