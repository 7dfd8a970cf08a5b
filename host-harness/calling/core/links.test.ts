import type { ReplyLink } from './calling-types.ts'
import { buildLinkIndex } from './links.ts'

const sync = { type: 'SYNC', messageId: 'host1_1' }
const ack = { type: 'SYNC_ACK', messageId: 'host1_1' }
const outgoing = { type: 'OUTGOING_CALL_STARTED', messageId: 'w_1', data: { externalCallId: 'c1' } }
const created = { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'host1_2', data: { engagementId: 5 } }
const unrelated = { type: 'VISIBILITY_CHANGED', messageId: 'host1_3', data: {} }

const traffic = [
  { seq: 1, direction: 'out' as const, type: 'SYNC', message: sync },
  { seq: 2, direction: 'in' as const, type: 'SYNC_ACK', message: ack },
  { seq: 3, direction: 'in' as const, type: 'OUTGOING_CALL_STARTED', message: outgoing },
  { seq: 4, direction: 'out' as const, type: 'CREATE_ENGAGEMENT_SUCCEEDED', message: created },
  { seq: 5, direction: 'out' as const, type: 'VISIBILITY_CHANGED', message: unrelated },
]

test('SYNC and SYNC_ACK are linked by their shared messageId', () => {
  const index = buildLinkIndex(traffic, [])
  expect(index.get(1)).toEqual([2])
  expect(index.get(2)).toEqual([1])
})

test('a recorded reply is linked both ways with its request; other entries stay unlinked', () => {
  const link: ReplyLink = { request: outgoing, requestType: 'OUTGOING_CALL_STARTED', requestMessageId: 'w_1', replyMessageId: 'host1_2' }
  const index = buildLinkIndex(traffic, [link])
  expect(index.get(3)).toEqual([4])
  expect(index.get(4)).toEqual([3])
  expect(index.get(5)).toBeUndefined()
})

test('a request received as a copy is found by type and messageId', () => {
  const link: ReplyLink = {
    request: { ...outgoing },
    requestType: 'OUTGOING_CALL_STARTED',
    requestMessageId: 'w_1',
    replyMessageId: 'host1_2',
  }
  expect(buildLinkIndex(traffic, [link]).get(4)).toEqual([3])
})

test('one request can have several replies, and a duplicated reply links every copy', () => {
  const incoming = { type: 'INCOMING_CALL', messageId: 'w_9', data: {} }
  const match = { type: 'CALLER_ID_MATCH_SUCCEEDED', messageId: 'h_a', data: {} }
  const create = { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'h_b', data: {} }
  const entries = [
    { seq: 10, direction: 'in' as const, type: 'INCOMING_CALL', message: incoming },
    { seq: 11, direction: 'out' as const, type: 'CALLER_ID_MATCH_SUCCEEDED', message: match },
    { seq: 12, direction: 'out' as const, type: 'CALLER_ID_MATCH_SUCCEEDED', message: match },
    { seq: 13, direction: 'out' as const, type: 'CREATE_ENGAGEMENT_SUCCEEDED', message: create },
  ]
  const links: ReplyLink[] = [
    { request: incoming, requestType: 'INCOMING_CALL', requestMessageId: 'w_9', replyMessageId: 'h_a' },
    { request: incoming, requestType: 'INCOMING_CALL', requestMessageId: 'w_9', replyMessageId: 'h_b' },
  ]
  expect(buildLinkIndex(entries, links).get(10)).toEqual([11, 12, 13])
})
