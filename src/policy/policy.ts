/**
 * The policy: implements the PolicyGate every acting path calls. In order: pause check → mode gate
 * → app identity and deny lists → irreversible rules, then the decider (which can only add a confirmation) →
 * the question to the human, bound to the exact target and re-checked before dispatch → the audit record,
 * fsynced before the gate returns. Nothing read from a window relaxes any of it: names and titles can only
 * add a confirmation or a refusal.
 */
import { createHash, randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { escapeLine, jsonQuote, quoteText } from '../engine/escape.js';
import { redactText } from '../engine/redact.js';
import { ComputerUseError } from '../protocol/errors.js';
import { AppRules, ancestorPids, isInterpreter, scriptOf, signedIdOf } from './apps.js';
import type { AppIdentity, LaunchFacts, ProcessFacts } from './apps.js';
import { cuHome } from '../paths.js';
import { chordChar } from '../protocol/keys.js';
import { AuditLog, auditText, type AuditDecision, type DecidedRecord, type TextDigest } from './audit.js';
import type { ConfirmChoice, ConfirmRequest, Confirmer } from './confirm.js';
import { noConfirmer } from './confirm.js';
import type { Decider } from './decider/types.js';
import {
  targetOfStep as targetIn,
  typedTextOf,
  type ActionRequest,
  type Decision,
  type PolicyGate,
  type VisibleApp,
} from './gate.js';
import { classifyAction, keysTypeText, type IrreversibleVerdict } from './irreversible.js';
import { launcherNames, launchIdentity } from './launched.js';
import { DEFAULT_MODE, type Mode } from './modes.js';
import { normalisePath, ownFileTouched, protectedRoots } from './own-files.js';
import { panelMarker } from './panel-marker.js';
import { addAllowedApp, confirmationsPath, defaultSettingsPath } from './settings.js';
import { pausedError, type StopController } from './stop.js';
import { ASK_THE_USER, ONLY_THE_USER, userCanAllowApp } from './user-remedy.js';

/** Options of a Policy. */
export interface PolicyOptions {
  /** Permission mode (default `default`). */
  mode?: Mode;
  /** Apps acted on without a first-use question: executable path or file name, interpreter + script, or a signed id ("com.apple.TextEdit", "id@team"). */
  allowApps?: readonly string[];
  /** Apps never acted on (on top of the built-in deny list). */
  denyApps?: readonly string[];
  /** In unattended mode, allow irreversible actions and password writes on allow-listed apps. */
  allowIrreversibleUnattended?: boolean;
  /** The human channel; without one (or when not interactive) questions become `confirmation_required`. */
  confirmer?: Confirmer;
  /** Optional decider model: consulted when the rules are silent; it can only add a confirmation. */
  decider?: Decider;
  /** How long to wait for the decider (ms, default 8000); no answer is no opinion. */
  deciderTimeoutMs?: number;
  /** Where "always allow this app" answers are saved (default `<home>/settings.json`; false: not saved). */
  settingsPath?: string | false;
  /** The audit log, its path, or false for none (tests of other concerns only). Default `<home>/…/audit.jsonl`. */
  audit?: AuditLog | string | false;
  /** The home's pause state; without it the policy never reports `paused`. */
  stop?: StopController;
  /**
   * Facts about a pid when a request carries none from the driver (`ActionRequest.identity`): tests and
   * embedders. The policy never reads this machine's /proc for a device's process (default: no facts).
   */
  processInfo?: (pid: number) => ProcessFacts | undefined;
  /** Pids of the agent host, never acted on (default this process and its ancestors). */
  hostPids?: readonly number[];
  /**
   * The host's own tool approval stands in for the per-app question in `default` mode: an MCP client
   * asks its user before each destructive tool call, so the app question is not asked again and the audit
   * records `approved_by: "host"`. Irreversible steps and password writes still ask a human.
   */
  hostApprovesFirstUse?: boolean;
  /** Session and device ids written to the audit log. */
  session?: string;
  device?: string;
  /**
   * Terminals whose command lines a human allowed to run without a question (names like allowApps: the CLI's
   * --allow-commands, or settings.json `allowCommands` once confirmed). In bypass and unattended mode a
   * terminal's command runs only with this allowance.
   */
  allowCommands?: readonly string[];
  /**
   * The tool's own files, out of reach of every act (default: the home, plus the settings file and the audit
   * log when they live elsewhere).
   */
  protectedPaths?: readonly string[];
  /** The panel's marker (default: the home's, panel-marker.ts); a window or tab showing it is denied. */
  panelMarker?: string;
}

/** What an allowed check decided, for the audit record. */
interface Verdict { reason: string; answer?: ConfirmChoice; confirmed: boolean; approvedBy?: 'host' }

const DECIDER_THRESHOLD = 0.5;
/** The tool's own files, in words. */
const OWN_FILES = 'its settings, audit log or session files';
/** Why no allow entry can name an interpreter that runs no provable script, and what would make it nameable. */
const UNNAMEABLE =
  'No allow entry can name this app: its interpreter runs no script path that can be proven (code on its ' +
  "command line, or a relative path); started with the script's absolute path it is allowed as " +
  '"<interpreter> /path/to/script".';
/** Launched processes the policy remembers (the oldest is forgotten first). */
const MAX_LAUNCHED = 64;

/** Element operations worth asking the decider about (the rest do not trigger anything). */
const DECIDER_OPS = new Set(['click', 'double_click', 'select', 'toggle']);

export class Policy implements PolicyGate {
  readonly mode: Mode;
  readonly rules: AppRules;
  readonly session: string;
  readonly audit: AuditLog | undefined;
  private readonly confirmer: Confirmer;
  private readonly grants = new Set<string>();
  private readonly info: (pid: number) => ProcessFacts | undefined;
  private readonly settingsPath: string | undefined;

  constructor(readonly options: PolicyOptions = {}) {
    this.mode = options.mode ?? DEFAULT_MODE;
    this.info = options.processInfo ?? (() => undefined);
    this.rules = new AppRules({
      ...(options.allowApps ? { allowApps: options.allowApps } : {}),
      ...(options.denyApps ? { denyApps: options.denyApps } : {}),
      hostPids: options.hostPids ?? ancestorPids(),
      panelMarkers: [options.panelMarker ?? panelMarker()],
    });
    this.commands = new AppRules({ allowApps: options.allowCommands ?? [] });
    this.confirmer = options.confirmer ?? noConfirmer;
    this.session = options.session ?? randomUUID();
    this.audit =
      options.audit === false
        ? undefined
        : options.audit instanceof AuditLog
          ? options.audit
          : new AuditLog(options.audit);
    this.settingsPath = options.settingsPath === false ? undefined : options.settingsPath ?? defaultSettingsPath();
    // The settings file with its confirmation records and key (kept beside it), and the audit log with its key.
    this.toolHome = normalisePath(cuHome()) ?? cuHome();
    this.roots = protectedRoots(
      options.protectedPaths ?? [
        cuHome(),
        ...(this.settingsPath ? [this.settingsPath, dirname(confirmationsPath(this.settingsPath))] : []),
        ...(this.audit ? [this.audit.path, this.audit.keyPath] : []),
      ],
    );
  }

  /** The tool's own files (normalised). */
  private readonly roots: string[];
  /** The tool's home, normalised: the homes of its sandboxes' apps inside it are not its own files. */
  private readonly toolHome: string;
  /** Terminals allowed to run typed commands (allowCommands). */
  private readonly commands: AppRules;

  /** The tool's own folders and files (normalised). */
  ownRoots(): readonly string[] { return this.roots; }

  /** Why a submit naming these paths is refused (a file of the tool's own), else undefined. */
  ownFile(paths: readonly string[]): string | undefined {
    const hit = ownFileTouched([], paths, undefined, this.roots, undefined, this.toolHome);
    return hit
      ? `This action is refused in every mode: the field now names one of computer-use's own files (` +
          `${OWN_FILES}). ` +
          'An agent may not change its own permissions. Nothing was submitted.'
      : undefined;
  }

  /**
   * Why an app (or one of its windows) is hidden from every read path: the same deny rules as acting (the
   * built-in list, denyApps, security-dialog titles). Names and titles come from the app: they only deny.
   */
  visible(app: VisibleApp): string | undefined {
    const id: AppIdentity = { name: app.name };
    if (app.pid !== undefined) {
      id.pid = app.pid;
      const exe = app.executable ?? this.info(app.pid)?.executable;
      if (exe) id.executable = exe;
    } else if (app.executable) id.executable = app.executable;
    if (app.title) id.title = app.title;
    if (app.className) id.className = app.className;
    // Identity by content: programs the executable is a copy of deny by their names (docs/policy.md, "One app, one
    // allow entry").
    const facts = app.pid !== undefined ? this.info(app.pid) : undefined;
    // A tab's URL names what it shows ("vault.bitwarden.com", the panel's /p/<marker>): it may deny like a title.
    const also = [...(app.sameAs ?? []), ...(facts?.sameAs ?? []), ...(app.url ? [app.url] : [])];
    if (also.length) id.also = also;
    if (app.package) id.package = app.package;
    // A bundle id a signature proves may deny a read like any name (denyApps "com.example.vault").
    const signed = facts ? signedIdOf(facts) : undefined;
    if (signed) id.signedId = signed;
    const why = this.rules.denied(id);
    // The agent host's own process is not acted on, but its windows (a terminal) are not secret.
    return why && !why.startsWith('it is the agent host itself') ? why : undefined;
  }

  /** A file of the tool's own that the act would write or act in, as a refusal message; else undefined. */
  private ownFiles(req: ActionRequest): string | undefined {
    const texts: string[] = [];
    const value = typedTextOf(req);
    if (value !== undefined) texts.push(value);
    if (req.kind === 'launch') texts.push(req.command);
    if (req.kind === 'keys') {
      // Typed characters spell a path (e.g. "slash t m p …"); named keys split it. Unparsed keys are read as they are.
      texts.push(req.chords ? req.chords.map((c) => chordChar(c) ?? ' ').join('') : req.keys);
    }
    const home = cuHome().split(/[\\/]/).filter(Boolean).pop();
    const hit = ownFileTouched(texts, req.paths ?? [], targetIn(req).title, this.roots, home, this.toolHome);
    if (!hit) return undefined;
    return hit.where === 'title'
      ? `the window shows one of computer-use's own files (${OWN_FILES})`
      : `it names one of computer-use's own files (${OWN_FILES})`;
  }

  /** Apps granted for this session ("allow for this session" answers). */
  get sessionGrants(): ReadonlySet<string> { return this.grants; }

  /** Processes computer_launch started, by pid and start token: the launch's identity (AppIdentity.launchedAs). */
  private readonly launched = new Map<string, AppIdentity>();

  /**
   * Records that a process (pid, start token) is what a launch became, as the device's driver proved by its process
   * tree (LaunchResult.startedHere): the allow entry or grant that names the launch then names the process too.
   */
  noteLaunched(
    proc: { pid: number; startToken: string },
    argv: readonly string[],
    facts: LaunchFacts | undefined,
  ): void {
    const key = `${proc.pid}\n${proc.startToken}`;
    this.launched.delete(key);
    this.launched.set(key, launchIdentity(argv, facts));
    if (this.launched.size > MAX_LAUNCHED) this.launched.delete(this.launched.keys().next().value!);
  }

  /** Grants an app for this session, as an "allow for this session" answer does (the panel's Apps list). */
  grantSession(app: string): void { this.grants.add(app.trim().toLowerCase()); }

  /** Lets the next action on an app pass its app question, as an "allow once" answer does (the panel). */
  grantOnce(app: string): void { this.once.add(app.trim().toLowerCase()); }
  private readonly once = new Set<string>();

  async check(req: ActionRequest): Promise<Decision> {
    const id = AuditLog.newId();
    const app = this.identify(req);
    const key = AppRules.keyOf(app);
    const record = this.recordOf(id, req, app);
    const refuse = (decision: AuditDecision, reason: string, error: ComputerUseError): never => {
      try { this.audit?.append({ ...record, decision, reason }); } catch { /* refusing anyway */ }
      throw error;
    };
    this.refuseOutright(req, app, key, refuse);
    const command = this.terminalRule(req, app, refuse);
    let verdict: IrreversibleVerdict | { kind: 'decider' | 'unproven' | 'command'; rule: string } | undefined =
      command ?? classifyAction(req, app.executable ? { executable: app.executable } : {});
    if (!verdict && app.unproven !== undefined)
      verdict = { kind: 'unproven', rule: `the program it starts cannot be proven: ${app.unproven}` };
    if (!verdict && this.mode !== 'bypass') verdict = await this.askDecider(req, app);

    const listed = this.rules.allowed(app);
    // A session grant counts as an allow entry would: "libreoffice" granted at the launch covers soffice.bin's acts.
    const granted =
      listed ||
      (app.unproven === undefined &&
        (this.grants.has(key) || AppRules.allowedBy(this.grants, app) || this.once.delete(key)));
    let result: Verdict;
    if (this.mode === 'unattended') {
      if (!listed)
        refuse(
          'denied',
          'not allow-listed (unattended)',
          new ComputerUseError('denied_by_policy', this.unlistedAdvice(app, key)),
        );
      if (verdict && !this.options.allowIrreversibleUnattended) {
        refuse(
          'denied',
          `irreversible (${verdict.rule}), unattended`,
          new ComputerUseError(
            'denied_by_policy',
            `This action looks irreversible (${verdict.rule}) and unattended mode never asks, so it is ` +
              `refused. ` +
              `Nothing was sent. The user can do it themselves. ${ONLY_THE_USER}`,
          ),
        );
      }
      result = {
        reason: verdict
          ? `unattended, ${verdict.rule} allowed by allowIrreversibleUnattended`
          : 'unattended, allow-listed',
        confirmed: false,
      };
    } else {
      // Keys, launches and input at coordinates name no element: default mode asks unless the app is listed.
      const raw = req.kind !== 'element';
      const appQuestion = !granted || (this.mode === 'default' && !listed && raw);
      // The host asked its user before this call, which answers the app question (not the action's).
      const byHost = appQuestion && this.mode === 'default' && this.options.hostApprovesFirstUse === true;
      const askApp = appQuestion && !byHost;
      const askAction = verdict !== undefined && !(this.mode === 'bypass' && granted);
      if (!askApp && !askAction) {
        result = byHost ? { reason: 'default, approved by the host', confirmed: false, approvedBy: 'host' }
          : { reason: `${this.mode}, ${listed ? 'allow-listed' : 'granted for this session'}`, confirmed: false };
      } else {
        result = await this.ask(req, app, key, askApp && !granted && app.unproven === undefined, verdict, refuse);
        if (byHost) result.approvedBy = 'host';
      }
    }
    return this.decided(id, req, record, result);
  }

  /**
   * The refusals no answer can lift, checked before anything is asked: a pause, plan mode, a pid that another
   * process took, a denied app, a launch that cannot be proven where nobody is asked, and the tool's own files.
   */
  private refuseOutright(req: ActionRequest, app: AppIdentity, key: string,
    refuse: (d: AuditDecision, reason: string, e: ComputerUseError) => never): void {
    if (this.options.stop?.paused) refuse('paused', 'paused by the user', pausedError());
    if (this.mode === 'plan') {
      refuse(
        'denied',
        'plan mode',
        new ComputerUseError(
          'denied_by_policy',
          `Plan mode: ${req.tool} is refused; only computer_apps, computer_observe, ` +
            'computer_find and computer_wait run. Nothing was sent. Describe the plan to the user; to act, the user changes the mode themselves. ' +
            ONLY_THE_USER,
        ),
      );
    }
    const target = targetIn(req);
    if (target.pid !== undefined && target.startToken !== undefined) {
      const facts = target.identity ?? this.info(target.pid);
      const now = facts?.startToken;
      if (facts?.gone === true || (now !== undefined && now !== target.startToken)) {
        refuse(
          'stale',
          'pid reused',
          new ComputerUseError(
            'stale_ref',
            `The process behind this window (pid ${target.pid}) has exited and its pid now belongs to another ` +
              `process. Nothing was sent. Call computer_apps and observe again.`,
          ),
        );
      }
    }
    const deniedWhy = this.rules.denied(app);
    if (deniedWhy) {
      const fix = deniedWhy.includes('denyApps')
        ? ` The user denied it themselves. ${ONLY_THE_USER}`
        : ' Ask the user to do this step themselves.';
      refuse(
        'denied',
        deniedWhy,
        new ComputerUseError(
          'denied_by_policy',
          `computer-use may not act on ${quote(app.name)}: ${deniedWhy}. Nothing was sent.${fix}`,
        ),
      );
    }
    // A launch whose real program cannot be proven is never allow-listed: refused where nobody is asked.
    if (app.unproven !== undefined && req.kind === 'launch' && (this.mode === 'unattended' || this.mode === 'bypass')) {
      refuse(
        'denied',
        `unproven launch target (${this.mode})`,
        new ComputerUseError(
          'denied_by_policy',
          `computer-use cannot prove which program ${quote(req.command)} starts: ` +
            (`${app.unproven}. ${this.mode} mode starts only programs it can prove, so nothing was started. ` +
              `Launch the app by its executable (e.g. "gedit", or the script for an interpreted app), or the ` +
              `user starts it.`),
        ),
      );
    }
    const own = this.ownFiles(req);
    if (own) {
      refuse(
        'denied',
        `own files: ${own}`,
        new ComputerUseError(
          'denied_by_policy',
          `This action is refused in every mode: ${own}. ` +
            'An agent may not change its own permissions. Nothing was sent. The user can edit their settings themselves, in their own terminal.',
        ),
      );
    }
  }

  /**
   * Writes the "decided" record of an allowed action (nothing is sent when it cannot be written) and returns the
   * decision whose `done` completes it once, after the dispatch.
   */
  private decided(id: string, req: ActionRequest, record: ReturnType<Policy['recordOf']>, result: Verdict): Decision {
    const decided: DecidedRecord = {
      ...record,
      decision: 'allowed',
      reason: result.reason,
      ...(result.answer ? { answer: result.answer } : {}),
      ...(result.approvedBy ? { approved_by: result.approvedBy } : {}),
    };
    try { this.audit?.append(decided); } catch (e) {
      throw new ComputerUseError(
        'denied_by_policy',
        `The audit log ${this.audit?.path ?? ''} cannot be written (${(e as Error).message}), so nothing is ` +
          `sent. Free disk space or fix its permissions.`,
      );
    }
    const started = Date.now();
    let finished = false;
    return {
      confirmed: result.confirmed,
      done: (receipt, detail) => {
        if (finished) return;
        finished = true;
        try {
          const safe = detail ? withoutTyped(detail, req) : undefined;
          this.audit?.append({
            v: 1,
            phase: 'done',
            id,
            time: new Date().toISOString(),
            receipt,
            ...(safe ? { detail: auditText(safe, 200) } : {}),
            ms: Date.now() - started,
          }, { durable: false });
        } catch { /* the decision is already on disk */ }
      },
    };
  }

  /**
   * A terminal's command run (Return in a non-chat app is a step to judge): asked in default and
   * accept-edits modes with the command line quoted, unless a human allowed commands for that terminal; in
   * bypass and unattended mode refused without that allowance. A line the question cannot quote (editing keys
   * before Return, or several submits in one call) is refused: the human must see what they approve.
   */
  private terminalRule(
    req: ActionRequest,
    app: AppIdentity,
    refuse: (d: AuditDecision, reason: string, e: ComputerUseError) => never,
  ): { kind: 'command'; rule: string } | undefined {
    const t = req.kind === 'keys' || req.kind === 'clipboard' ? req.terminal : undefined;
    if (!t || this.commands.allowed(app)) return undefined;
    const allow =
      ` The user can allow command lines in ${quote(AppRules.keyOf(app))} themselves, in their own settings ` +
      `or terminal (never through a call).`;
    if (t.paste) {
      refuse(
        'denied',
        'paste into a terminal',
        new ComputerUseError(
          'denied_by_policy',
          `A paste into ${quote(app.name)} can run commands: ` +
            'the terminal takes each line break as Return, and the user could not see the lines before they run. Nothing was sent. Type the command ' +
            (`without a line break (an element act's type), then send Return with computer_keys, which asks ` +
              `about the line.${allow}`),
        ),
      );
    }
    if (this.mode === 'bypass' || this.mode === 'unattended') {
      refuse(
        'denied',
        `terminal command (${this.mode})`,
        new ComputerUseError(
          'denied_by_policy',
          `${capital(this.mode)} mode runs a terminal's commands only where a human allowed them; ` +
            `Return in ${quote(app.name)} would run a command line. Nothing was sent.${allow}`,
        ),
      );
    }
    if (t.multiple || t.line === undefined) {
      const unread = t.multiple
        ? 'these keys submit more than one line'
        : 'these keys edit the line (Tab, BackSpace, arrows, shortcuts), so it cannot be read before sending';
      refuse(
        'denied',
        'terminal command line unknown',
        new ComputerUseError(
          'denied_by_policy',
          `Return in ${quote(app.name)} runs a command, and the user is asked about it with the command line ` +
            (`quoted, but ` +
              `${unread}. `) +
            'Nothing was sent. Type one command line and Return in one call (only characters before Return), or send the editing keys first and Return alone.',
        ),
      );
    }
    // The rule names no typed text (it reaches the audit log); the question quotes the line itself.
    return { kind: 'command', rule: `Return runs a ${[...t.line].length}-character command line in a terminal` };
  }

  /**
   * Why unattended mode refused an app no allow entry matched, and what the user can do. An app whose program
   * cannot be proven, or that no entry can name (an interpreter without a provable script), is not "missing from
   * the list": adding the entry the message would name changes nothing, so the advice says what does.
   */
  private unlistedAdvice(app: AppIdentity, key: string): string {
    const head = 'Unattended mode acts only on allow-listed apps and never asks; ';

    if (app.unproven !== undefined) {
      return (
        `${head}computer-use cannot prove which program ${quote(app.name)} is (${escapeLine(app.unproven)}), ` +
        `and an allow entry matches only a program the OS proves, ` +
        'so no entry allows it. Nothing was sent. The user can do this step themselves, or run computer-use where that process can be read ' +
        '(the same user, with the same or more privileges), or where they can be asked.'
      );
    }
    if (!AppRules.allowable(app))
      return (
        `${head}${quote(key)} is an interpreter that runs no script path that can be proven. Nothing was sent. ` +
        `${UNNAMEABLE} Or run where the user can be asked.`
      );
    const entry = jsonQuote(key);
    return `${head}${quote(key)} is not on the allow list. Nothing was sent. ${userCanAllowApp(entry)}`;
  }

  /** Asks the human; approval is bound to the target (fingerprint, op, value digest) and re-checked after. */
  private async ask(
    req: ActionRequest,
    app: AppIdentity,
    key: string,
    firstUse: boolean,
    verdict: { kind: string; rule: string } | undefined,
    refuse: (d: AuditDecision, r: string, e: ComputerUseError) => never,
  ): Promise<Verdict> {
    const what = describe(req);
    // The key names a program or script path and the rule may quote the element: outside text, one line each.
    const shownKey = escapeLine(key);
    verdict = verdict ? { kind: verdict.kind, rule: escapeLine(verdict.rule) } : undefined;
    const reasonText = reasonOf(verdict);
    if (!this.confirmer.interactive) refuseUnasked(app, key, what, verdict, reasonText, refuse);
    const binding = bindingOf(req);
    const request = confirmRequestOf(req, app, what, shownKey, firstUse, verdict);
    const answer = await this.answerOf(request, refuse);
    if (!request.choices.includes(answer) || answer === 'deny') {
      refuse(
        'declined',
        reasonText,
        new ComputerUseError(
          'confirmation_declined',
          `The user declined: ${what} in ${quote(app.name)}. Nothing was sent. ` +
            'Do not retry it; ask the user how they want to continue.',
        ),
      );
    }
    if (firstUse) this.grant(key, answer);
    // The approval covers this target only: if it changed while the user was reading, nothing is sent.
    const still = bindingOf(req) === binding && (req.recheck ? await req.recheck().catch(() => false) : true);
    if (!still) {
      refuse(
        'stale',
        'target changed after approval',
        new ComputerUseError(
          'stale_ref',
          `The target changed while the user was being asked (${what}), so nothing was sent. ` +
            'Observe the window again; acting again will ask again.',
        ),
      );
    }
    return { reason: reasonText, answer, confirmed: true };
  }

  /** The human's answer to a question; a pause while asking or a confirmer that fails refuses the step. */
  private async answerOf(
    request: ConfirmRequest,
    refuse: (d: AuditDecision, r: string, e: ComputerUseError) => never,
  ): Promise<ConfirmChoice> {
    const signal = this.options.stop?.signal;
    let answer: ConfirmChoice;
    try {
      answer = await this.confirmer.confirm(request, signal);
    } catch (e) {
      if (this.options.stop?.paused) refuse('paused', 'paused while asking', pausedError());
      const err =
        e instanceof ComputerUseError
          ? e
          : new ComputerUseError(
              'confirmation_required',
              `The question could not be asked (${(e as Error).message}). Nothing was sent.`,
            );
      refuse(
        err.code === 'confirmation_declined' ? 'declined' : 'confirmation_required',
        `confirmer failed: ${err.code}`,
        err,
      );
    }
    if (this.options.stop?.paused) refuse('paused', 'paused while asking', pausedError());
    return answer;
  }

  /** A first use's answer kept: "this session" grants the app, "always" also saves it to the allow list. */
  private grant(key: string, answer: ConfirmChoice): void {
    if (answer === 'allow_session' || answer === 'allow_always') this.grants.add(key);
    if (answer === 'allow_always') {
      this.rules.allow.push(key);
      if (this.settingsPath) {
        try {
          addAllowedApp(this.settingsPath, key);
        } catch {
          /* granted for the session anyway */
        }
      }
    }
  }

  /** The decider's opinion, only ever used to add a confirmation. */
  private async askDecider(
    req: ActionRequest,
    app: AppIdentity,
  ): Promise<{ kind: 'decider'; rule: string } | undefined> {
    const decider = this.options.decider;
    if (!decider) return undefined;
    let step: { role: string; name: string; op: string };
    if (req.kind === 'keys' && (req.chords ?? []).some((c) => c.key === 'Enter'))
      step = { role: req.focused?.role ?? 'keys', name: req.focused?.name ?? '', op: `keys ${req.keys}` };
    else if (
      (req.kind === 'element' || (req.kind === 'pointer' && req.tool === 'computer_act')) &&
      DECIDER_OPS.has(req.op)
    )
      step = { role: req.role, name: req.name ?? '', op: req.op };
    else return undefined;
    const title = targetIn(req).title;
    const ctx = {
      app: app.name,
      role: step.role,
      name: redactText(step.name),
      op: step.op,
      ...(title ? { window: redactText(title) } : {}),
    };
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.options.deciderTimeoutMs ?? 8000);
    try {
      const p = await Promise.race([
        decider.irreversible(ctx, ac.signal).catch(() => null),
        new Promise<null>((resolve) => ac.signal.addEventListener('abort', () => resolve(null), { once: true })),
      ]);
      return typeof p === 'number' && p >= DECIDER_THRESHOLD
        ? { kind: 'decider', rule: `the decider model rates it irreversible (p=${p.toFixed(2)})` }
        : undefined;
    } finally { clearTimeout(timer); ac.abort(); }
  }

  /** The app as the device's driver proves it (process.identify, apps.resolveLaunch): facts, never names. */
  private identify(req: ActionRequest): AppIdentity {
    if (req.kind === 'launch') return launchIdentity(req.argv, req.launch);
    const app: AppIdentity = { name: req.app ?? '' };
    if (req.pid !== undefined) {
      app.pid = req.pid;
      const info = req.identity ?? this.info(req.pid);
      if (info?.executable) app.executable = info.executable;
      // The process is there but its driver proves no executable (another user's process, a driver that cannot
      // tell): nothing proves what it is, so no allow entry names it.
      else if (info && info.gone !== true) app.unproven = 'its executable cannot be proven';
      const signed = info ? signedIdOf(info) : undefined;
      if (signed) app.signedId = signed;
      if (info?.cmdline) app.cmdline = info.cmdline;
      if (info?.cwd) app.cwd = info.cwd;
      if (info?.sameAs?.length) app.also = [...info.sameAs];
      // An interpreter's own package says nothing about the script it runs.
      if (info?.package && info.executable && !isInterpreter(info.executable)) app.package = info.package;
      // An interpreter running an installed script its command line names (python3 /usr/bin/meld) is named like
      // that script's launch, so the entry that started it acts on it (launch-one-entry.test.ts).
      if (info?.launcher && info.executable && isInterpreter(info.executable) && scriptOf(app) === info.launcher.path) {
        const names = launcherNames(info.launcher);
        if (names.length) app.launcher = names;
      }
      const st = info?.startToken ?? req.startToken;
      if (st !== undefined) app.startToken = st;
      // Started by a launch this host made (proven by the tree at the launch): that launch's entry covers it.
      const launched = st !== undefined ? this.launched.get(`${req.pid}\n${st}`) : undefined;
      if (launched && info?.gone !== true) app.launchedAs = launched;
    }
    if (req.title) app.title = req.title;
    return app;
  }

  /** Keyed digest of typed text for the audit record (a plain hash when there is no log). */
  private digest(s: string): TextDigest {
    return this.audit ? this.audit.digest(s) : { len: [...s].length, hmac: '' };
  }

  /** The parts of an audit record known before the decision. */
  private recordOf(id: string, req: ActionRequest, app: AppIdentity): Omit<DecidedRecord, 'decision' | 'reason'> {
    let redacted = req.kind === 'element' && req.password === true;
    const r: Omit<DecidedRecord, 'decision' | 'reason'> = {
      v: 1,
      phase: 'decided',
      id,
      time: new Date().toISOString(),
      session: this.session,
      device: this.options.device ?? 'local',
      mode: this.mode,
      tool: req.tool,
      app: auditText(app.name, 80),
      redacted: false,
    };
    if (app.executable) r.executable = app.executable;
    if (req.kind === 'launch') {
      r.command = auditText(req.command, 200);
      r.redacted = r.command !== req.command;
      return r;
    }
    if (req.pid !== undefined) r.pid = req.pid;
    if (req.window !== undefined) r.window = req.window;
    if (req.kind === 'keys') {
      if (keysTypeText(req) || req.focused?.password) {
        r.keys = this.digest(req.keys);
        redacted = true;
      } else r.keys = req.keys;
      r.redacted = redacted;
      return r;
    }
    // The record's fields keep one order for every kind (ref, fingerprint, op, role, name, …): readers of the log match
    // on it.
    if (req.kind !== 'clipboard' && req.ref !== undefined) r.ref = req.ref;
    if (req.kind === 'element' && req.fingerprint) r.fingerprint = hash(JSON.stringify(req.fingerprint));
    r.op = req.op;
    if (req.kind !== 'clipboard') {
      r.role = req.role;
      if (req.name !== undefined) { r.name = auditText(req.name, 80); if (r.name !== req.name) redacted = true; }
    }
    if (req.kind === 'pointer') r.point = `${req.point.join(',')}${req.to ? `→${req.to.join(',')}` : ''}`;
    const value = typedTextOf(req);
    if (value !== undefined) {
      // Typed text, a password and the clipboard's text are digested; a chosen item (select "Large") is shown.
      if (
        req.kind === 'clipboard' ||
        (req.kind === 'element' && req.password === true) ||
        req.op === 'set_value' ||
        req.op === 'type'
      ) {
        r.value = this.digest(value);
        redacted = true;
      } else r.name = `${r.name ?? ''} → ${auditText(value, 60)}`;
    }
    r.redacted = redacted;
    return r;
  }
}

