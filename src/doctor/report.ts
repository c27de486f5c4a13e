/**
 * `computer-use doctor --report`: what a user runs on their own machine and sends back. It runs the doctor's
 * checks, the conformance kit against the platform's own driver, and a short smoke task on the OS's own apps
 * through the real tools and policy (a confirmer that declines every question, so nothing irreversible runs),
 * then writes `computer-use-report.md` and `.json` with nothing private in them (report-privacy.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, hostname, release, tmpdir, type as osType, userInfo, version as osVersion } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { createComputer, type Computer } from '../index.js';
import type { Confirmer } from '../policy/confirm.js';
import type { DriverCommand } from '../devices/stdio.js';
import { spawnDriver } from '../devices/stdio.js';
import type { ToolResult } from '../tools/tool.js';
import { allowedFacts, hashed, scrubReport, type PrivateFacts } from './report-privacy.js';
import type { SmokeTask } from './smoke-tasks.js';

/** One doctor check as the report shows it. */
export interface ReportCheck { name: string; status: 'ok' | 'warn' | 'fail' | 'info'; detail: string }

/** One step of the smoke task. */
export interface SmokeStep {
  name: string;
  tool: string;
  ok: boolean;
  /** The receipt's status (confirmed, unknown, rejected, failed) of an act; `read` for a read. */
  status: string;
  ms: number;
  code?: string;
  message?: string;
}

/** The report, as written to the JSON file. */
export interface ShareableReport {
  format: 'computer-use-report';
  version: 1;
  createdAt: string;
  ok: boolean;
  os: { platform: string; type: string; release: string; version: string };
  node: string;
  computerUse: string;
  driver: { platform?: string; version?: string; protocolVersion?: string; facts: Record<string, string> };
  checks: ReportCheck[];
  conformance: {
    ok: boolean;
    passed: number;
    failed: number;
    skipped: number;
    results: { rule: string; verdict: string; detail: string }[];
    error?: string;
  };
  smoke: { task: string; ok: boolean; ms: number; questionsDeclined: number; steps: SmokeStep[] };
  send: string;
}

/** What a report run needs; the CLI fills it for this machine, tests for a fake. */
export interface ReportOptions {
  /** The platform's name in the report (linux, windows, macos, android). */
  platform: string;
  /** The platform's own driver process (the conformance kit and the smoke task both start it). */
  driver: DriverCommand;
  /** The doctor's checks for this machine. */
  checks: () => Promise<ReportCheck[]>;
  smoke: SmokeTask;
  /** Where the two files go (default the current folder). */
  outDir?: string;
  /** The desktop's environment (the Linux sandbox's DISPLAY and bus); default the process's. */
  env?: Record<string, string>;
  /** Private strings of this machine; default read from the OS. Tests plant their own. */
  privateFacts?: Partial<PrivateFacts>;
  /** Longest a tool call of the smoke task may take (default 60 s). */
  timeoutMs?: number;
}

/** Where the README asks for the files. */
export const SEND_TO =
  'Open an issue on the computer-use repository titled "Report: <your OS and version>" and attach ' +
  'the two files (computer-use-report.md and computer-use-report.json). Read them first: they hold no name, path under ' +
  'your home, host name or window title other than the apps the report opened, and you may delete any line.';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '?';
  } catch { return '?'; }
}

