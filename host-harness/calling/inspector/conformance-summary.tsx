/**
 * The inspector's conformance summary: errors and warnings, a count per rule and severity, the call's log
 * line, the messages from other windows the host ignored, the open calls, and the findings tied to no message.
 */
import type { CallingState } from '../core/calling-store.ts'
import { CallLogLine } from '../core/call-log.tsx'
import { openCalls, RULES, type Finding, type RuleId } from '../core/conformance.ts'
import { plural } from '../../lib/format.ts'

export interface ConformanceSummaryProps {
  conformance: CallingState['conformance']
  call: CallingState['call']
  foreignDropped: CallingState['foreignDropped']
}

export function ConformanceSummary({ conformance, call, foreignDropped }: ConformanceSummaryProps) {
  const open = openCalls(conformance)
  const counts = new Map<string, { rule: RuleId; severity: Finding['severity']; count: number }>()
  for (const f of conformance.findings) {
    const key = `${f.rule}:${f.severity}`
    const row = counts.get(key) ?? { rule: f.rule, severity: f.severity, count: 0 }
    row.count += 1
    counts.set(key, row)
  }
  const errors = conformance.findings.filter((f) => f.severity === 'error').length
  const warnings = conformance.findings.length - errors

  return (
    <div className="inspector__summary" role="region" aria-label="Conformance summary">
      {conformance.findings.length === 0 ? (
        <span className="inspector__ok">No conformance findings.</span>
      ) : (
        <>
          <p className="inspector__totals">
            {plural(errors, 'error')}, {plural(warnings, 'warning')}
          </p>
          <ul className="inspector__rules">
            {[...counts.values()]
              .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
              .map((row) => (
                <li key={`${row.rule}:${row.severity}`} className={`finding finding--${row.severity}`}>
                  {row.severity}: {RULES[row.rule].title}: {row.count}
                </li>
              ))}
          </ul>
        </>
      )}
      {call ? <CallLogLine call={call} className="inspector__call-log" /> : null}
      {foreignDropped ? (
        <p className="finding finding--warning">
          Ignored {foreignDropped.count} {foreignDropped.count === 1 ? 'message' : 'messages'} from other windows (not the widget's
          iframe; last from {foreignDropped.lastOrigin || 'an opaque origin'}).
        </p>
      ) : null}
      {open.length > 0 ? (
        <p className="inspector__open">
          Open calls (not completed yet):{' '}
          {open.map((c) => `${c.externalCallId}${c.state === 'ghost' ? ' (ghost)' : ''}${c.createEngagement ? '' : ' (app-owned)'}`).join(', ')}
        </p>
      ) : null}
      {conformance.findings
        .filter((f) => f.seq === null)
        .map((f) => (
          <p key={f.id} className={`finding finding--${f.severity}`}>
            {f.severity}: {RULES[f.rule].title}: {f.message}
          </p>
        ))}
    </div>
  )
}