/** What the approval is bound to: the target's fingerprint, the op and a digest of the value. */
function bindingOf(req: ActionRequest): string {
  const value = typedTextOf(req);
  return hash(
    JSON.stringify([
      req.kind,
      req.tool,
      req.kind === 'element' ? (req.fingerprint ?? null) : null,
      targetIn(req).window ?? null,
      req.kind === 'keys' || req.kind === 'launch' ? null : req.op,
      value === undefined ? null : hash(value),
      req.kind === 'keys' ? req.keys : null,
      req.kind === 'launch' ? req.command : null,
      req.kind === 'pointer' ? req.point : null,
      req.kind === 'pointer' ? (req.to ?? null) : null,
    ]),
  );
}


const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/**
 * A dispatch error or detail without the typed text: an input tool's error may echo what it was asked to
 * type, so when the request typed anything, a detail that contains it (or any word of it) is withheld.
 */
export function withoutTyped(detail: string, req: ActionRequest): string {
  const typed: string[] = [];
  const value = typedTextOf(req);
  if (value !== undefined) typed.push(value);
  if (req.kind === 'keys' && (keysTypeText(req) || req.focused?.password)) typed.push(req.keys);
  if (typed.length === 0) return detail;
  const low = detail.toLowerCase();
  const words = typed
    .flatMap((t) => [t, ...t.split(/\s+/)])
    .map((w) => w.trim().toLowerCase())
    .filter((w) => [...w].length >= 3);
  return words.some((w) => low.includes(w)) ? '(detail withheld: it may contain the typed text)' : detail;
}

