/**
 * The facts about calls and the CRM that the widget, the harness and the API
 * share: one home for each (no React, no DOM, no store).
 */
export { ACCOUNT, ACCOUNT_COUNTRY, CALLING_APP_ID } from './account.ts'
export { ASSOCIATION_TYPES, associationTypeFrom, associationTypesBetween, defaultAssociationType, type AssociationType } from './association-types.ts'
export { CALL_OUTCOMES, callOutcomeId, isCallOutcomeKey, type CallOutcomeKey } from './call-outcomes.ts'
export { CALL_STATUSES, callStatusOf, FINAL_CALL_STATUSES, type CallStatusValue } from './call-status.ts'
export { isRecord } from './guards.ts'
export { OBJECT_TYPE_NAMES, OBJECT_TYPES, parseObjectType, type ObjectType, type ObjectTypeInfo } from './object-types.ts'
export { isSamePhoneNumber, phoneCountry, phoneDigits, phoneKey } from './phone.ts'
export { parseInstant } from './time.ts'
