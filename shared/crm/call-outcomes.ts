/**
 * Call outcomes (hs_call_disposition). The CRM stores an outcome by its id;
 * these are the ids of an account's six default outcomes
 * (https://developers.hubspot.com/docs/guides/api/crm/engagements/calls, hs_call_disposition).
 * The widget offers them at wrap-up and the API accepts exactly these.
 */
export const CALL_OUTCOMES = [
  { key: 'CONNECTED', label: 'Connected', id: 'f240bbac-87c9-4f6e-bf70-924b57d47db7' },
  { key: 'LEFT_VOICEMAIL', label: 'Left voicemail', id: 'b2cf5968-551e-4856-9783-52b3da59a7d0' },
  { key: 'LEFT_LIVE_MESSAGE', label: 'Left live message', id: 'a4c4c377-d246-4b32-a13b-75a56a4cd0ff' },
  { key: 'NO_ANSWER', label: 'No answer', id: '73a0d17f-1163-4015-bdd5-ec830791da20' },
  { key: 'BUSY', label: 'Busy', id: '9d9162e7-6cf3-4944-bf63-4dff82258764' },
  { key: 'WRONG_NUMBER', label: 'Wrong number', id: '17b47fee-58de-441e-a44c-c6300d46f273' },
] as const

export type CallOutcomeKey = (typeof CALL_OUTCOMES)[number]['key']

export function isCallOutcomeKey(value: string): value is CallOutcomeKey {
  return CALL_OUTCOMES.some((o) => o.key === value)
}

/** The CRM's outcome id for an outcome key. */
export function callOutcomeId(key: CallOutcomeKey): string {
  return CALL_OUTCOMES.find((o) => o.key === key)!.id
}
