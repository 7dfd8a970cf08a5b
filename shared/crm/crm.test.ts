import { callStatusOf, FINAL_CALL_STATUSES } from './call-status.ts'
import { CALL_OUTCOMES, callOutcomeId } from './call-outcomes.ts'
import { isSamePhoneNumber, phoneCountry, phoneKey, phoneMatcher } from './phone.ts'
import { parseInstant } from './time.ts'
import { parseObjectType } from './object-types.ts'
import { defaultAssociationType } from './association-types.ts'

test('callEndStatus → hs_call_status, each pair stated here', () => {
  expect(callStatusOf('COMPLETED')).toBe('COMPLETED')
  expect(callStatusOf('FAILED')).toBe('FAILED')
  expect(callStatusOf('CANCELED')).toBe('CANCELED')
  expect(callStatusOf('BUSY')).toBe('BUSY')
  expect(callStatusOf('NO_ANSWER')).toBe('NO_ANSWER')
  expect(callStatusOf('REJECTED')).toBe('CANCELED')
  expect(callStatusOf('MISSED')).toBe('MISSED')
})

test('call outcome ids are the default outcomes of an account', () => {
  expect(callOutcomeId('CONNECTED')).toBe('f240bbac-87c9-4f6e-bf70-924b57d47db7')
  expect(callOutcomeId('NO_ANSWER')).toBe('73a0d17f-1163-4015-bdd5-ec830791da20')
  expect(CALL_OUTCOMES.map((o) => o.label)).toEqual(['Connected', 'Left voicemail', 'Left live message', 'No answer', 'Busy', 'Wrong number'])
})

test('object types in every spelling, and the call association ids', () => {
  expect(['contacts', 'contact', 'CONTACT', '0-1', ' Contact '].map(parseObjectType)).toEqual(['contacts', 'contacts', 'contacts', 'contacts', 'contacts'])
  expect(parseObjectType('0-5')).toBe('tickets')
  expect(parseObjectType('widgets')).toBeUndefined()
  expect(parseObjectType(7)).toBeUndefined()
  expect(defaultAssociationType('calls', 'contacts')?.typeId).toBe(194)
  expect(defaultAssociationType('calls', 'companies')?.typeId).toBe(182)
  expect(defaultAssociationType('calls', 'deals')?.typeId).toBe(206)
  expect(defaultAssociationType('calls', 'tickets')?.typeId).toBe(220)
})

test('one number however it is written; another country code is another number', () => {
  for (const written of ['+1 617 555 0101', '+16175550101', '617.555.0101', '(617) 555-0101', '1 617 555 0101', '001 617 555 0101']) {
    expect(phoneKey(written)).toBe('+16175550101')
  }
  expect(isSamePhoneNumber('+44 617 555 0101', '+1 617 555 0101')).toBe(false)
  expect(isSamePhoneNumber('+44 20 7946 0958', '+442079460958')).toBe(true)
  expect(isSamePhoneNumber('no digits', 'none either')).toBe(false)
  expect(phoneKey('+1 617 555 0101 ext. 12')).toBe('+16175550101;ext=12')
})

test('the country of a number', () => {
  expect(phoneCountry('+353 1 555 0101')).toBe('IE')
  expect(phoneCountry('+44 20 7946 0958')).toBe('GB')
  expect(phoneCountry('+1 617 555 0101')).toBe('US')
  expect(phoneCountry('+1 555 010 0000')).toBe('US')
  expect(phoneCountry('0617')).toBe('US')
})

test('instants: epoch ms or ISO 8601, a time with no zone is UTC, impossible dates refused', () => {
  expect(parseInstant(1767225600000)).toBe(1767225600000)
  expect(parseInstant('1767225600000')).toBe(1767225600000)
  expect(parseInstant('2026-01-01T01:00:00+01:00')).toBe(1767225600000)
  expect(parseInstant('2026-01-01T00:00:00')).toBe(1767225600000)
  expect(parseInstant('2026-01-01')).toBe(1767225600000)
  for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '2020-02-30', '2020-01-01T24:00:00Z', 1.5, '9'.repeat(17), Number.NaN, null]) {
    expect(parseInstant(bad)).toBeUndefined()
  }
})

test('the final statuses are the ones a call ends in', () => {
  expect([...FINAL_CALL_STATUSES].sort()).toEqual(['BUSY', 'CANCELED', 'COMPLETED', 'FAILED', 'MISSED', 'NO_ANSWER'])
})

test('a matcher made once compares many candidates by number', () => {
  const same = phoneMatcher('(617) 555-0101')
  expect(['+1 617 555 0101', '16175550101', '+1 617 555 0102', '+44 617 555 0101', '', '0101'].map(same)).toEqual([true, true, false, false, false, false])
  expect(phoneMatcher('no digits')('no digits')).toBe(false)
})