/** Why a step is asked, as the audit and the question word it: the verdict's kind and rule, or a first use. */
function reasonOf(verdict: { kind: string; rule: string } | undefined): string {
  if (!verdict) return 'first use of the app in this session';
  const kind =
    verdict.kind === 'password'
      ? 'password field'
      : verdict.kind === 'decider'
        ? 'decider'
        : verdict.kind === 'unproven'
          ? 'unproven program'
          : verdict.kind === 'command'
            ? 'terminal command'
            : 'irreversible';
  return `${kind}: ${verdict.rule}`;
}

/** Refuses a step that needs a question where no one can be asked, with what would let it through. */
function refuseUnasked(app: AppIdentity, key: string, what: string, verdict: { kind: string; rule: string } | undefined,
  reasonText: string, refuse: (d: AuditDecision, r: string, e: ComputerUseError) => never): never {
  // An entry that can never match is no advice: say what would make the app nameable instead.
  const allowable = AppRules.allowable(app);
  const fix = verdict
    ? `${ASK_THE_USER}.`
    : allowable
      ? `${userCanAllowApp(jsonQuote(key))} ${ASK_THE_USER}.`
      : `${UNNAMEABLE} Or run where the user can be asked.`;
  return refuse(
    'confirmation_required',
    reasonText,
    new ComputerUseError(
      'confirmation_required',
      `${capital(what)} in ${quote(app.name)} needs the user's confirmation (${reasonText}), and no one can ` +
        `be asked here. Nothing was sent. ${fix}`,
    ),
  );
}

