/**
 * The panel's API. Reads: state (pause, mode, pending questions), apps, audit pages, live view, self-check.
 * Writes: stop/resume (the same pause file and signals as `computer-use stop`), answers to pending questions,
 * allow/deny edits through the computer's PolicyControls. Every handler runs after the token/Origin check.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Computer } from '../index.js';
import { AppRules, BUILTIN_DENY_CATEGORIES, builtinDenied } from '../policy/apps.js';
import type { ConfirmChoice } from '../policy/confirm.js';
import { isPaused, requestResume, requestStop } from '../policy/stop.js';
import { escapeLine } from '../engine/escape.js';
import type { AuditFilter, AuditIndex, AuditRow } from './audit-index.js';
import type { PanelConfirmer, PendingQuestion } from './confirmations.js';
import type { LiveView } from './live.js';

/** What the panel serves from: the host process's computer, questions, live view and files. */
export interface PanelHost {
  /** The computer-use home (pause file, run folder). */
  home: string;
  auditPath: string;
  confirmer: PanelConfirmer;
  live: LiveView;
  /** The computer whose apps and policy the panel shows (created on first use). */
  computer(): Promise<Computer>;
  /** The permission mode, for the header. */
  mode(): string;
  /** The stop hotkey when it is grabbed. */
  hotkey(): string | undefined;
}

/** The longest question text the panel shows (an app's 10 KB label must not fill the page). */
const MAX_SHOWN = 2000;

/**
 * Outside text as the panel shows it: one line with line breaks visible, no bidi override (which would reorder
 * what the person reads even through textContent), no ANSI, cut (engine/escape.ts; idempotent on escaped text).
 */
function shown(s: unknown): unknown {
  if (typeof s !== 'string') return s;
  const t = escapeLine(s);
  return t.length > MAX_SHOWN ? `${t.slice(0, MAX_SHOWN - 1)}…` : t;
}

/** A waiting question as the pending list shows it. */
function shownQuestion(q: PendingQuestion): PendingQuestion {
  return {
    ...q,
    request: { ...q.request, title: shown(q.request.title) as string, message: shown(q.request.message) as string },
  };
}

/** An audit row as the audit view shows it: every text field on one escaped line (the log keeps app text as read). */
export function shownAuditRow(r: AuditRow): AuditRow {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, shown(v)])) as unknown as AuditRow;
}

/** The state the header and the pending list show. */
export function stateOf(host: PanelHost): object {
  return {
    paused: isPaused(host.home),
    mode: host.mode(),
    pending: host.confirmer.pending().map(shownQuestion),
    hotkey: host.hotkey() ?? null,
  };
}

const CHOICES: readonly ConfirmChoice[] = ['allow_once', 'allow_session', 'allow_always', 'deny'];
const MAX_BODY = 64 * 1024;

export class HttpError extends Error { constructor(readonly status: number, message: string) { super(message); } }

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) throw new HttpError(415, 'JSON bodies only');
  let size = 0;
  const parts: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'body too large');
    parts.push(c as Buffer);
  }
  const v: unknown = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
  if (!v || typeof v !== 'object') throw new HttpError(400, 'a JSON object is expected');
  return v as Record<string, unknown>;
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || !v.trim() || v.length > 400)
    throw new HttpError(400, `${what} must be a non-empty string`);
  return v.trim();
};

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

