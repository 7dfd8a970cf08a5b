import { ApiRequestError } from '../../lib/api-client.ts'
import { MAX_REFUSED, refusalReason, refusedContent, refusedLogs } from './refused-logs.ts'

const refusal = new ApiRequestError(
  400,
  {
    status: 'error',
    message: 'Property values were not valid: [...]',
    category: 'VALIDATION_ERROR',
    correlationId: 'c',
    errors: [{ message: `no-such-outcome was not one of the allowed options: [${'f240bbac-87c9-4f6e-bf70-924b57d47db7, '.repeat(5)}]`, code: 'INVALID_OPTION', context: { propertyName: ['hs_call_disposition'] } }],
  },
  'refused',
)

afterEach(() => refusedLogs.setState({ logs: [] }))

test('the reason names each refused property in a sentence, without the option list', () => {
  expect(refusalReason(refusal)).toBe('hs_call_disposition: no-such-outcome was not one of the allowed options (HTTP 400)')
  expect(refusalReason(new Error('network down'))).toBe('network down')
})

test('the notes and outcome the widget sent are kept, an engagement once, the newest MAX_REFUSED; a saved log clears its notice', () => {
  expect(refusedContent({ hs_call_body: 'Call back Tuesday', hs_call_disposition: 'x', hs_call_status: 'COMPLETED' })).toEqual({ notes: 'Call back Tuesday', outcome: 'x' })
  expect(refusedContent({ hs_call_body: '  ', hs_call_disposition: 5 })).toEqual({})
  const { note, saved } = refusedLogs.getState()
  for (let i = 0; i < MAX_REFUSED + 5; i++) note({ engagementId: String(i), externalCallId: `c${i}`, reason: 'r', at: i })
  note({ engagementId: '24', externalCallId: 'c24', reason: 'again', at: 99 })
  const logs = refusedLogs.getState().logs
  expect(logs).toHaveLength(MAX_REFUSED)
  expect(logs.filter((l) => l.engagementId === '24')).toEqual([expect.objectContaining({ reason: 'again' })])
  saved('24')
  expect(refusedLogs.getState().logs.some((l) => l.engagementId === '24')).toBe(false)
})