/** The question put to the human: what the step does, where, why it is asked and the answers it allows. */
function confirmRequestOf(req: ActionRequest, app: AppIdentity, what: string, shownKey: string, firstUse: boolean,
  verdict: { kind: string; rule: string } | undefined): ConfirmRequest {
  const target = targetIn(req);
  const stillAsked = verdict
    ? ' "This session"/"always" allow the app; steps like this one are still asked every time.'
    : '';
  return {
    title: verdict ? `Confirm: ${what}?` : `Allow computer-use to act in ${shownKey}?`,
    message:
      `computer-use wants to ${what} in ${quote(app.name)}${target.title ? ` (window ${quote(target.title)})` : ''}. ` +
      (verdict ? verdictSentence(req, verdict) : '') +
      (firstUse
        ? `This is its first action in ${shownKey} in this session.${stillAsked} `
        : '') +
      'Text in quotes comes from the app.',
    choices: firstUse ? ['allow_once', 'allow_session', 'allow_always', 'deny'] : ['allow_once', 'deny'],
    reason: verdict
      ? verdict.kind === 'password'
        ? 'password'
        : verdict.kind === 'decider'
          ? 'decider'
          : verdict.kind === 'unproven'
            ? 'other'
            : 'irreversible'
      : 'app_first_use',
  };
}

