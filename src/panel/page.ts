/**
 * The panel's page: one HTML document with its CSS and script inline (no build step, nothing fetched from the
 * network). Its API calls ride on the session cookie (HttpOnly: the script never holds a secret) and carry
 * the page's Origin; it renders with textContent only, so app text can never become markup. Its title carries
 * the home's panel marker, so that the policy denies any window or tab showing it.
 */

/** The page, with the per-response CSP nonce on its script and the marker in its title. */
export function pageHtml(nonce: string, marker: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>computer-use panel · ${marker}</title>
<style nonce="${nonce}">
:root { --bg:#f6f7f9; --fg:#1b1f24; --muted:#5b6470; --card:#fff; --line:#d9dde3; --red:#c62828; --green:#2e7d32; \
--blue:#1f5fbf; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background:var(--bg); \
color:var(--fg); }
header { position:sticky; top:0; z-index:2; display:flex; flex-wrap:wrap; gap:10px; align-items:center; padding:10px \
16px; background:#20262e; color:#fff; }
header h1 { font-size:17px; margin:0 12px 0 0; }
header .status { flex:1 1 200px; font-size:14px; color:#cfd6df; }
#stop { font-size:20px; font-weight:700; padding:12px 28px; border:0; border-radius:10px; color:#fff; \
background:var(--red); cursor:pointer; min-width:180px; }
#stop.resume { background:var(--green); }
nav { display:flex; flex-wrap:wrap; gap:6px; padding:8px 16px; background:#e9ecf0; border-bottom:1px solid \
var(--line); }
nav a { color:var(--blue); text-decoration:none; padding:2px 8px; border-radius:6px; }
nav a:hover { background:#dfe5ee; }
main { display:grid; grid-template-columns: minmax(0,1fr) minmax(0,1fr); gap:14px; padding:14px 16px; \
max-width:1400px; margin:0 auto; }
section { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px 14px; min-width:0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size:16px; margin:0 0 8px; }
h2.sub { margin-top:12px; }
.muted { color:var(--muted); font-size:13px; }
.q { border:2px solid #e0a100; background:#fff8e1; border-radius:8px; padding:10px; margin:8px 0; }
.q .title { font-weight:700; }
.q .msg { margin:6px 0; white-space:pre-wrap; overflow-wrap:anywhere; }
button { font:inherit; padding:6px 12px; border-radius:7px; border:1px solid #aab2bd; background:#fff; cursor:pointer; \
margin:2px 4px 2px 0; }
button.approve { background:var(--green); color:#fff; border-color:var(--green); }
button.deny { background:var(--red); color:#fff; border-color:var(--red); }
table { width:100%; border-collapse:collapse; font-size:13px; }
th, td { text-align:left; padding:4px 6px; border-bottom:1px solid var(--line); vertical-align:top; \
overflow-wrap:anywhere; }
th { background:#f0f2f5; position:sticky; top:0; }
.tablewrap { max-height:460px; overflow:auto; }
pre { background:#0f1419; color:#d6dde6; padding:8px; border-radius:6px; max-height:320px; overflow:auto; \
font-size:12px; white-space:pre-wrap; overflow-wrap:anywhere; }
.filters { display:flex; flex-wrap:wrap; gap:6px; margin-bottom:8px; }
.filters input, .filters select { font:inherit; padding:4px 6px; border:1px solid #aab2bd; border-radius:6px; \
min-width:0; flex:1 1 120px; }
.tag { display:inline-block; font-size:12px; padding:0 6px; border-radius:9px; background:#e8eaed; margin-right:4px; }
.tag.ok { background:#dff3e2; } .tag.bad { background:#fbe0e0; } .tag.warn { background:#fff0c2; }
ul.plain { margin:4px 0; padding-left:18px; }
@media (max-width: 820px) {
  main { grid-template-columns: minmax(0,1fr); padding:10px; gap:10px; }
  #stop { width:100%; }
  header .status { flex-basis:100%; }
  .hide-narrow { display:none; }
}
</style></head>
<body>
<header><h1>computer-use</h1><span class="status" id="status">connecting…</span><button id="stop" \
type="button">STOP</button></header>
<nav><a href="#pending">Pending</a><a href="#apps">Apps</a><a href="#live">Live view</a><a href="#audit">Audit</a><a \
href="#doctor">Self-check</a></nav>
<main>
<section id="pending" class="wide"><h2>Pending confirmations</h2><div id="questions"><p class="muted">Nothing waits \
for you.</p></div></section>
<section id="apps"><h2>Apps <button id="refreshapps" type="button">Refresh</button></h2><div id="applist" \
class="muted">Loading…</div><h2 class="sub">Lists</h2><div id="lists"></div></section>
<section id="live"><h2>Live view</h2><div id="sessions" class="muted">No session has acted in this process \
yet.</div></section>
<section id="audit" class="wide"><h2>Audit log</h2>
<form class="filters" id="auditform">
<input name="app" placeholder="app" aria-label="app"><select name="tool" aria-label="tool"><option value="">any \
tool</option></select>
<select name="decision" aria-label="decision"><option value="">any decision</option></select>
<input name="since" type="datetime-local" aria-label="since"><input name="until" type="datetime-local" \
aria-label="until">
<button type="submit">Filter</button></form>
<div class="muted" id="auditinfo"></div>
<div class="tablewrap"><table><thead><tr><th>time</th><th>decision</th><th>app</th><th>action</th><th \
class="hide-narrow">reason</th><th>receipt</th></tr></thead><tbody id="auditrows"></tbody></table></div>
<button id="older" type="button">Older</button></section>
<section id="doctor" class="wide"><h2>Self-check</h2><button id="rundoctor" type="button">Run the checks</button><div \
id="checks"></div></section>
</main>
<script nonce="${nonce}">
'use strict';
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) { if (k === 'class') e.className = v; else if (k.startsWith('on')) \
e.addEventListener(k.slice(2), v); else e.setAttribute(k, v); }
  for (const k of kids) if (k !== undefined && k !== null) e.append(typeof k === 'string' ? document.createTextNode(k) \
: k);
  return e;
}
async function api(path, body) {
  const r = await fetch(path, { method: body ? 'POST' : 'GET', credentials: 'same-origin', headers: body ? { \
'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!r.ok) throw new Error(path + ': ' + r.status + ' ' + (await r.text()));
  return r.json();
}
const LABELS = { allow_once: 'Allow once', allow_session: 'Allow for this session', allow_always: 'Always allow this \
app', deny: 'Decline' };
let paused = false;
function renderState(s) {
  paused = s.paused;
  const b = $('stop');
  b.textContent = paused ? 'RESUME' : 'STOP';
  b.className = paused ? 'resume' : '';
  $('status').textContent = (paused ? 'PAUSED — nothing is sent until you resume' : 'running') + ' · mode ' + s.mode + \
(s.hotkey ? ' · stop hotkey ' + s.hotkey : '');
  const box = $('questions');
  box.replaceChildren();
  if (!s.pending.length) box.append(el('p', { class: 'muted' }, 'Nothing waits for you.'));
  for (const q of s.pending) {
    const choices = el('div');
    for (const c of q.request.choices) choices.append(el('button', { type: 'button', class: c === 'deny' ? 'deny' : \
'approve', 'data-choice': c, onclick: () => answer(q.id, c) }, LABELS[c] || c));
    box.append(el('div', { class: 'q', 'data-id': q.id }, el('div', { class: 'title' }, q.request.title), el('div', { \
class: 'msg' }, q.request.message),
      el('div', { class: 'muted' }, 'Asked at ' + new Date(q.since).toLocaleTimeString() + '; declined automatically \
after ' + Math.round(q.timeoutMs / 1000) + ' s.'), choices));
  }
}
async function refreshState() { try { renderState(await api('/api/state')); } catch (e) { $('status').textContent = \
String(e); } }
async function answer(id, choice) { await api('/api/confirm', { id, choice }); await refreshState(); }
$('stop').addEventListener('click', async () => { const t = performance.now(); const s = await api(paused ? \
'/api/resume' : '/api/stop', {}); renderState(s); $('stop').dataset.ms = String(Math.round(performance.now() - t)); });

async function refreshApps() {
  let a;
  try { a = await api('/api/apps'); } catch (e) { $('applist').textContent = String(e); return; }
  const rows = el('tbody');
  for (const app of a.apps) {
    const acts = el('td');
    if (app.builtin) acts.append(el('span', { class: 'tag bad' }, 'built-in deny: ' + app.builtin));
    else {
      if (!app.allowed) acts.append(el('button', { type: 'button', onclick: () => appAction(app.key, 'once') }, \
'Once'), el('button', { type: 'button', onclick: () => appAction(app.key, 'session') }, 'This session'), el('button', \
{ type: 'button', onclick: () => appAction(app.key, 'always') }, 'Always'));
      if (!app.denied) acts.append(el('button', { type: 'button', class: 'deny', onclick: () => appAction(app.key, \
'deny') }, 'Deny'));
    }
    const state = app.builtin ? '' : app.denied ? 'denied' : app.allowed ? 'allowed' : app.session ? 'this session' : \
'asks first';
    rows.append(el('tr', {}, el('td', {}, app.name, el('div', { class: 'muted' }, 'pid ' + app.pid + ' · ' + \
(app.executable || 'executable not proven'))), el('td', {}, state ? el('span', { class: 'tag ' + (app.denied ? 'bad' : \
app.allowed ? 'ok' : 'warn') }, state) : ''), acts));
  }
  $('applist').replaceChildren(a.error ? el('p', { class: 'muted' }, a.error) : el('table', {}, el('thead', {}, \
el('tr', {}, el('th', {}, 'app (proven identity)'), el('th', {}, 'state'), el('th', {}, ''))), rows));
  const list = (name, items, kind) => el('div', {}, el('b', {}, name + ': '), items.length ? '' : 'none', \
...items.map((x) => el('span', { class: 'tag' }, x, ' ', el('button', { type: 'button', title: 'remove', onclick: () \
=> appAction(x, 'remove-' + kind) }, '×'))));
  $('lists').replaceChildren(list('allowApps', a.allowApps, 'allow'), list('denyApps', a.denyApps, 'deny'),
    el('div', {}, el('b', {}, 'Built-in deny list (cannot be lifted): '), a.builtin.join('; ')), el('div', { class: \
'muted' }, 'Saved in ' + a.settingsPath));
}
async function appAction(app, action) { await api('/api/apps', { app, action }); await refreshApps(); }
$('refreshapps').addEventListener('click', () => void refreshApps());
let appsTimer;
function refreshAppsSoon() { if (!appsTimer) appsTimer = setTimeout(() => { appsTimer = undefined; void refreshApps(); \
}, 1500); }

async function refreshLive() {
  const l = await api('/api/live');
  const box = $('sessions');
  box.replaceChildren();
  if (!l.sessions.length) { box.append(el('p', { class: 'muted' }, 'No session has observed or acted in this process \
yet.')); return; }
  for (const s of l.sessions) {
    box.append(el('div', {}, el('b', {}, 'session ' + s.session.slice(0, 8)), ' · mode ' + s.mode,
      el('div', { class: 'activity' }, s.activity ? s.activity : 'idle'),
      el('div', { class: 'muted' }, 'last snapshot' + (s.snapshot ? ' (' + s.snapshot.tool + ', ' + new \
Date(s.snapshot.time).toLocaleTimeString() + ')' : ': none')), s.snapshot ? el('pre', {}, s.snapshot.text) : null,
      el('div', { class: 'muted' }, 'last diff' + (s.diff ? ' (' + s.diff.tool + ', ' + new \
Date(s.diff.time).toLocaleTimeString() + ')' : ': none')), s.diff ? el('pre', {}, s.diff.text) : null));
  }
}

let cursor;
function auditQuery() {
  const f = new FormData($('auditform'));
  const q = new URLSearchParams();
  for (const k of ['app', 'tool', 'decision']) if (f.get(k)) q.set(k, f.get(k));
  for (const k of ['since', 'until']) if (f.get(k)) q.set(k, String(new Date(f.get(k)).getTime()));
  return q;
}
function what(r) {
  if (r.tool === 'computer_keys') return 'keys ' + (typeof r.keys === 'string' ? r.keys : '<' + (r.keys ? r.keys.len : \
0) + ' chars>');
  if (r.tool === 'computer_launch') return 'launch ' + (r.command || '');
  return (r.op || r.tool) + ' ' + (r.role || '') + (r.name ? ' "' + r.name + '"' : '') + (r.value ? ' <' + r.value.len \
+ ' chars>' : '');
}
async function loadAudit(more) {
  const q = auditQuery();
  if (more && cursor !== undefined) q.set('before', String(cursor));
  const t = performance.now();
  const p = await api('/api/audit?' + q);
  const ms = Math.round(performance.now() - t);
  const body = $('auditrows');
  if (!more) body.replaceChildren();
  for (const r of p.rows) {
    const cls = r.decision === 'allowed' ? 'ok' : r.decision === 'paused' || r.decision === 'confirmation_required' ? \
'warn' : 'bad';
    body.append(el('tr', {}, el('td', {}, new Date(r.time).toLocaleString()), el('td', {}, el('span', { class: 'tag ' \
+ cls }, r.decision), r.approved_by ? el('div', { class: 'muted' }, 'approved by ' + r.approved_by) : null),
      el('td', {}, r.app || ''), el('td', {}, what(r)), el('td', { class: 'hide-narrow' }, r.reason + (r.answer ? ' \
[user: ' + r.answer + ']' : '')), el('td', {}, r.receipt || '')));
  }
  cursor = p.next;
  $('older').disabled = p.next === undefined;
  $('auditinfo').textContent = body.children.length + ' shown of ' + p.indexed + ' records indexed · page in ' + ms + \
' ms';
  $('auditinfo').dataset.ms = String(ms);
  for (const [sel, vals] of [['tool', p.facets.tools], ['decision', p.facets.decisions]]) {
    const s = $('auditform').elements[sel];
    const have = new Set([...s.options].map((o) => o.value));
    for (const v of vals) if (!have.has(v)) s.append(el('option', { value: v }, v));
  }
}
$('auditform').addEventListener('submit', (e) => { e.preventDefault(); void loadAudit(false); });
$('older').addEventListener('click', () => void loadAudit(true));

$('rundoctor').addEventListener('click', async () => {
  $('checks').textContent = 'Running…';
  const d = await api('/api/doctor');
  const ul = el('ul', { class: 'plain' });
  for (const c of d.checks) ul.append(el('li', {}, el('span', { class: 'tag ' + (c.status === 'ok' ? 'ok' : c.status \
=== 'fail' ? 'bad' : 'warn') }, c.status), c.id + ': ' + c.summary, c.fix && c.status !== 'ok' ? el('div', { class: \
'muted' }, 'fix: ' + c.fix) : null));
  $('checks').replaceChildren(el('p', {}, d.ok ? 'All required checks passed.' : 'Some checks failed: see the \
fixes.'), ul);
});

const events = new EventSource('/api/events');
events.addEventListener('state', (e) => renderState(JSON.parse(e.data)));
events.addEventListener('audit', () => { if (cursor === undefined || $('auditrows').children.length <= 50) void \
loadAudit(false); });
events.addEventListener('live', () => { void refreshLive(); refreshAppsSoon(); });
void refreshState(); void refreshApps(); void refreshLive(); void loadAudit(false);
</script></body></html>`;
}
