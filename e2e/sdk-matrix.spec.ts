/**
 * The SDK version matrix: one widget written here (e2e/fixtures/sdk-matrix-widget) runs on
 * each published SDK release that changed the wire (versions.ts), loaded from that
 * release's own build, and is worked through its own buttons in the harness: the
 * handshake, an outbound call, an inbound call where the release has inbound calling, the
 * end and the completion, each read back through the API. The host logs every call as the
 * real CRM did, reports each release's older shapes as warnings that name the release, and
 * blames the widget for nothing its SDK could not do. One page per release.
 */
import { expect, test } from '@playwright/test'
import { Harness, type CallEngagement } from '../kit/harness.ts'
import { fixtureUrl, kitOrigins } from '../kit/origins.ts'
import { SDK_MATRIX, type SdkRelease } from './fixtures/sdk-matrix-widget/versions.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }

/** The one call engagement created since `before` (ids), once `done` holds for it. */
async function newCall(harness: Harness, before: ReadonlySet<string>, done: (call: CallEngagement) => boolean): Promise<CallEngagement> {
  let found: CallEngagement | undefined
  await expect
    .poll(async () => {
      const created = (await harness.engagements()).filter((c) => !before.has(c.id))
      found = created.length === 1 && done(created[0]!) ? created[0] : undefined
      return found === undefined ? `${created.length} new call(s): ${JSON.stringify(created.map((c) => c.properties))}` : 'logged'
    }, { timeout: 10_000 })
    .toBe('logged')
  return found!
}

async function callIds(harness: Harness): Promise<Set<string>> {
  return new Set((await harness.engagements()).map((c) => c.id))
}

async function findings(harness: Harness): Promise<{ errors: string[]; warnings: string[] }> {
  await harness.inspector.open()
  const items = await harness.inspector.region.getByRole('list', { name: /^Findings for/ }).getByRole('listitem').allTextContents()
  return { errors: items.filter((t) => t.startsWith('error:')), warnings: items.filter((t) => t.startsWith('warning:')) }
}

/** One call through the widget's buttons: started (by `start`), answered, hung up, and saved where the release can. */
async function workCall(harness: Harness, release: SdkRelease, start: () => Promise<void>, notes: string): Promise<CallEngagement> {
  const frame = harness.widget
  const status = frame.getByRole('status', { name: 'Widget status' })
  const before = await callIds(harness)
  const updates = await updatesSent(harness)
  await start()
  // The engagement reaches the widget by the reply its release routes (none in 0.0.6).
  if (release.engagementReply !== 'none') await expect(status).toContainText('engagement ')
  else await newCall(harness, before, () => true)
  await frame.getByRole('button', { name: 'Answer' }).click()
  await expect(status).toContainText('answered')
  await frame.getByRole('button', { name: 'Hang up' }).click()
  const ended = await newCall(harness, before, (c) => c.properties.hs_call_status === 'COMPLETED')
  if (release.complete === 'none') return ended
  await frame.getByLabel('Notes').fill(notes)
  await frame.getByRole('button', { name: 'Save call' }).click()
  // The host's answer: to the widget's handler from 0.2.0; an older SDK has none, the traffic log holds it.
  if (release.updateReply) await expect(status).toHaveAttribute('data-saved', 'yes')
  else await expect.poll(() => updatesSent(harness), { timeout: 10_000 }).toBe(updates + 1)
  if (release.complete === 'properties') return newCall(harness, before, (c) => c.properties.hs_call_body === notes)
  return ended
}

/** How many UPDATE_ENGAGEMENT_SUCCEEDED the host sent (its traffic log, as the inspector exports it). */
async function updatesSent(harness: Harness): Promise<number> {
  const text = await harness.page.evaluate(() => (window as unknown as { __ringsideTraffic(): string }).__ringsideTraffic())
  return (JSON.parse(text) as { messages: Array<{ type: string | null }> }).messages.filter((m) => m.type === 'UPDATE_ENGAGEMENT_SUCCEEDED').length
}

for (const release of SDK_MATRIX) {
  const ids = release.outgoing === 'externalCallId'
  test(`SDK ${release.version}: handshake, ${release.inbound ? 'outbound and inbound calls' : 'an outbound call'} logged through the widget's buttons, older shapes as warnings`, async ({ page, baseURL }) => {
    const harness = new Harness(page)
    await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'sdk-matrix-widget', { sdk: release.version }), route: `/contacts/${CONTACT.id}`, waitFor: 'handshake' })
    const frame = harness.widget
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText(`Matrix softphone on SDK ${release.version} (fixture)`)

    const outbound = await workCall(harness, release, async () => {
      await harness.pressCall(CONTACT.phone)
      await frame.getByRole('button', { name: 'Call', exact: true }).click()
    }, `Outbound notes on SDK ${release.version}`)
    expect(outbound.properties).toMatchObject({ hs_call_direction: 'OUTBOUND', hs_call_status: 'COMPLETED', hs_call_to_number: CONTACT.phone, hs_call_title: 'Call to Maria Garcia' })
    expect(Number(outbound.properties.hs_call_duration)).toBeGreaterThan(0)
    // The CRM stores the widget's own call id, never one the host made up for a call started without it.
    if (ids) expect(outbound.properties.hs_call_external_id).toMatch(/^matrix-/)
    else expect(outbound.properties.hs_call_external_id ?? null).toBeNull()

    if (release.inbound) {
      const inbound = await workCall(harness, release, () => frame.getByRole('button', { name: 'Incoming call' }).click(), `Inbound notes on SDK ${release.version}`)
      expect(inbound.properties).toMatchObject({ hs_call_direction: 'INBOUND', hs_call_status: 'COMPLETED', hs_call_from_number: CONTACT.phone, hs_call_title: 'Call from Maria Garcia' })
    }

    // The older shapes are warnings that name the release; nothing is an error, nothing blames the widget.
    await expect(async () => {
      const { errors, warnings } = await findings(harness)
      expect(errors).toEqual([])
      if (!ids) expect(warnings.some((w) => w.includes('no externalCallId, the shape of SDK 0.6 and older')), JSON.stringify(warnings)).toBe(true)
      if (release.outgoing === 'phoneNumber') expect(warnings.some((w) => w.includes('phoneNumber is deprecated: use toNumber')), JSON.stringify(warnings)).toBe(true)
      if (release.callPayloads) expect(warnings).toEqual([])
    }).toPass({ timeout: 10_000 })
    await expect(page.getByRole('alert')).toHaveCount(0)
  })
}