/** The question's sentence on why this step is asked, by the verdict's kind. */
function verdictSentence(req: ActionRequest, verdict: { kind: string; rule: string }): string {
  if (verdict.kind === 'command') {
    const line = quote((req.kind === 'keys' ? req.terminal?.line : undefined) ?? '', 400);
    return `It runs this command line in the terminal, as the terminal shows it: ${line}. `;
  }
  if (verdict.kind === 'password') return 'It writes into a password field. ';
  if (verdict.kind === 'unproven') return `Which program it starts cannot be proven (${verdict.rule}). `;
  return `This may not be undoable (${verdict.rule}). `;
}

/** App text as quoted data (engine/escape.ts): secret-redacted, cut (to `max` characters), on one line, controls and
* bidi removed. */
function quote(s: string, max = 80): string {
  const r = redactText(s);
  return quoteText([...r].length > max ? [...r].slice(0, max - 1).join('') + '…' : r);
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The action in a few words, without secrets. */
function describe(req: ActionRequest): string {
  switch (req.kind) {
    case 'launch': return `start ${quote(req.command)}`;
    case 'keys': {
      const k = req.keys;
      if (req.focused?.password || keysTypeText(req))
        return (
          `type ${[...k.replace(/\s+/g, '')].length} characters` +
          `${req.focused?.password ? ' into a password field' : ''} (not shown)`
        );
      return `press ${quoteText(k)}`;
    }
    case 'clipboard':
      if (req.op === 'clipboard_read') return 'read the clipboard';
      return (
        `${req.op === 'paste' ? 'paste' : 'put'} ${[...(req.value ?? '')].length} characters ` +
        `${req.op === 'paste' ? '' : 'on the clipboard '}(not shown)`
      ).replace('  ', ' ');
    case 'pointer': {
      const at = `at screen pixel ${req.point.join(',')}${req.to ? ` to ${req.to.join(',')}` : ''}`;
      return `${req.op.replace('_', ' ')} ${at}${req.name ? ` (OCR text ${quote(req.name)})` : ''}`;
    }
    case 'element': {
      const target = `${req.role}${req.name ? ` ${quote(req.name)}` : ''}`;
      const value =
        req.value === undefined
          ? ''
          : req.password
            ? ` (${[...req.value].length} characters, not shown)`
            : ` with ${quote(req.value)}`;
      return `${req.op.replace('_', ' ')} ${target}${value}`;
    }
  }
}
