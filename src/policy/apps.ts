/**
 * App authorization: which app an action targets, as the platform
 * proves it (pid → executable realpath, start time against pid reuse, command line), the user's allow/deny
 * lists, and a built-in deny list no setting can lift.
 *
 * Names may deny, never allow. Any of the executable's path, its file name, the name the app
 * gives itself, its X11 WM_CLASS or its window title (or a name a launch involves) can add a refusal, after
 * look-alike normalisation (confusables.ts). An allowance comes only from the proven executable, or from an
 * identifier a validated signature proves (appId kind `signed`: a macOS bundle id and its team). An
 * interpreter (python3, node, java, sh…) says nothing about the app it runs, so it is never allowed by its own
 * name nor by the name the app chooses: an interpreted app is allowed by an entry naming the interpreter and
 * the script, `"/usr/bin/python3 /path/app.py"` (or `"python3 /path/app.py"`), matched against the proven
 * command line (the script's realpath), and nothing else.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { procInfo } from '../common/proc.js';
import type { IdentifyResult, ResolveLaunchResult } from '../protocol/identity.js';
import { foldings, normalizeText, sameSkeleton } from './confusables.js';
import { showsPanel } from './panel-marker.js';

/**
 * What the device's driver proves about a process (`process.identify`, protocol/identity.ts), as the policy
 * reads it: the policy never reads /proc itself, so a local and a remote device take the same route.
 */
export type ProcessFacts = Omit<IdentifyResult, 'pid' | 'argv' | 'content'> & { cmdline?: string[]; sameAs?: string[] };
/** What the device's driver says a launch will run (`apps.resolveLaunch`). */
export type LaunchFacts = ResolveLaunchResult;

/** The facts of an `process.identify` answer, in the policy's terms. */
export function factsOfIdentify(r: IdentifyResult): ProcessFacts {
  const { pid: _pid, argv, content, ...rest } = r;
  const out: ProcessFacts = { ...rest };
  if (argv) out.cmdline = argv;
  const same = [...(r.sameAs ?? []), ...(content?.sameAs ?? [])];
  if (same.length) out.sameAs = [...new Set(same)];
  return out;
}

/**
 * The pids of this process and its ancestors (the agent host, its terminal), without init. This is the host
 * knowing itself (its own /proc), not identity of a device's process.
 */
export function ancestorPids(info: (pid: number) => { ppid?: number } | undefined = procInfo): number[] {
  const out = [process.pid];
  let pid = process.ppid;
  for (let i = 0; i < 64 && pid > 1 && !out.includes(pid); i++) {
    out.push(pid);
    const next = info(pid)?.ppid;
    if (next === undefined) break;
    pid = next;
  }
  return out;
}

/** The app an action targets. */
export interface AppIdentity {
  /** Name the app gives itself (untrusted) or the command being launched. */
  name: string;
  pid?: number;
  /** Proven executable path (from the platform, not from the app). */
  executable?: string;
  startToken?: string;
  /** Window title (untrusted; only used to add refusals). */
  title?: string;
  /** The window class the app sets (X11 WM_CLASS: untrusted; only used to add refusals). */
  className?: string;
  /**
   * The installed package of a running program ("binary/source"), which the driver reports only for a
   * system-owned file; never an interpreter's (python3's package runs any script), never a launch's (a package
   * holds other programs too: `launcher` names those). An allow entry may name it.
   */
  package?: string;
  /** The process's argument vector as /proc shows it (for interpreted apps: which script runs). */
  cmdline?: string[];
  /** The process's working directory, to resolve a relative script path in `cmdline`. */
  cwd?: string;
  /**
   * The identifier and signer a validated signature proves (a macOS bundle id and team, appId kind `signed`):
   * an allow entry may name the app by it. Set only from a driver's `signed` appId (signedIdOf).
   */
  signedId?: SignedId;
  /**
   * A launch of an installed launcher script, or an interpreter process running one (meld): the commands the
   * system's program directories give that script, preferred first (`libreoffice`, `soffice`), as the driver proves
   * them (`launchers[].commands`, `process.identify` `launcher`). An allow entry may name it.
   */
  launcher?: string[];
  /**
   * The launch this process came from, when computer_launch started it and the driver proved, by the process tree
   * at the launch, that it is the started process or runs under it (`launch lowriter` becomes soffice.bin): an
   * allow entry or a session grant that names the launch covers it. Never from a name: only the host records it.
   */
  launchedAs?: AppIdentity;
  /** Other names the action involves, e.g. the arguments of a launch (`env keepassxc`); they can only deny. */
  also?: string[];
  /**
   * Why the platform could not prove which program this is (a launch through code strings, an unreadable
   * /proc/<pid>/exe). Such an app is never allowed by a list; it is asked about, or refused where nobody asks.
   */
  unproven?: string;
}

