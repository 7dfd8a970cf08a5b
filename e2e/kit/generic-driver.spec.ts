/**
 * The generic driver's wordings without a browser: the button names of published
 * widgets it must find (and the ones it must leave alone), as a user reading the
 * screen would.
 */
import { expect, test } from '@playwright/test'
import { GENERIC_CONTROLS } from '../../kit/drivers/generic.ts'

type Step = keyof typeof GENERIC_CONTROLS
const finds = (step: Step, name: string) => {
  const control = GENERIC_CONTROLS[step]
  return !control.avoid.test(name) && control.names.some((pattern) => pattern.test(name))
}

test('finds the onboarding and emoji-labelled buttons of a published widget', () => {
  // An open-source WhatsApp calling widget: its sign-in screen, keypad, call and wrap-up screens.
  expect(finds('logIn', 'Get Started')).toBe(true)
  expect(finds('logIn', 'get-started')).toBe(true)
  expect(finds('placeCall', '📞 Call')).toBe(true)
  expect(finds('hangUp', '🔴 End Call')).toBe(true)
  expect(finds('completeWrapUp', 'Save & Close')).toBe(true)
})

test('leaves alone what is not the step', () => {
  expect(finds('logIn', 'Log out')).toBe(false)
  expect(finds('logIn', 'Getting started guide')).toBe(false)
  expect(finds('placeCall', 'End call')).toBe(false)
  expect(finds('completeWrapUp', 'Skip & Close')).toBe(false)
})
