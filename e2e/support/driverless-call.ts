/**
 * One call through the driverless fixture widget's own UI (e2e/fixtures/driverless-widget),
 * as a user works it in the harness: sign in, Call on a contact, Dial, Simulate answer,
 * End call, type the notes, Log call.
 */
import type { Page } from '@playwright/test'
import { Harness } from '../../kit/harness.ts'
import { fixtureUrl, kitOrigins } from '../../kit/origins.ts'

export const DRIVERLESS_CONTACT = { id: '1', phone: '+1 617 555 0101' } as const

/** The harness on the contact's page, after the widget's Log call with `notes`; `params` go to the fixture's URL. */
export async function logDriverlessCall(page: Page, baseURL: string | undefined, params: Record<string, string>, notes: string): Promise<Harness> {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'driverless-widget', params), route: `/contacts/${DRIVERLESS_CONTACT.id}`, waitFor: 'handshake' })
  const frame = harness.widget
  await frame.getByLabel('Work e-mail').fill('agent@acme.example')
  await frame.getByLabel('Password').fill('secret')
  await frame.getByRole('button', { name: 'Sign in' }).click()
  await harness.pressCall(DRIVERLESS_CONTACT.phone)
  await frame.getByRole('button', { name: 'Dial' }).click()
  await frame.getByRole('button', { name: 'Simulate answer' }).click()
  await frame.getByRole('button', { name: 'End call' }).click()
  await frame.getByLabel('Call notes').fill(notes)
  await frame.getByRole('button', { name: 'Log call' }).click()
  return harness
}
