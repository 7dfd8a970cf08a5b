#!/usr/bin/env node
// The backend half of a calling integration, against Ringside instead of the
// real CRM. It uses the official client, @hubspot/api-client, exactly as it
// would in production; only `basePath` points at Ringside.
//
//   1. OAuth code flow: "Connect" sends the browser to the CRM's consent page;
//      the CRM redirects back to /oauth/callback with a code, which this
//      server exchanges for tokens (server to server) and keeps.
//   2. Refresh: before each use, an access token that expires within a
//      minute is refreshed with the refresh token ("Refresh now" forces it).
//   3. A timeline event on a contact, from a template this app owns (created
//      with the developer API key if it is missing).
//   4. A call engagement for a call that did not start from the CRM page (a
//      desk-phone call), created with POST /crm/v3/objects/calls and
//      associated with the contact in the same request.
//   5. An inbound call: POST /crm/v3/extensions/calling/inbound-call logs it
//      and answers the caller-ID matches of the caller's number.
//   6. After the call: the recording is marked ready (the CRM then asks
//      GET /recordings/{externalId} here for its URL and fetches it from
//      /files/… with Range requests, answered 206) and a transcript is posted.
//   7. The channel connection: the CRM asks POST /channel-numbers here for the
//      numbers a help desk can connect.
//   Every request the CRM makes here carries HubSpot's v3 signature
//   (X-HubSpot-Signature-v3), checked with the client's Signature.isValid.
//
// Run beside `npm start`:  node examples/widget-backend/server.mjs
// Settings (environment): RINGSIDE_URL (http://127.0.0.1:7464), PORT (3000),
// AUTHORIZE_URL (its /oauth/authorize), CLIENT_ID, CLIENT_SECRET,
// DEVELOPER_API_KEY, APP_ID (Ringside's defaults).
import { createServer } from 'node:http'
import { randomBytes } from 'node:crypto'
import { Client, Signature } from '@hubspot/api-client'

