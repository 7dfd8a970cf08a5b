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