/** Quotes a word for the conformance kit's command line (split like a shell's words). */
function shellWord(s: string): string { return `'${s.replace(/'/g, `'\\''`)}'`; }

/** The receipt status in a tool's answer. */
function receiptStatus(tool: string, r: ToolResult): string {
  if (r.isError) return 'error';
  if (tool === 'computer_launch') return 'started';
  if (tool !== 'computer_act' && tool !== 'computer_keys') return 'read';
  return /\b(confirmed|unknown|rejected|failed)\b/.exec(r.text)?.[1] ?? 'unknown';
}

/** Runs the conformance kit through the doctor's entry (its JSON), with the desktop's environment. */
async function conformance(
  opts: ReportOptions,
): Promise<ShareableReport['conformance'] & { hello?: Record<string, unknown> }> {
  const { runConformanceCommand } = await import('./conformance.js');
  let text = '';
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { text += chunk.toString('utf8'); done(); } });
  const command = [opts.driver.command, ...opts.driver.args].map(shellWord).join(' ');
  // The kit's entry takes no environment: the driver inherits this process's, so the desktop's is set around it.
  const extra = { ...(opts.env ?? {}), ...(opts.driver.env ?? {}) };
  const saved = Object.fromEntries(Object.keys(extra).map((k) => [k, process.env[k]]));
  Object.assign(process.env, extra);
  try {
    await runConformanceCommand(['--conformance', '--driver', command, '--json'], sink);
    const parsed = JSON.parse(text) as {
      ok?: boolean;
      results?: { rule: string; verdict: string; detail: string }[];
      hello?: Record<string, unknown>;
    };
    const results = (parsed.results ?? []).map((x) => ({
      rule: String(x.rule),
      verdict: String(x.verdict),
      detail: String(x.detail).slice(0, 500),
    }));
    const count = (v: string): number => results.filter((x) => x.verdict === v).length;
    return {
      ok: parsed.ok === true,
      passed: count('PASS'),
      failed: count('FAIL'),
      skipped: count('SKIP'),
      results,
      ...(parsed.hello ? { hello: parsed.hello } : {}),
    };
  } catch (e) {
    return {
      ok: false,
      passed: 0,
      failed: 0,
      skipped: 0,
      results: [],
      error: (e as Error).message.split('\n')[0] ?? 'error',
    };
  } finally {
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
  }
}

/** The titles of windows of apps the smoke task did not open: never shown. */
async function otherTitles(computer: Computer, own: readonly string[]): Promise<string[]> {
  const mine = new Set(own.map((a) => a.toLowerCase()));
  const apps = await computer.session.apps().catch(() => []);
  return apps
    .filter((a) => !mine.has(a.name.toLowerCase()))
    .flatMap((a) => [...a.windows.map((w) => w.title), a.executable ?? '']);
}

/** Runs the smoke task; every step is recorded, a failed step does not stop the ones after it. */
async function smoke(
  opts: ReportOptions,
  privateStrings: string[],
): Promise<{ smoke: ShareableReport['smoke']; facts: Record<string, unknown> }> {
  const home = mkdtempSync(join(tmpdir(), 'cu-report-'));
  let declined = 0;
  // Every question is declined: an irreversible step never runs, and a first use outside the task's apps neither.
  const decline: Confirmer = { interactive: true, confirm: async () => { declined++; return 'deny'; } };
  const steps: SmokeStep[] = [];
  const launched: number[] = [];
  const t0 = performance.now();
  let facts: Record<string, unknown> = {};
  let computer: Computer | undefined;
  try {
    computer = await createComputer({
      desktop: 'current',
      mode: 'default',
      allowApps: [...opts.smoke.apps],
      confirmer: decline,
      showActivity: false,
      settingsPath: join(home, 'settings.json'),
      auditPath: join(home, 'audit.jsonl'),
      devices: [],
      timeoutMs: opts.timeoutMs ?? 60_000,
      connect: () =>
        spawnDriver(
          { ...opts.driver, env: { ...(opts.env ?? {}), ...(opts.driver.env ?? {}) } },
          opts.timeoutMs ?? 60_000,
        ),
    });
    const c = computer;
    facts = (await c.session.device.hello()).facts ?? {};
    privateStrings.push(...await otherTitles(c, opts.smoke.apps));
    await opts.smoke.run(async (name, tool, params, check) => {
      const s = performance.now();
      const r = await c
        .call(tool, params)
        .catch((e: Error): ToolResult => ({ text: `error: ${e.message}`, isError: true, code: 'error' }));
      const ms = Math.round(performance.now() - s);
      const pid = tool === 'computer_launch' ? Number(/pid=(\d+)/.exec(r.text)?.[1]) : NaN;
      if (pid > 0) launched.push(pid);
      const problem = r.isError ? undefined : check?.(r);
      const step: SmokeStep = {
        name,
        tool,
        ok: !r.isError && problem === undefined,
        status: receiptStatus(tool, r),
        ms,
      };
      if (r.isError) { step.code = r.code ?? 'error'; step.message = r.text.split('\n').find((l) => l.trim()) ?? ''; }
      else if (problem) { step.code = 'smoke_check'; step.message = problem; }
      steps.push(step);
      return r;
    });
    // Titles that appeared during the task in other apps are private too.
    privateStrings.push(...await otherTitles(c, opts.smoke.apps));
  } catch (e) {
    steps.push({
      name: 'start the driver',
      tool: 'hello',
      ok: false,
      status: 'error',
      ms: Math.round(performance.now() - t0),
      code: 'error',
      message: (e as Error).message.split('\n')[0] ?? '',
    });
  } finally {
    await computer?.close().catch(() => undefined);
    // The apps the task opened are closed by their pid (their documents were never saved).
    for (const pid of launched) { try { process.kill(pid); } catch { /* already gone */ } }
    rmSync(home, { recursive: true, force: true });
  }
  return {
    facts,
    smoke: {
      task: opts.smoke.title,
      ok: steps.length > 0 && steps.every((s) => s.ok),
      ms: Math.round(performance.now() - t0),
      questionsDeclined: declined,
      steps,
    },
  };
}

/** This machine's private strings. */
function machineFacts(given: Partial<PrivateFacts> = {}): PrivateFacts {
  let username = '';
  try { username = userInfo().username; } catch { username = process.env['USER'] ?? process.env['USERNAME'] ?? ''; }
  return { home: given.home ?? homedir(), username: given.username ?? username, hostname: given.hostname ?? hostname(),
    strings: given.strings ?? [], serials: given.serials ?? [] };
}

/** Runs everything and builds the report (scrubbed). */
export async function buildReport(opts: ReportOptions): Promise<ShareableReport> {
  const privateStrings: string[] = [...(opts.privateFacts?.strings ?? [])];
  const checks = await opts
    .checks()
    .catch((e: Error): ReportCheck[] => [{ name: 'doctor', status: 'fail', detail: e.message.split('\n')[0] ?? '' }]);
  const conf = await conformance(opts);
  const { smoke: task, facts } = await smoke(opts, privateStrings);
  const hello = conf.hello ?? {};
  const { hello: _hello, ...conformanceResult } = conf;
  void _hello;
  const report: ShareableReport = {
    format: 'computer-use-report', version: 1, createdAt: new Date().toISOString(),
    ok: checks.every((c) => c.status !== 'fail') && conf.ok && task.ok,
    os: { platform: opts.platform, type: osType(), release: release(), version: osVersion() },
    node: process.version, computerUse: packageVersion(),
    driver: {
      ...(typeof hello['platform'] === 'string' ? { platform: hello['platform'] } : {}),
      ...(hello['version'] !== undefined ? { version: String(hello['version']) } : {}),
      ...(hello['protocolVersion'] !== undefined ? { protocolVersion: String(hello['protocolVersion']) } : {}),
      facts: allowedFacts(facts),
    },
    checks, conformance: conformanceResult, smoke: task, send: SEND_TO,
  };
  return scrubReport(report, machineFacts({ ...opts.privateFacts, strings: privateStrings }));
}

const MARK: Record<string, string> = { ok: '✅', warn: '⚠️', fail: '❌', info: 'ℹ️', PASS: '✅', FAIL: '❌', SKIP: '➖' };

/** Markdown table cell: one line, no pipes. */
function cell(s: string): string {
  return s
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/[\u0000-\u001f\u007f]/g, '');
}

/** The Markdown file. */
export function formatReportMarkdown(r: ShareableReport): string {
  const d = r.driver;
  const lines = [
    `# computer-use report: ${cell(r.os.platform)} ${r.ok ? '(all passed)' : '(something failed)'}`,
    '',
    `- ${r.os.platform === 'android' ? 'Computer running adb' : 'OS'}: ${cell(r.os.type)} ` +
      `${cell(r.os.release)} (${cell(r.os.version)})`,
    `- Driver: ${cell(d.platform ?? '?')} ${cell(d.version ?? '?')}, protocol ${cell(d.protocolVersion ?? '?')}`,
    ...Object.entries(d.facts).map(([k, v]) => `  - ${cell(k)}: ${cell(v)}`),
    `- Node ${cell(r.node)}, computer-use ${cell(r.computerUse)}`,
    `- Made ${r.createdAt}`,
    '',
    '## Doctor checks',
    '',
    '| | check | detail |',
    '| --- | --- | --- |',
    ...r.checks.map((c) => `| ${MARK[c.status] ?? c.status} | ${cell(c.name)} | ${cell(c.detail)} |`),
    '',
    `## Conformance kit: ${r.conformance.passed} passed, ${r.conformance.failed} failed, ` +
      `${r.conformance.skipped} skipped`,
    '',
    ...(r.conformance.error ? [`The kit did not run: ${cell(r.conformance.error)}`, ''] : []),
    '| | rule | detail |',
    '| --- | --- | --- |',
    ...r.conformance.results.map((x) => `| ${MARK[x.verdict] ?? x.verdict} | ${cell(x.rule)} | ${cell(x.detail)} |`),
    '',
    `## Smoke task: ${cell(r.smoke.task)}`,
    '',
    `${r.smoke.ok ? 'Every step passed' : 'Some steps failed'} in ${r.smoke.ms} ms; questions the policy ` +
      `asked (all declined): ${r.smoke.questionsDeclined}.`,
    '',
    '| | step | receipt | ms | error |',
    '| --- | --- | --- | --- | --- |',
    ...r.smoke.steps.map(
      (s) =>
        `| ${s.ok ? '✅' : '❌'} | ${cell(s.name)} | ${cell(s.status)} | ${s.ms} | ` +
        `${s.code ? cell(`${s.code}: ${s.message ?? ''}`) : ''} |`,
    ),
    '',
    '## Send it',
    '',
    cell(r.send),
    '',
  ];
  return lines.join('\n');
}

/** Writes the two files; returns their paths. */
export function writeReport(r: ShareableReport, outDir = '.'): { markdown: string; json: string } {
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  const markdown = join(dir, 'computer-use-report.md');
  const json = join(dir, 'computer-use-report.json');
  writeFileSync(markdown, formatReportMarkdown(r));
  writeFileSync(json, JSON.stringify(r, null, 2) + '\n');
  return { markdown, json };
}

export { hashed };
