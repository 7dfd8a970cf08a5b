/**
 * The readiness report's line when not one check ran (the harness could not
 * start): `ringside check-widget` reads it to exit 2, "could not run". A module
 * of its own, so the CLI reads it without loading the reporter.
 */
export const NOTHING_RAN = 'Widget readiness check: no conformance checks ran.'
