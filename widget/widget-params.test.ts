import { expect, test } from 'vitest'
import { DEFAULT_LINE_SETTINGS } from './phone-line.ts'
import { ACTING_PARAMS, parseWidgetParams } from './widget-params.ts'

test('no parameters give the defaults: logged out, available, answering line, no incoming call', () => {
  expect(parseWidgetParams('', true)).toEqual({
    line: { settings: DEFAULT_LINE_SETTINGS, scheduledIncoming: null },
    autoLogin: false,
    available: true,
    myNumber: '+16175550100',
    confirmDial: null,
    debugMode: false,
    problems: [],
    notice: null,
  })
})

test('the e2e parameters set the outcome, the timings, an incoming call and auto login', () => {
  const p = parseWidgetParams(
    '?outcome=no-answer&answerAfterMs=500&noAnswerAfterMs=1500&ringAfterMs=50&remoteHangUpAfterMs=3000&incoming=%2B1%20555%20123%204567&incomingAfterMs=250&autoLogin=1&available=0&fromNumber=%2B15550199&debug=true',
    true,
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
  const p = parseWidgetParams('?outcome=maybe&answerAfterMs=-5&noAnswerAfterMs=1e9&incoming=anonymous&autoLogin=perhaps', true)
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

test('without automation, the parameters that act with no click (autoLogin, incoming) are ignored and said; the others still apply', () => {
  const search = '?autoLogin=1&incoming=%2B15551234567&incomingAfterMs=0&outcome=busy&answerAfterMs=500'
  const p = parseWidgetParams(search, false)
  expect(p.autoLogin).toBe(false)
  expect(p.line.scheduledIncoming).toBeNull()
  expect(p.line.settings).toMatchObject({ outcome: 'busy', answerAfterMs: 500 })
  expect(p.notice).toMatch(/Ignored autoLogin and incoming .*navigator\.webdriver/)
  // Each acting parameter alone is ignored too, and automation applies every one.
  for (const name of ACTING_PARAMS) {
    expect(parseWidgetParams(`?${name}=%2B15551234567`, false).notice).toMatch(new RegExp(`Ignored ${name} `))
  }
  expect(parseWidgetParams(search, true)).toMatchObject({ autoLogin: true, notice: null, line: { scheduledIncoming: { from: '+15551234567', afterMs: 0 } } })
  expect(parseWidgetParams('?outcome=busy', false).notice).toBeNull()
})