const CRM = process.env.RINGSIDE_URL ?? 'http://127.0.0.1:7464'
const PORT = Number(process.env.PORT ?? 3000)
const CLIENT_ID = process.env.CLIENT_ID ?? 'local-client'
const CLIENT_SECRET = process.env.CLIENT_SECRET ?? 'local-secret'
const DEVELOPER_API_KEY = process.env.DEVELOPER_API_KEY ?? 'dev-key-local'
const APP_ID = Number(process.env.APP_ID ?? 1001)
const SELF = `http://127.0.0.1:${PORT}`
// Registered in the app's auth settings: the CRM redirects only to a registered URL, and takes http only on
// localhost (https://developers.hubspot.com/changelog/2018-03-05-oauth2-redirect-uri-served-over-http-localhost).
// A fresh Ringside has http://localhost:3000/oauth/callback registered; with another PORT, register yours
// (`npm start -- --redirect-url http://localhost:<PORT>/oauth/callback`, or Developer → OAuth).
const REDIRECT_URI = `http://localhost:${PORT}/oauth/callback`
const AUTHORIZE_URL = process.env.AUTHORIZE_URL ?? `${CRM}/oauth/authorize` // the CRM's consent page
const SCOPES = ['timeline', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.extensions_calling_transcripts.write']
const CALL_TO_CONTACT = 194 // HUBSPOT_DEFINED association type: call → contact
const OUR_NUMBER = '+18001231234' // the number callers dial; offered to the help desk as a channel

/** The tokens of the one portal that installed us. A real backend keeps them per portal, in its database. */
let tokens = null
/** OAuth `state` values we issued and have not seen come back yet. */
const pendingStates = new Set()
let lastResult = ''

const oauthClient = new Client({ basePath: CRM })
const developerClient = new Client({ developerApiKey: DEVELOPER_API_KEY, basePath: CRM })

function keep(response) {
  tokens = { accessToken: response.accessToken, refreshToken: response.refreshToken, expiresAt: Date.now() + response.expiresIn * 1000 }
}

/** A client with a fresh access token (refreshed when it expires within a minute, or when forced). */
async function crmClient({ forceRefresh = false } = {}) {
  if (!tokens) throw new Error('Not connected: press Connect first.')
  if (forceRefresh || tokens.expiresAt - Date.now() < 60_000) {
    keep(await oauthClient.oauth.tokensApi.create('refresh_token', undefined, undefined, CLIENT_ID, CLIENT_SECRET, tokens.refreshToken))
  }
  return new Client({ accessToken: tokens.accessToken, basePath: CRM })
}

/** Our timeline event template, created once with the developer API key. */
async function templateId() {
  const name = 'Desk phone call (example backend)'
  const existing = await developerClient.crm.timeline.templatesApi.getAll(APP_ID)
  const found = existing.results.find((t) => t.name === name)
  if (found) return found.id
  const created = await developerClient.crm.timeline.templatesApi.create(APP_ID, {
    name,
    objectType: 'contacts',
    headerTemplate: '{{direction}} desk-phone call with {{number}}',
    detailTemplate: 'Lasted {{seconds}} seconds. Logged by the example widget backend, not from the CRM page.',
    tokens: [
      { name: 'direction', label: 'Direction', type: 'string' },
      { name: 'number', label: 'Number', type: 'string' },
      { name: 'seconds', label: 'Duration (s)', type: 'number' },
    ],
  })
  return created.id
}

/** Steps 3 and 4: the timeline event and the call engagement, both on the contact. */
async function logDeskPhoneCall(contactId) {
  const client = await crmClient()
  const contact = await client.crm.contacts.basicApi.getById(contactId, ['firstname', 'lastname', 'phone'])
  const number = contact.properties.phone ?? 'unknown number'
  const seconds = 95
  const event = await client.crm.timeline.eventsApi.create({
    eventTemplateId: await templateId(),
    objectId: contactId,
    tokens: { direction: 'Inbound', number, seconds: String(seconds) },
  })
  const call = await client.crm.objects.calls.basicApi.create({
    properties: {
      hs_timestamp: new Date().toISOString(),
      hs_call_title: 'Answered on the desk phone',
      hs_call_body: 'Answered on the desk phone; logged by the example backend.',
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_duration: String(seconds * 1000),
      hs_call_from_number: number,
      hs_call_disposition: 'f240bbac-87c9-4f6e-bf70-924b57d47db7', // "Connected"
    },
    associations: [{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CALL_TO_CONTACT }] }],
  })
  return `Logged for ${contact.properties.firstname} ${contact.properties.lastname}: timeline event ${event.id} and call ${call.id}.`
}

/**
 * Our recordings: two minutes of a tone as 8 kHz 16-bit mono WAV, made once.
 * A real backend streams its stored recordings; what matters to the CRM is
 * that the file is served with Range support (206), so users can seek.
 */
const RECORDING_SECONDS = 120
const RECORDING = (() => {
  const rate = 8000
  const samples = rate * RECORDING_SECONDS
  const wav = Buffer.alloc(44 + samples * 2)
  wav.write('RIFF', 0)
  wav.writeUInt32LE(36 + samples * 2, 4)
  wav.write('WAVEfmt ', 8)
  wav.writeUInt32LE(16, 16) // fmt chunk size
  wav.writeUInt16LE(1, 20) // PCM
  wav.writeUInt16LE(1, 22) // mono
  wav.writeUInt32LE(rate, 24)
  wav.writeUInt32LE(rate * 2, 28) // bytes per second
  wav.writeUInt16LE(2, 32) // bytes per sample frame
  wav.writeUInt16LE(16, 34) // bits per sample
  wav.write('data', 36)
  wav.writeUInt32LE(samples * 2, 40)
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2)
  return wav
})()

/** The calls whose recordings we hold: external id → access token in the recording's URL. */
const recordings = new Map()
/** Requests the CRM made to this backend (newest last), shown on the page and at /crm-requests.json. */
const crmRequests = []
let lastInbound = null

