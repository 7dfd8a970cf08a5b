import { expect, test } from 'vitest'
import { DEFAULT_LINE_SETTINGS } from './phone-line.ts'
import { parseWidgetParams } from './widget-params.ts'

test('no parameters give the defaults: logged out, available, answering line, no incoming call', () => {
  expect(parseWidgetParams('')).toEqual({
    line: { settings: DEFAULT_LINE_SETTINGS, scheduledIncoming: null },
    autoLogin: false,
    available: true,
    myNumber: '+15550100',
    debugMode: false,
    problems: [],
  })
})

test('the e2e parameters set the outcome, the timings, an incoming call and auto login', () => {
  const p = parseWidgetParams(
    '?outcome=no-answer&answerAfterMs=500&noAnswerAfterMs=1500&ringAfterMs=50&remoteHangUpAfterMs=3000&incoming=%2B1%20555%20123%204567&incomingAfterMs=250&autoLogin=1&available=0&fromNumber=%2B15550199&debug=true',
  )
  expect(p.problems).toEqual([])
  expect(p.line).toEqual({
    settings: {
      outcome: 'noAnswer',
      ringAfterMs: 50,
      answerAfterMs: 500,
      noAnswerAfterMs: 1500,
      remoteHangUpAfterMs: 3000,
      incomingGiveUpAfterMs: DEFAULT_LINE_SETTINGS.incomingGiveUpAfterMs,
    },
    scheduledIncoming: { from: '+15551234567', afterMs: 250 },
  })
  expect(p).toMatchObject({ autoLogin: true, available: false, myNumber: '+15550199', debugMode: true })
})

test('unusable values are ignored and named', () => {
  const p = parseWidgetParams('?outcome=maybe&answerAfterMs=-5&noAnswerAfterMs=1e9&incoming=anonymous&autoLogin=perhaps')
  expect(p.line.settings).toEqual(DEFAULT_LINE_SETTINGS)
  expect(p.line.scheduledIncoming).toBeNull()
  expect(p.autoLogin).toBe(false)
  expect(p.problems).toEqual([
    'outcome=maybe is not one of answer, busy, no-answer, fail',
    'incoming=anonymous is not a phone number',
    'answerAfterMs=-5 is not a whole number of milliseconds between 0 and 600000',
    'noAnswerAfterMs=1e9 is not a whole number of milliseconds between 0 and 600000',
    'autoLogin=perhaps is not 1/0 or true/false',
  ])
})
