/**
 * A record page: phone numbers (with Call buttons), associated records and
 * properties on the left, the record's activity on the right (the timeline
 * feature's view, handed in by the app). Nothing sits at the far right, where the
 * docked calling widget floats.
 */
import { useState, type ComponentType } from 'react'
import { startCall, useCanDial } from '../layout/calling-seam.tsx'
import { hrefs } from '../lib/hash-routes.ts'
import type { ObjectType } from '../lib/crm-types.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { useApiData } from '../lib/use-api-data.ts'
import { ApiRequestError } from '../lib/api-client.ts'
import { formatPropertyValue } from '../lib/format.ts'
import { OBJECT_CONFIG } from './object-config.ts'
import { loadRecordView, phoneNumbersOf, type RecordView } from './record-view.ts'
import type { CrmObject } from '../lib/crm-api.ts'
import './record-page.css'

/** What a record page shows in its centre column (the app passes the timeline feature's). */
export type RecordActivityView = ComponentType<{ objectType: ObjectType; record: CrmObject; callIds: readonly string[] }>

export function RecordPage({ objectType, id, activity: Activity }: { objectType: ObjectType; id: string; activity: RecordActivityView }) {
  const { state } = useApiData(() => loadRecordView(objectType, id), [objectType, id])
  const config = OBJECT_CONFIG[objectType]

  if (state.status === 'error' && state.error instanceof ApiRequestError && state.error.status === 404) {
    return (
      <section className="page">
        <h1>{config.singular} not found</h1>
        <p>
          There is no {config.singular.toLowerCase()} with id {id}. <a href={hrefs.list(objectType)}>Back to {config.plural.toLowerCase()}</a>
        </p>
      </section>
    )
  }
  const view = state.data
  if (!view) {
    return (
      <section className="page" aria-busy="true">
        {state.status === 'error' ? <ApiErrorView error={state.error} title={`Could not load this ${config.singular.toLowerCase()}`} /> : <p className="muted">Loading…</p>}
      </section>
    )
  }

  return (
    <div className="record-layout">
      <aside className="record-sidebar" aria-label={`${config.singular} details`}>
        <p className="breadcrumb">
          <a href={hrefs.list(objectType)}>{config.plural}</a>
        </p>
        <h1 className="record-title">{view.title}</h1>
        {state.status === 'error' && <ApiErrorView error={state.error} title="Could not refresh this record" />}
        <PhoneNumbers view={view} />
        <Associations view={view} />
        <PropertiesCard view={view} />
      </aside>
      <div className="record-center">
        <Activity objectType={objectType} record={view.record} callIds={view.callIds} />
      </div>
    </div>
  )
}

function PhoneNumbers({ view }: { view: RecordView }) {
  const canDial = useCanDial()
  const numbers = phoneNumbersOf(view)
  const reasonId = `dial-reason-${view.objectType}-${view.record.id}`
  return (
    <section className="card" aria-labelledby="phones-heading">
      <h2 id="phones-heading">Phone numbers</h2>
      {numbers.length === 0 ? (
        <p className="muted">No phone number on this record.</p>
      ) : (
        <ul className="phone-list">
          {numbers.map((n) => (
            <li key={n.property}>
              <span className="phone-label">{n.label}</span>
              <span className="phone-number">{n.number}</span>
              <button
                type="button"
                className="call-button"
                disabled={!canDial.ok}
                aria-label={`Call ${n.number}`}
                title={canDial.ok ? `Call ${n.number}` : canDial.reason}
                aria-describedby={canDial.ok ? undefined : reasonId}
                onClick={() =>
                  startCall({ objectType: view.objectType, objectId: view.record.id, phoneNumber: n.number, phoneProperty: n.property, record: view.record })
                }
              >
                Call
              </button>
            </li>
          ))}
        </ul>
      )}
      {numbers.length > 0 && !canDial.ok && (
        <p id={reasonId} className="dial-reason" role="note">
          {canDial.reason ?? 'The calling widget cannot dial right now.'}
        </p>
      )}
    </section>
  )
}

function PropertiesCard({ view }: { view: RecordView }) {
  const [showEmpty, setShowEmpty] = useState(false)
  const rows = view.definitions
    .filter((d) => !d.hidden)
    .map((d) => ({ def: d, value: view.record.properties[d.name] }))
    .filter((r) => showEmpty || (r.value !== null && r.value !== undefined && r.value !== ''))
  return (
    <section className="card" aria-labelledby="properties-heading">
      <h2 id="properties-heading">Properties</h2>
      <dl className="property-list">
        {rows.map(({ def, value }) => (
          <div key={def.name} className="property-row">
            <dt>{def.label}</dt>
            <dd>{formatPropertyValue(def.name, value, view.optionLabels[def.name])}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="link-button" onClick={() => setShowEmpty((s) => !s)}>
        {showEmpty ? 'Hide empty properties' : 'Show empty properties'}
      </button>
    </section>
  )
}

function Associations({ view }: { view: RecordView }) {
  const groups = (['contacts', 'companies', 'deals', 'tickets'] as const)
    .filter((t) => t !== view.objectType)
    .map((t) => ({ type: t, records: view.associated.filter((a) => a.objectType === t) }))
  return (
    <>
      {groups.map(({ type, records }) => (
        <section key={type} className="card" aria-labelledby={`assoc-${type}-heading`}>
          <h2 id={`assoc-${type}-heading`}>
            {OBJECT_CONFIG[type].plural} ({records.length})
          </h2>
          {records.length === 0 ? (
            <p className="muted">None associated.</p>
          ) : (
            <ul className="association-list">
              {records.map((r) => (
                <li key={r.id}>
                  <a href={hrefs.record(type, r.id)}>{r.title}</a>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </>
  )
}