/** Whether a request really comes from the CRM: HubSpot's v3 signature, made with our client secret. */
function signedByCrm(req, body) {
  const signature = req.headers['x-hubspot-signature-v3']
  const timestamp = Number(req.headers['x-hubspot-request-timestamp'])
  if (typeof signature !== 'string' || !Number.isFinite(timestamp)) return false
  try {
    return Signature.isValid({ signatureVersion: 'v3', method: req.method, url: `${SELF}${req.url}`, requestBody: body, clientSecret: CLIENT_SECRET, signature, timestamp })
  } catch {
    return false // a timestamp older than five minutes
  }
}

function logCrmRequest(req, verified) {
  crmRequests.push({ method: req.method, path: new URL(req.url ?? '/', SELF).pathname, range: req.headers.range ?? null, signed: verified })
  if (crmRequests.length > 200) crmRequests.shift()
}

/** Tell the CRM where to get recordings and numbers (developer API key), once per start. */
let registered = false
async function registerCallingEndpoints() {
  if (registered) return
  const calling = developerClient.crm.extensions.calling
  const urlToRetrieveAuthedRecording = `${SELF}/recordings/%s`
  try {
    await calling.recordingSettingsApi.registerUrlFormat(APP_ID, { urlToRetrieveAuthedRecording })
  } catch (error) {
    if (error?.code !== 409) throw error
    await calling.recordingSettingsApi.updateUrlFormat(APP_ID, { urlToRetrieveAuthedRecording })
  }
  const channel = { url: `${SELF}/channel-numbers`, isReady: true }
  try {
    await calling.channelConnectionSettingsApi.create(APP_ID, channel)
  } catch (error) {
    if (error?.code !== 409) throw error
    await calling.channelConnectionSettingsApi.update(APP_ID, channel)
  }
  registered = true
}

/** Step 5: an inbound call reached us; the CRM logs it and tells us who is calling. */
async function receiveInboundCall(from) {
  const client = await crmClient()
  await registerCallingEndpoints()
  const externalCallId = `inbound-${randomBytes(6).toString('hex')}`
  // The generated client has no method for inbound-call; apiRequest sends it with our token.
  const response = await client.apiRequest({
    method: 'POST',
    path: '/crm/v3/extensions/calling/inbound-call',
    body: {
      createEngagement: true,
      engagementProperties: { hs_call_title: 'Inbound call to the support line' },
      externalCallId,
      finalCallStatus: 'COMPLETED',
      fromNumber: { e164Number: from, phoneNumberType: 'MOBILE' },
      toNumber: { e164Number: OUR_NUMBER, phoneNumberType: 'FIXED_LINE' },
      potentialRecipientUserIds: [],
      callStartedTimestamp: new Date(Date.now() - RECORDING_SECONDS * 1000).toISOString(),
      durationSeconds: RECORDING_SECONDS,
    },
  })
  const answer = await response.json()
  if (!response.ok) throw Object.assign(new Error(`inbound-call failed with HTTP ${response.status}`), { body: answer })
  const found = await client.crm.objects.calls.searchApi.doSearch({
    filterGroups: [{ filters: [{ propertyName: 'hs_call_external_id', operator: 'EQ', value: externalCallId }] }],
    properties: ['hs_call_external_id'],
    limit: 1,
  })
  const callId = found.results[0]?.id
  lastInbound = { externalCallId, callId }
  const names = answer.callerIdMatches.map((m) =>
    m.callerIdType === 'CONTACT' ? `${m.firstName ?? ''} ${m.lastName ?? ''}`.trim() + ` (contact ${m.objectCoordinates.objectId})` : `${m.name} (company ${m.objectCoordinates.objectId})`,
  )
  return `Inbound call from ${from}: caller ID matches ${names.length ? names.join(', ') : 'nobody'}. Logged as call ${callId}.`
}

