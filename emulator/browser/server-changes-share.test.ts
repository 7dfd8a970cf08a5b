import type { ReadyEvent } from '../core/data/change-stream.ts'
import { shareChangeStream, type SharePort } from './server-changes-share.ts'
import type { StreamEvent } from './server-changes.ts'

const port = () => {
  const got: StreamEvent[] = []
  return { got, postMessage: (event: StreamEvent) => got.push(event) } satisfies SharePort & { got: StreamEvent[] }
}

const ready = (seq: number, epoch = 'run-1'): ReadyEvent => ({ mode: 'server', epoch, seq, tables: ['a', 'b'] })

test('one follower for every page; a page that joins a live stream is first told where it stands', () => {
  const follows: Array<(event: StreamEvent) => void> = []
  const share = shareChangeStream((emit) => follows.push(emit))
  const first = port()
  share.add(first)
  expect(follows).toHaveLength(1)
  const emit = follows[0] as (event: StreamEvent) => void
  emit({ type: 'ready', ready: ready(3) })
  emit({ type: 'change', change: { tables: ['a'], seq: 4 } })

  // The second page joins after commit 4: its first event says the stream stands at 4.
  const second = port()
  share.add(second)
  expect(follows).toHaveLength(1)
  expect(second.got).toEqual([{ type: 'ready', ready: ready(4) }])
  emit({ type: 'change', change: { tables: ['b'], seq: 5 } })
  expect(first.got.map((e) => e.type)).toEqual(['ready', 'change', 'change'])
  expect(second.got.at(-1)).toEqual({ type: 'change', change: { tables: ['b'], seq: 5 } })

  // While the stream is down, a page that joins hears nothing until the reconnect's ready, which every page gets.
  emit({ type: 'down' })
  const third = port()
  share.add(third)
  expect(third.got).toEqual([])
  emit({ type: 'ready', ready: ready(0, 'run-2') })
  for (const each of [first, second, third]) expect(each.got.at(-1)).toEqual({ type: 'ready', ready: ready(0, 'run-2') })
})