/** Handles one API request; false when the path is not an API route. */
export async function handleApi(
  host: PanelHost,
  audit: AuditIndex,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  switch (route) {
    case 'GET /api/state': json(res, 200, stateOf(host)); return true;
    case 'POST /api/stop': await body(req); requestStop(host.home, 'panel'); json(res, 200, stateOf(host)); return true;
    case 'POST /api/resume': await body(req); requestResume(host.home); json(res, 200, stateOf(host)); return true;
    case 'POST /api/confirm': {
      const b = await body(req);
      const choice = str(b['choice'], 'choice') as ConfirmChoice;
      if (!CHOICES.includes(choice)) throw new HttpError(400, `choice is one of ${CHOICES.join(', ')}`);
      const q = host.confirmer.pending().find((p) => p.id === b['id']);
      if (!q) throw new HttpError(409, 'that question is no longer waiting');
      if (!q.request.choices.includes(choice))
        throw new HttpError(400, `that question offers ${q.request.choices.join(', ')}`);
      host.confirmer.answer(q.id, choice);
      json(res, 200, stateOf(host));
      return true;
    }
    case 'GET /api/apps': json(res, 200, await appsOf(host)); return true;
    case 'POST /api/apps': {
      const b = await body(req);
      const app = str(b['app'], 'app');
      const action = str(b['action'], 'action');
      const controls = (await host.computer()).policy;
      if (builtinDenied(app) && action !== 'deny' && action !== 'remove-deny')
        throw new HttpError(403, `${app} is on the built-in deny list, which no setting lifts`);
      if (action === 'once') controls.allowAppOnce(app);
      else if (action === 'session') controls.allowAppForSession(app);
      else if (action === 'always') controls.allowApp(app);
      else if (action === 'deny') controls.denyApp(app);
      else if (action === 'remove-allow') controls.removeApp(app, 'allow');
      else if (action === 'remove-deny') controls.removeApp(app, 'deny');
      else throw new HttpError(400, 'action is one of once, session, always, deny, remove-allow, remove-deny');
      json(res, 200, await appsOf(host));
      return true;
    }
    case 'GET /api/audit': {
      audit.refresh();
      const q = url.searchParams;
      const num = (k: string): number | undefined => {
        const v = q.get(k);
        if (v === null || v === '') return undefined;
        const n = Number(v);
        if (!Number.isFinite(n)) throw new HttpError(400, `${k} must be a number`);
        return n;
      };
      const filter: AuditFilter = {};
      for (const k of ['app', 'tool', 'decision'] as const) { const v = q.get(k); if (v) filter[k] = v; }
      const since = num('since'); if (since !== undefined) filter.since = since;
      const until = num('until'); if (until !== undefined) filter.until = until;
      const before = num('before');
      const limit = num('limit');
      const page = audit.page(filter, {
        ...(before !== undefined ? { before } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      json(res, 200, { ...page, rows: page.rows.map(shownAuditRow), facets: audit.facets() });
      return true;
    }
    case 'GET /api/live': json(res, 200, { sessions: host.live.list() }); return true;
    case 'GET /api/doctor': {
      const { runDoctor } = await import('../doctor/doctor.js');
      let env: Record<string, string> | undefined;
      try { env = (await host.computer()).desktop.env; } catch { /* the process's own environment */ }
      json(res, 200, await runDoctor(env ? { env } : {}));
      return true;
    }
    default: return false;
  }
}

/** Running apps with their proven identity and where they stand with the policy. */
async function appsOf(host: PanelHost): Promise<object> {
  let computer: Computer;
  try { computer = await host.computer(); } catch (e) {
    return {
      apps: [],
      allowApps: [],
      denyApps: [],
      builtin: BUILTIN_DENY_CATEGORIES,
      settingsPath: '',
      error: `No desktop: ${(e as Error).message}`,
    };
  }
  const controls = computer.policy;
  const policy = controls.policy;
  let error: string | undefined;
  const apps = await computer.session.apps().catch((e: unknown) => {
    error = `Cannot list apps: ${(e as Error).message}`;
    return [];
  });
  return {
    apps: apps.map((a) => {
      const id = { name: a.name, pid: a.pid, ...(a.executable ? { executable: a.executable } : {}) };
      const key = AppRules.keyOf(id);
      return {
        name: a.name,
        pid: a.pid,
        executable: a.executable ?? null,
        key,
        windows: a.windows.map((w) => w.title),
        builtin: builtinDenied(a.name) ?? (a.executable ? builtinDenied(a.executable) : undefined) ?? null,
        allowed: policy?.rules.allowed(id) ?? false,
        denied: Boolean(policy?.rules.deny.some((d) => d === key || d === a.name.toLowerCase())),
        session: policy?.sessionGrants.has(key) ?? false,
      };
    }),
    allowApps: policy?.rules.allow ?? [], denyApps: policy?.rules.deny ?? [], builtin: BUILTIN_DENY_CATEGORIES,
    settingsPath: controls.settingsPath, ...(error ? { error } : {}),
  };
}