/** Step 6: the call is over: its recording is ready, and here is our transcript. */
async function afterInboundCall() {
  if (!lastInbound?.callId) throw new Error('Receive an inbound call first.')
  const client = await crmClient()
  const { externalCallId, callId } = lastInbound
  recordings.set(externalCallId, randomBytes(12).toString('hex'))
  await client.crm.extensions.calling.recordingSettingsApi.markAsReady({ engagementId: Number(callId) })
  // Transcripts have no generated client either.
  const response = await client.apiRequest({
    method: 'POST',
    path: '/crm/v3/extensions/calling/transcripts',
    body: {
      engagementId: Number(callId),
      transcriptCreateUtterances: [
        { speaker: { id: 'caller', name: 'Caller' }, text: 'Hi, my headset crackles on every call.', languageCode: 'en-US', startTimeMillis: 1000, endTimeMillis: 4000 },
        { speaker: { id: 'agent', name: 'Support agent' }, text: 'Let me replace it for you today.', languageCode: 'en-US', startTimeMillis: 90000, endTimeMillis: 94000 },
      ],
    },
  })
  const transcript = await response.json()
  if (!response.ok) throw Object.assign(new Error(`transcript failed with HTTP ${response.status}`), { body: transcript })
  return `Call ${callId}: recording marked ready and transcript ${transcript.id} posted.`
}

/** GET /recordings/{externalId}: the CRM asks where the recording is; we answer a URL with an access token. */
function recordingUrl(req, res, url) {
  const verified = signedByCrm(req, '')
  logCrmRequest(req, verified)
  const externalId = decodeURIComponent(url.pathname.slice('/recordings/'.length))
  const token = recordings.get(externalId)
  if (!verified) return res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad signature' }))
  if (!token) return res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no such recording' }))
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ authenticatedUrl: `${SELF}/files/${encodeURIComponent(externalId)}.wav?token=${token}` }))
}

/** GET /files/{externalId}.wav?token=…: the recording, with Range support (206, or 416 past the end). */
function recordingFile(req, res, url) {
  logCrmRequest(req, false)
  const externalId = decodeURIComponent(url.pathname.slice('/files/'.length).replace(/\.wav$/, ''))
  if (!recordings.has(externalId) || recordings.get(externalId) !== url.searchParams.get('token')) return res.writeHead(403).end()
  const size = RECORDING.length
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
  const headers = { 'content-type': 'audio/wav', 'accept-ranges': 'bytes' }
  if (!range || (range[1] === '' && range[2] === '')) return res.writeHead(200, { ...headers, 'content-length': size }).end(RECORDING)
  let start = range[1] === '' ? size - Number(range[2]) : Number(range[1])
  let end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1)
  start = Math.max(0, start)
  if (start >= size || end < start) return res.writeHead(416, { 'content-range': `bytes */${size}` }).end()
  res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 }).end(RECORDING.subarray(start, end + 1))
}

