/** The journeys a conformance run places, in the order the reports list them: a module of its own, which the reporter loads without the journey's code. */
export const JOURNEYS = ['outbound', 'inbound'] as const
export type JourneyKind = (typeof JOURNEYS)[number]
