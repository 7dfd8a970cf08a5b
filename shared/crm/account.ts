/**
 * The customer account, developer app and keys of a fresh emulator. They are
 * fixed so that a calling app can be configured once; they are local test
 * values, not secrets. The API authenticates with them, the harness shows them
 * and sends the account's ids in DIAL_NUMBER, and the tests log in with them.
 */
export const ACCOUNT = {
  hubId: 123456,
  hubDomain: 'demo.local',
  userId: 1,
  userEmail: 'demo.user@demo.local',
  /** The user's owner id (hubspot_owner_id; DIAL_NUMBER's ownerId). */
  ownerId: 1,
  appId: 1001,
  clientId: 'local-client',
  clientSecret: 'local-secret',
  developerApiKey: 'dev-key-local',
  privateAppToken: 'pat-local',
  /** A private app of an integration: like pat-local, but counted by the rate limits. */
  integrationPrivateAppToken: 'pat-app-local',
} as const

/** The calling app whose widget the harness hosts: the account's developer app. */
export const CALLING_APP_ID = ACCOUNT.appId

/** The account's country: a phone number written without a country code is read as a number of this country. */
export const ACCOUNT_COUNTRY = 'US'

/** A user of the account as the owners API lists it (PublicOwner), with the team it belongs to. */
export interface AccountOwner {
  /** The owner id: what `hubspot_owner_id` holds. */
  id: string
  userId: number
  email: string
  firstName: string
  lastName: string
  /** A deactivated user: listed only with `archived=true`, and no longer a valid `hubspot_owner_id`. */
  archived: boolean
  team: { id: string; name: string }
}

/**
 * The account's users, as owners: the signed-in user first (ACCOUNT.ownerId,
 * whose user id is ACCOUNT.userId), two teammates, and one deactivated user.
 */
export const OWNERS: readonly AccountOwner[] = [
  { id: String(ACCOUNT.ownerId), userId: ACCOUNT.userId, email: ACCOUNT.userEmail, firstName: 'Demo', lastName: 'User', archived: false, team: { id: '101', name: 'Support' } },
  { id: '2', userId: 2, email: 'alex.rivera@demo.local', firstName: 'Alex', lastName: 'Rivera', archived: false, team: { id: '101', name: 'Support' } },
  { id: '3', userId: 3, email: 'sam.okoro@demo.local', firstName: 'Sam', lastName: 'Okoro', archived: false, team: { id: '102', name: 'Sales' } },
  { id: '4', userId: 4, email: 'former.agent@demo.local', firstName: 'Former', lastName: 'Agent', archived: true, team: { id: '101', name: 'Support' } },
]

/** Whether `id` is the owner id of an active (not deactivated) owner of the account. */
export function isActiveOwnerId(id: string): boolean {
  return OWNERS.some((owner) => owner.id === id && !owner.archived)
}