/** POST /channel-numbers: the numbers a help desk can connect (signed request from the CRM). */
async function channelNumbers(req, res) {
  let body = ''
  for await (const chunk of req) body += chunk
  const verified = signedByCrm(req, body)
  logCrmRequest(req, verified)
  if (!verified) return res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad signature' }))
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ e164PhoneNumber: OUR_NUMBER, friendlyName: 'Support line' }]))
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page() {
  const connect = new URL(AUTHORIZE_URL)
  const state = randomBytes(12).toString('hex')
  pendingStates.add(state)
  connect.search = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: SCOPES.join(' '), state }).toString()
  // eslint-disable-next-line ringside/url-sink -- AUTHORIZE_URL is this server's own configuration, not outside input
  const connectLink = `<a href="${escapeHtml(connect.href)}">Connect to the CRM (OAuth)</a>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example widget backend</title></head>
<body style="font: 15px system-ui; max-width: 42rem; margin: 2rem auto">
<h1>Example widget backend</h1>
<p>CRM: <code>${escapeHtml(CRM)}</code></p>
<p role="status" id="connection">${tokens ? `Connected: access token …${escapeHtml(tokens.accessToken.slice(-6))}, expires ${escapeHtml(new Date(tokens.expiresAt).toISOString())}.` : 'Not connected.'}</p>
<p>${connectLink}</p>
<form method="post" action="/refresh"><button>Refresh the access token now</button></form>
<form method="post" action="/calls">
  <label>Contact id <input name="contactId" value="1" size="6"></label>
  <button>Log a desk-phone call</button>
</form>
<form method="post" action="/inbound">
  <label>Caller's number <input name="from" value="+16175550101" size="14"></label>
  <button>Receive an inbound call</button>
</form>
<form method="post" action="/inbound/after"><button>After the call: recording ready, post the transcript</button></form>
<p role="log" id="result">${escapeHtml(lastResult)}</p>
<h2>Requests from the CRM</h2>
<ul id="crm-requests">${crmRequests.map((r) => `<li>${escapeHtml(`${r.method} ${r.path}${r.range ? ` (Range ${r.range})` : ''}${r.signed ? ' — signature valid' : ''}`)}</li>`).join('')}</ul>
</body></html>`
}

async function readForm(req) {
  let body = ''
  for await (const chunk of req) body += chunk
  return new URLSearchParams(body)
}

function describe(error) {
  const body = error?.body ? ` ${typeof error.body === 'string' ? error.body : JSON.stringify(error.body)}` : ''
  return `${error?.message ?? error}${body}`.slice(0, 500)
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', SELF)
  const back = (result) => {
    lastResult = result
    res.writeHead(303, { location: '/' }).end()
  }
  try {
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page())
    } else if (req.method === 'GET' && url.pathname === '/oauth/callback') {
      const state = url.searchParams.get('state') ?? ''
      if (!pendingStates.delete(state)) return back('Refused a callback whose state we did not issue.')
      if (url.searchParams.has('error')) return back(`The user did not grant access: ${url.searchParams.get('error')}.`)
      // Step 1: exchange the code, server to server.
      keep(await oauthClient.oauth.tokensApi.create('authorization_code', url.searchParams.get('code') ?? '', REDIRECT_URI, CLIENT_ID, CLIENT_SECRET))
      back('Connected: exchanged the code for tokens.')
    } else if (req.method === 'POST' && url.pathname === '/refresh') {
      await crmClient({ forceRefresh: true })
      back('Refreshed the access token.')
    } else if (req.method === 'GET' && url.pathname.startsWith('/recordings/')) {
      recordingUrl(req, res, url)
    } else if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      recordingFile(req, res, url)
    } else if (req.method === 'POST' && url.pathname === '/channel-numbers') {
      await channelNumbers(req, res)
    } else if (req.method === 'GET' && url.pathname === '/crm-requests.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(crmRequests))
    } else if (req.method === 'POST' && url.pathname === '/inbound') {
      const from = (await readForm(req)).get('from') ?? ''
      if (!/^\+[1-9]\d{1,14}$/.test(from)) return back('The caller\'s number must be an E.164 number, e.g. +16175550101.')
      back(await receiveInboundCall(from))
    } else if (req.method === 'POST' && url.pathname === '/inbound/after') {
      back(await afterInboundCall())
    } else if (req.method === 'POST' && url.pathname === '/calls') {
      const contactId = (await readForm(req)).get('contactId') ?? ''
      if (!/^\d+$/.test(contactId)) return back('The contact id must be a number.')
      back(await logDeskPhoneCall(contactId))
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    }
  } catch (error) {
    back(`Failed: ${describe(error)}`)
  }
})

server.on('error', (error) => {
  console.error(`example backend: ${error.code === 'EADDRINUSE' ? `port ${PORT} is in use (set PORT)` : error.message}`)
  process.exit(1)
})
server.listen(PORT, '127.0.0.1', () => console.log(`Example widget backend on ${SELF}/ (CRM: ${CRM})`))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)))
