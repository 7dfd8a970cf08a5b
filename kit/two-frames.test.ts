import type { RecordedMessage, WireDirection } from './message-log.ts'
import { placementHandshakeProblem } from './two-frames.ts'

const RECORD_PAGE = 'http://127.0.0.1:1/?placement=window#/contacts/1'
const WINDOW_PAGE = 'http://127.0.0.1:1/?placement=window#/calling-integration-popup-ui/123456'

let seq = 0
function record(type: string, direction: WireDirection, frameUrl: string, data: Record<string, unknown> = {}): RecordedMessage {
  seq += 1
  return { seq, time: seq, frameUrl, topFrame: direction === 'from-widget', origin: 'x', fromParent: direction === 'to-widget', data: { type, ...data }, direction, type }
}
const sync = (iframeLocation: string, usesCallingWindow: boolean) => record('SYNC', 'to-widget', 'http://w/', { iframeLocation, usesCallingWindow })
const ack = (page: string) => record('SYNC_ACK', 'from-widget', page)

test('the window placement needs both frames: the window and the remote beside it, each told usesCallingWindow and answering', () => {
  const both = [sync('remote', true), ack(RECORD_PAGE), sync('window', true), ack(WINDOW_PAGE)]
  expect(placementHandshakeProblem(both, 'window', WINDOW_PAGE)).toBeNull()
  expect(placementHandshakeProblem([sync('window', true), ack(WINDOW_PAGE)], 'window', WINDOW_PAGE)).toMatch(/no SYNC told a frame iframeLocation "remote"/)
  expect(placementHandshakeProblem([sync('remote', false), sync('window', true), ack(WINDOW_PAGE)], 'window', WINDOW_PAGE)).toMatch(/"remote" with usesCallingWindow true/)
  expect(placementHandshakeProblem([sync('remote', true), sync('window', true), ack(WINDOW_PAGE)], 'window', WINDOW_PAGE)).toMatch(/in the remote .* never answered/)
  expect(placementHandshakeProblem([sync('remote', true), ack(RECORD_PAGE), sync('window', true)], 'window', WINDOW_PAGE)).toMatch(/in the calling window .* never answered/)
})

test('the other placements: one frame, whose SYNC names the placement (also under data, as older SDKs read it)', () => {
  expect(placementHandshakeProblem([sync('widget', false)], 'widget', null)).toBeNull()
  expect(placementHandshakeProblem([record('SYNC', 'to-widget', 'http://w/', { data: { iframeLocation: 'remote' } })], 'remote', null)).toBeNull()
  expect(placementHandshakeProblem([sync('widget', false)], 'remote', null)).toMatch(/did not place the widget in the remote placement: its SYNC says iframeLocation "widget"/)
  expect(placementHandshakeProblem([], 'widget', null)).toMatch(/iframeLocation undefined/)
})
