/**
 * Timeline event templates as the templates panel edits them, and the
 * conversions to and from the API's bodies.
 */
import { api } from '../lib/api-client.ts'
import { ACCOUNT } from '../../shared/crm/account.ts'

export const TEMPLATES_PATH = `/crm/v3/timeline/${ACCOUNT.appId}/event-templates`
/** The emulator's preview route: renders templates with sample data, nothing stored. */
export const PREVIEW_PATH = '/_ringside/v1/timeline/preview'

export const TOKEN_TYPES = ['string', 'number', 'enumeration', 'date'] as const
export type TokenType = (typeof TOKEN_TYPES)[number]
export const TEMPLATE_OBJECT_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const

export interface ApiToken {
  name: string
  label: string
  type: TokenType
  options?: Array<{ value: string; label: string }>
  objectPropertyName?: string
}

export interface ApiTemplate {
  id: string
  name: string
  objectType: string
  headerTemplate?: string
  detailTemplate?: string
  tokens: ApiToken[]
  createdAt?: string
  updatedAt?: string
}

/** A token row in the editor: options as text, one `value=Label` per line. */
export interface TokenDraft {
  key: number
  name: string
  label: string
  type: TokenType
  optionsText: string
  objectPropertyName: string
}

export interface TemplateDraft {
  id?: string
  name: string
  objectType: string
  headerTemplate: string
  detailTemplate: string
  tokens: TokenDraft[]
}

let nextKey = 1
export const newTokenKey = () => nextKey++

export function emptyDraft(): TemplateDraft {
  return { name: '', objectType: 'contacts', headerTemplate: '', detailTemplate: '', tokens: [] }
}

export function emptyToken(): TokenDraft {
  return { key: newTokenKey(), name: '', label: '', type: 'string', optionsText: '', objectPropertyName: '' }
}

export function parseOptions(text: string): Array<{ value: string; label: string }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const eq = line.indexOf('=')
      if (eq < 0) return { value: line, label: line }
      const value = line.slice(0, eq).trim()
      const label = line.slice(eq + 1).trim()
      return { value, label: label || value }
    })
}

export function formatOptions(options: ApiToken['options']): string {
  return (options ?? []).map((o) => (o.label === o.value ? o.value : `${o.value}=${o.label}`)).join('\n')
}

export function toDraft(template: ApiTemplate): TemplateDraft {
  return {
    id: template.id,
    name: template.name,
    objectType: template.objectType,
    headerTemplate: template.headerTemplate ?? '',
    detailTemplate: template.detailTemplate ?? '',
    tokens: template.tokens.map((t) => ({
      key: newTokenKey(),
      name: t.name,
      label: t.label,
      type: t.type,
      optionsText: formatOptions(t.options),
      objectPropertyName: t.objectPropertyName ?? '',
    })),
  }
}

export function tokenBody(token: TokenDraft): ApiToken {
  return {
    name: token.name.trim(),
    label: token.label.trim(),
    type: token.type,
    ...(token.type === 'enumeration' && { options: parseOptions(token.optionsText) }),
    ...(token.objectPropertyName.trim() !== '' && { objectPropertyName: token.objectPropertyName.trim() }),
  }
}

/** POST body (create) or PUT body (update: id, no objectType change). */
export function templateBody(draft: TemplateDraft): Record<string, unknown> {
  const common = {
    name: draft.name,
    headerTemplate: draft.headerTemplate,
    detailTemplate: draft.detailTemplate,
    tokens: draft.tokens.map(tokenBody),
  }
  return draft.id === undefined ? { ...common, objectType: draft.objectType } : { id: draft.id, ...common }
}

/** A plausible sample value for previewing a token. */
export function sampleValue(token: TokenDraft, now: number = Date.now()): string {
  switch (token.type) {
    case 'number':
      return '42'
    case 'date':
      return String(now)
    case 'enumeration':
      return parseOptions(token.optionsText)[0]?.value ?? ''
    case 'string':
      return `Sample ${token.label.trim() || token.name.trim() || 'text'}`
  }
}

export async function listTemplates(): Promise<ApiTemplate[]> {
  const body = await api.get<{ results: ApiTemplate[] }>(TEMPLATES_PATH, { developerKey: true })
  return body.results
}

export async function saveTemplate(draft: TemplateDraft): Promise<ApiTemplate> {
  const body = templateBody(draft)
  return draft.id === undefined
    ? api.post<ApiTemplate>(TEMPLATES_PATH, body, { developerKey: true })
    : api.put<ApiTemplate>(`${TEMPLATES_PATH}/${encodeURIComponent(draft.id)}`, body, { developerKey: true })
}

export async function deleteTemplate(id: string): Promise<void> {
  await api.delete(`${TEMPLATES_PATH}/${encodeURIComponent(id)}`, { developerKey: true })
}

export interface PreviewInput {
  headerTemplate: string
  detailTemplate: string
  tokens: Record<string, string>
  extraData?: unknown
  timestamp?: number
}

export interface PreviewResult {
  /** Rendered header HTML (to be sanitized before display). */
  header: string
  /** Rendered detail HTML (to be sanitized before display). */
  detail: string
  /** The token values used. */
  tokens: Record<string, string>
}

export async function previewTemplate(input: PreviewInput): Promise<PreviewResult> {
  return api.post<PreviewResult>(PREVIEW_PATH, input)
}