/** An identifier claimed by code whose signature by `signer` the OS validated ("com.apple.TextEdit", "apple"). */
export interface SignedId { id: string; signer: string }

/** Signing results that validate a signer (protocol `Signing`); any other one proves no identifier. */
const VALIDATED_SIGNING = new Set(['apple', 'developer']);
/** One identifier, one signer: no space, slash, control character or second "@" (a forged or garbled id proves nothing). */
const SIGNED_APP_ID = /^([A-Za-z0-9][A-Za-z0-9._!-]{0,254})@([A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;

/**
 * The identifier a driver's facts prove, platform-neutrally: only an appId the driver marks `signed`, of the
 * form "<id>@<signer>", and, where the driver reports how the code is signed (macOS `signing`), only a
 * validated signature. Anything else (a path, an ad-hoc or modified signature, a kind the policy does not
 * know) proves no identifier and the app is judged by its executable path.
 */
export function signedIdOf(facts: { appId?: string; appIdKind?: string; signing?: string }): SignedId | undefined {
  if (facts.appIdKind !== 'signed' || facts.appId === undefined) return undefined;
  if (facts.signing !== undefined && !VALIDATED_SIGNING.has(facts.signing)) return undefined;
  const m = SIGNED_APP_ID.exec(facts.appId);
  if (!m?.[1] || !m[2]) return undefined;
  // Apple's own code is signed by "apple" and only by it; a team id is never "apple".
  if (facts.signing !== undefined && (facts.signing === 'apple') !== (m[2] === 'apple')) return undefined;
  return { id: m[1], signer: m[2] };
}

/** Lower-case, no `.exe`, no surrounding space (allow entries for interpreted apps keep their inner space). */
export function normApp(s: string): string {
  return s.trim().toLowerCase().replace(/\.exe$/, '');
}

const base = (p: string): string => normApp(p.split(/[\\/]/).pop() ?? p);

/**
 * Executables that run someone else's code: their path does not say which app it is, so they are never
 * allowed by their own name or the app's; only an entry naming interpreter and script allows (see above).
 * Windows has its own (`.exe` is dropped before the match): cmd, PowerShell, the script hosts, mshta,
 * rundll32/regsvr32 (any DLL's code), msiexec, the py launcher, pythonw, javaw, wsl.
 */
export const INTERPRETER =
  /^(python[0-9.]*m?|pypy[0-9.]*|node|nodejs|bun|deno|gjs|cjs|seed|java|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|lua[0-9.]*|luajit|tclsh[0-9.]*|wish[0-9.]*|osascript|sh|bash|dash|zsh|ksh|mksh|fish|busybox|electron[0-9]*|mono|dotnet|wine(64)?(-preloader)?|qemu.*|flatpak-spawn|bwrap|snap|env|ld-linux.*\.so.*|ld\.so|rlwrap|guile[0-9.]*|racket|sbcl|emacs|vim?|nvim|awk|gawk|mawk|nawk|cmd|powershell(_ise)?|pwsh|wscript|cscript|mshta|rundll32|regsvr32|msiexec|py|pythonw[0-9.]*|javaw|wsl)$/;

/** True when the executable (path or file name) is an interpreter. */
export function isInterpreter(executable: string): boolean {
  return INTERPRETER.test(base(executable));
}

const AGENT_HOST = 'the agent host itself';

/** Why a category is denied, for messages: `exact` names the whole name, `anywhere` words found inside any name or title. */
interface DenyRule { what: string; exact: RegExp; anywhere?: RegExp }

/**
 * The built-in deny list, matched against the app name, the executable's file name, the launch command and
 * window and tab titles (`anywhere` inside a title; `exact` against the title and its " - " parts).
 * Categories of the design: password managers, keyrings and credential managers, elevation prompts, system
 * security and privacy settings, and the agent host itself.
 */
const BUILTIN_DENY: readonly DenyRule[] = [
  {
    what: 'a password manager',
    exact:
      /^(keepassxc|keepassx|keepass2?|kpcli|keeweb|bitwarden(-desktop)?|1password|lastpass|dashlane|enpass|keeper(passwordmanager)?|nordpass|proton ?pass|roboform|qtpass|gopass(-ui)?|passwordsafe|gnome-passwordsafe|secrets|pwsafe|buttercup|padloc|authenticator|authy)$/,
    anywhere: /keepass|bitwarden|1password|password ?manager|密码管理/,
  },
  {
    what: 'a keyring or credential manager',
    exact:
      /^(seahorse|gnome-keyring(-daemon)?|gcr-prompter|gcr-viewer|kwalletd[0-9]*|kwalletmanager[0-9]*|ksecretd|kwallet-query|keychain access|passwords and keys|credential ?manager|credentialuibroker|pinentry(-[a-z0-9-]+)?|ssh-askpass|ksshaskpass|x11-ssh-askpass|lxqt-openssh-askpass|gnome-ssh-askpass)$/,
    anywhere: /keyring|kwallet|钥匙串|凭据/,
  },
  {
    what: 'an elevation or authentication prompt',
    exact:
      /^(pkexec|sudo|su|doas|gksu(do)?|kdesu(do)?|beesu|lxpolkit|lxqt-policykit-agent|consent|securityagent|runas)$/,
    anywhere: /polkit|policykit|authentication[- ]agent/,
  },
  {
    what: 'system security settings',
    exact:
      /^(firewall-config|gufw|users-admin|gnome-firewall|windows security|securityhealthhost|systempreferences-security)$/,
  },
  { what: AGENT_HOST, exact: /^(computer-use|prometheus)$/ },
  // Android apps are named by package: the password managers, authenticators and the permission controller
  // (which grants an app its permissions; the agent must not grant itself any).
  {
    what: 'an Android password manager, authenticator or permission screen',
    exact:
      /^(com\.x8bit\.bitwarden|com\.onepassword\.android|com\.agilebits\.onepassword|com\.lastpass\.lpandroid|com\.dashlane|keepass2android\.keepass2android(_nonet)?|com\.kunzisoft\.keepass\.(free|libre|pro)|com\.nordpass\.android\.app|proton\.android\.pass|com\.callpod\.android_apps\.keeper|com\.enpass\.android|com\.google\.android\.apps\.authenticator2|com\.authy\.authy|com\.azure\.authenticator|org\.fedorahosted\.freeotp|com\.(google\.)?android\.permissioncontroller|com\.android\.packageinstaller)$/,
  },
];

const ruleMatches = (r: DenyRule, name: string): boolean => r.exact.test(name) || Boolean(r.anywhere?.test(name));

/** The built-in deny list's categories, for display (the panel shows them; nothing lifts them). */
export const BUILTIN_DENY_CATEGORIES: readonly string[] = BUILTIN_DENY.map((r) => r.what);

/** Window titles that mark an elevation or security dialog whatever process shows it (only add refusals). */
const DENY_TITLES =
  /^(authentication required|authenticate|user account control|privacy|privacy (&|and) security|security (&|and) privacy|passwords and keys|keychain access|windows security|需要认证|用户帐户控制|用户账户控制|隐私与安全性?)$|\bpolkit\b|\bpkexec\b/i;

/**
 * Android system screens the agent may not see or change (the Android driver names a window by its activity,
 * `Settings$SecurityDashboardActivity`): security, screen lock, biometrics, device admins, trusted credentials,
 * accessibility (an accessibility service can read and drive everything) and developer options.
 */
const ANDROID_SECURITY_SCREEN =
  /(^|[.$])(Security\w*|ScreenLock\w*|ChooseLock\w*|ConfirmLock\w*|LockScreen\w*|Biometric\w*|Fingerprint\w*|FaceSettings\w*|DeviceAdmin\w*|TrustedCredentials\w*|Accessibility\w*|DevelopmentSettings\w*|EncryptionAndCredential\w*|CredentialStorage\w*)Activity$/;

/** The built-in category `name` falls in, if any; look-alike forms of the name match too. */
export function builtinDenied(name: string): string | undefined {
  const n = normApp(normalizeText(name));
  if (!n) return undefined;
  for (const form of new Set([...foldings(n), ...foldings(base(n))])) {
    const what = BUILTIN_DENY.find((r) => ruleMatches(r, form) || ruleMatches(r, base(form)))?.what;
    if (what) return what;
  }
  return undefined;
}

/**
 * The built-in category a window title falls in: the `anywhere` words of the deny list searched in the whole
 * title (a browser adds " - Chromium", a page adds " Web Vault"), and the whole title and each of its
 * " - "-separated parts tested as a name ("Passwords and Keys", "sudo - Terminal"). Single words are not
 * tested as names: a page about "Secrets" or "su" is not a password manager. Look-alike forms match too.
 */
export function titleDenied(title: string): string | undefined {
  for (const form of foldings(normApp(normalizeText(title)))) {
    const what = BUILTIN_DENY.find((r) => r.anywhere?.test(form))?.what;
    if (what) return what;
  }
  for (const part of titleParts(title)) {
    const what = builtinDenied(part);
    // A title naming computer-use (a folder, a README) is not the tool: the host is known by pid, the panel by its
    // marker.
    if (what && what !== AGENT_HOST) return what;
  }
  return undefined;
}

/** The parts of a title that may name an app: the whole and its " - " / " — " / " | " parts. */
function titleParts(title: string): string[] {
  return [...new Set([title.trim(), ...title.split(/\s+[-–—|·:]\s+/).map((p) => p.trim())].filter(Boolean))];
}

/** Allow and deny lists plus the built-in deny list. */
export class AppRules {
  readonly allow: string[];
  readonly deny: string[];
  /** Pids of the agent host (this process and its ancestors): never acted on. */
  readonly hostPids: ReadonlySet<number>;
  /** The panel's per-install marker (panel-marker.ts): a window or tab that shows it is the panel. */
  readonly panelMarkers: readonly string[];

  constructor(
    opts: {
      allowApps?: readonly string[];
      denyApps?: readonly string[];
      hostPids?: readonly number[];
      panelMarkers?: readonly string[];
    } = {},
  ) {
    this.allow = [...new Set((opts.allowApps ?? []).map(normApp).filter(Boolean))];
    this.deny = [...new Set((opts.denyApps ?? []).map(normApp).filter(Boolean))];
    this.hostPids = new Set(opts.hostPids ?? []);
    this.panelMarkers = (opts.panelMarkers ?? []).map((m) => m.toLowerCase()).filter(Boolean);
  }

  /**
   * Why the app is refused in every mode, or undefined. Any of executable path, its file name, the app's name,
   * WM_CLASS, window title or the other names of the action may deny, look-alikes included.
   */
  denied(app: AppIdentity): string | undefined {
    if (app.pid !== undefined && this.hostPids.has(app.pid))
      return 'it is the agent host itself (an agent may not change its own permissions)';
    if (this.panelMarkers.some((m) => [app.title, app.name, ...(app.also ?? [])].some((t) => showsPanel(t, m)))) {
      return 'it is the computer-use panel, the tool itself (built-in deny list: an agent may not answer its own questions or change its own permissions)';
    }
    const names = denyNames(app);
    for (const n of names) {
      const what = builtinDenied(n);
      if (what) return `it is ${what} (built-in deny list; no setting lifts it)`;
    }
    if (app.title) {
      const title = normalizeText(app.title);
      if (foldings(title).some((t) => DENY_TITLES.test(t)))
        return 'its window is an authentication or security dialog (built-in deny list; no setting lifts it)';
      if (ANDROID_SECURITY_SCREEN.test(app.title))
        return (
          'its screen is an Android security, lock-screen or accessibility setting (built-in deny list; no ' +
          'setting lifts it)'
        );
      // A tab or window titled like a denied app ("Bitwarden Web Vault", "KeePassXC") is that app to the user.
      const what = titleDenied(title);
      if (what) return `its window shows ${what} (built-in deny list, matched on the title; no setting lifts it)`;
      if (this.deny.some((d) => titleParts(title).some((w) => denyMatches(d, w))))
        return 'its window title names an app on your denyApps list';
    }
    for (const n of names) if (this.deny.some((d) => denyMatches(d, n))) return `it is on your denyApps list`;
    return undefined;
  }

  /**
   * True when the allow list names the app by what the platform proves: the executable's path or file name,
   * or for an interpreter the interpreter plus the script its command line runs. Never by a name alone.
   */
  allowed(app: AppIdentity): boolean {
    if (app.unproven !== undefined) return false;
    return (
      this.allow.some((a) => allowMatches(a, app)) || (app.launchedAs !== undefined && this.allowed(app.launchedAs))
    );
  }

  /** True when one of `entries` (session grants: keys as keyOf makes them) names the app as an allow entry would. */
  static allowedBy(entries: Iterable<string>, app: AppIdentity): boolean {
    if (app.unproven !== undefined) return false;
    for (const e of entries) {
      if (allowMatches(normApp(e), app) || (app.launchedAs && AppRules.allowedBy([e], app.launchedAs))) return true;
    }
    return false;
  }

  /**
   * False when no allow entry can name the app: an interpreter whose proven command line gives no script path
   * (code after -c, or a relative path: the working directory it was resolved in is not proven).
   */
  static allowable(app: AppIdentity): boolean {
    return app.unproven === undefined && !(app.executable && isInterpreter(app.executable) && !scriptOf(app));
  }

  /** The name to use for the app in settings and messages: the executable's file name, or interpreter + script. */
  static keyOf(app: AppIdentity): string {
    // A signed app by identifier and signer: a grant names the team that signed it, not any claimant of the id.
    if (app.signedId && !(app.executable && isInterpreter(app.executable)))
      return normApp(`${app.signedId.id}@${app.signedId.signer}`);
    // An installed launcher by the command a user knows: the same key as the acts on what it starts (its package).
    if (app.launcher?.[0]) return normApp(app.launcher[0]);
    if (app.executable && !isInterpreter(app.executable)) return base(app.executable);
    if (app.executable) {
      const script = scriptOf(app);
      if (script) return `${base(app.executable)} ${normApp(script)}`;
      // No script to prove (code on the command line): a key no allow entry matches, and session grants of
      // the app it names ("gedit") do not reach it.
      return `${base(app.executable)} (${normApp(app.name)})`;
    }
    return normApp(app.name);
  }
}

/** Every name of an app that may add a refusal. */
function denyNames(app: AppIdentity): string[] {
  const out = [app.name, ...packageNames(app.package)];
  if (app.signedId) out.push(app.signedId.id);
  if (app.executable) out.push(app.executable);
  if (app.className) out.push(...app.className.split(/[\0,]/).filter(Boolean));
  const script = scriptOf(app);
  if (script) out.push(script);
  out.push(...(app.also ?? []));
  return out.filter((n) => n.trim() !== '');
}

/** Does a deny entry (name, executable path, or file name) match a name or path? Look-alikes match. */
function denyMatches(entry: string, nameOrPath: string): boolean {
  const n = normApp(nameOrPath);
  if (entry.includes('/') || entry.includes('\\')) return n === entry || sameSkeleton(n, entry);
  return n === entry || base(n) === entry || sameSkeleton(n, entry) || sameSkeleton(base(n), entry);
}

/** Does an allow entry match the proven identity? Exact path or file name; interpreters need their script. */
function allowMatches(entry: string, app: AppIdentity): boolean {
  // One entry by the name a user knows (docs/policy.md, "One app, one allow entry"): a running program by the installed
  // package (or source package) of its system-owned executable, soffice.bin by "libreoffice"; a launch of an
  // installed launcher script by a command the system gives it, /usr/lib/libreoffice/program/soffice by "libreoffice".
  if (
    app.executable &&
    !entry.includes('/') &&
    !entry.includes(' ') &&
    (packageNames(app.package).includes(entry) || app.launcher?.some((c) => normApp(c) === entry) === true)
  )
    return true;
  // A validated signature's identifier: "com.apple.textedit" (any validated signer) or "com.apple.textedit@apple"
  // (that signer only). An interpreter's signature says nothing about the script it runs (python3 is Apple's).
  if (app.signedId && !(app.executable && isInterpreter(app.executable))) {
    const { id, signer } = app.signedId;
    if (entry === normApp(id) || entry === normApp(`${id}@${signer}`)) return true;
  }
  if (app.executable) {
    if (!isInterpreter(app.executable)) return pathMatches(entry, app.executable);
    // "python3 /path/app.py": the interpreter and the script the proven command line runs.
    const sp = entry.indexOf(' ');
    const script = scriptOf(app);
    if (sp < 0 || !script) return false;
    const [interp, wanted] = [entry.slice(0, sp), entry.slice(sp + 1).trim()];
    return (
      interpreterMatches(interp, app.executable) && isAbsolute(wanted) && normApp(script) === normApp(realOr(wanted))
    );
  }
  // Nothing proven (a platform that cannot tell, e.g. a process on another host): the name is all there is.
  // An interpreter's name is never enough, even then.
  return !entry.includes('/') && !entry.includes(' ') && !INTERPRETER.test(entry) && normApp(app.name) === entry;
}

/** "libreoffice-core/libreoffice" → both names. */
function packageNames(pkg: string | undefined): string[] {
  return pkg ? pkg.split('/').map(normApp).filter(Boolean) : [];
}

/** Exact path (entries with a slash) or file name. */
function pathMatches(entry: string, path: string): boolean {
  const n = normApp(path);
  return entry.includes('/') || entry.includes('\\') ? n === entry || n === normApp(realOr(entry)) : base(n) === entry;
}

/** "python3" matches /usr/bin/python3.13; "/usr/bin/python3" matches its realpath. */
function interpreterMatches(entry: string, executable: string): boolean {
  if (entry.includes('/'))
    return normApp(realOr(entry)) === normApp(executable) || normApp(entry) === normApp(executable);
  const family = (s: string): string => s.replace(/[0-9.]+$/, '');
  return base(executable) === entry || family(base(executable)) === family(entry);
}

/** A script path as a realpath; a relative one only when the working directory is known. */
function pathOf(p: string | undefined, cwd: string | undefined): string | undefined {
  if (!p) return undefined;
  if (isAbsolute(p)) return realOr(p);
  return cwd ? realOr(resolve(cwd, p)) : undefined;
}

const realOr = (p: string): string => { try { return realpathSync(p); } catch { return p; } };

/** Interpreter options that take a value ("-X dev", "-W ignore"): the word after them is not the script. */
const OPTION_WITH_VALUE = /^-(X|W|m|c|e|r|I|M|x|E)$/;
/** Options after which the program is code, not a file: no script to prove. */
const CODE_OPTION = /^(-c|-e|-E|-m|--eval|--print|-p|-r|--require|-)$/;

/**
 * The script an interpreter process runs: the first non-option word of its proven command line, as a realpath
 * (relative to the process's working directory). Undefined for code given on the command line (`-c`, `-e`).
 */
export function scriptOf(app: { executable?: string; cmdline?: string[]; cwd?: string }): string | undefined {
  const argv = app.cmdline;
  if (!app.executable || !argv || argv.length < 2 || !isInterpreter(app.executable)) return undefined;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? '';
    if (CODE_OPTION.test(w) || w.startsWith('--eval=')) return undefined;
    if (w === '--') return pathOf(argv[i + 1], app.cwd);
    if (w.startsWith('-')) { if (OPTION_WITH_VALUE.test(w)) i++; continue; }
    return pathOf(w, app.cwd);
  }
  return undefined;
}
