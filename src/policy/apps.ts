/**
 * App authorization (issue 3 part 2): which app an action targets, as the platform proves it (pid →
 * executable path, process start time against pid reuse), the user's allow/deny lists, and a built-in deny
 * list no setting can lift. Window titles and app names are untrusted: they can only add a refusal, never
 * an allowance, except for interpreters whose executable says nothing about the app.
 */
import { readFileSync, readlinkSync } from 'node:fs';

/** What the platform proves about a process. */
export interface ProcessInfo {
  /** Absolute executable path. */
  executable?: string;
  /** Start time (Linux: clock ticks since boot, field 22 of /proc/pid/stat). */
  startTime?: number;
  /** Parent pid. */
  ppid?: number;
}

/** Reads /proc/<pid> (Linux); undefined elsewhere or when the process is gone. */
export function procInfo(pid: number): ProcessInfo | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  const info: ProcessInfo = {};
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    const ppid = Number(fields[1]);
    if (Number.isFinite(start)) info.startTime = start;
    if (Number.isFinite(ppid)) info.ppid = ppid;
  } catch { return undefined; }
  try { info.executable = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, ''); } catch { /* not ours to read */ }
  return info;
}

/** The pids of this process and its ancestors (the agent host, its terminal), without init. */
export function ancestorPids(info: (pid: number) => ProcessInfo | undefined = procInfo): number[] {
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
  startTime?: number;
  /** Window title (untrusted; only used to add refusals). */
  title?: string;
  /** Other names the action involves, e.g. the arguments of a launch (`env keepassxc`); they can only deny. */
  also?: string[];
}

/** Lower-case, no `.exe`, no surrounding space. */
export function normApp(s: string): string {
  return s.trim().toLowerCase().replace(/\.exe$/, '');
}

const base = (p: string): string => normApp(p.split(/[\\/]/).pop() ?? p);

/**
 * Executables that run someone else's code: their path does not say which app it is, so for them the allow
 * list also matches the app's name.
 */
const INTERPRETER = /^(python[0-9.]*|node|nodejs|gjs|java|perl|ruby|sh|bash|dash|zsh|electron[0-9]*|mono|wine(64)?(-preloader)?|qemu.*|flatpak-spawn|bwrap|snap)$/;

/** Why a category is denied, for messages. */
interface DenyRule { what: string; names: RegExp }

/**
 * The built-in deny list, matched against the app name, the executable's file name and the launch command.
 * Categories from seed §7: password managers, keyrings and credential managers, elevation prompts, system
 * security and privacy settings, and the agent host itself.
 */
const BUILTIN_DENY: readonly DenyRule[] = [
  { what: 'a password manager', names: /^(keepassxc|keepassx|keepass2?|kpcli|keeweb|bitwarden(-desktop)?|1password|lastpass|dashlane|enpass|keeper(passwordmanager)?|nordpass|proton ?pass|roboform|qtpass|gopass(-ui)?|passwordsafe|gnome-passwordsafe|secrets|pwsafe|buttercup|padloc|authenticator|authy)$|keepass|bitwarden|1password|password ?manager|密码管理/ },
  { what: 'a keyring or credential manager', names: /^(seahorse|gnome-keyring(-daemon)?|gcr-prompter|gcr-viewer|kwalletd[0-9]*|kwalletmanager[0-9]*|ksecretd|kwallet-query|keychain access|passwords and keys|credential ?manager|credentialuibroker|pinentry(-[a-z0-9-]+)?|ssh-askpass|ksshaskpass|x11-ssh-askpass|lxqt-openssh-askpass|gnome-ssh-askpass)$|keyring|kwallet|钥匙串|凭据/ },
  { what: 'an elevation or authentication prompt', names: /^(pkexec|sudo|su|doas|gksu(do)?|kdesu(do)?|beesu|lxpolkit|lxqt-policykit-agent|consent|securityagent|runas)$|polkit|policykit|authentication[- ]agent/ },
  { what: 'system security settings', names: /^(firewall-config|gufw|users-admin|gnome-firewall|windows security|securityhealthhost|systempreferences-security)$/ },
  { what: 'the agent host itself', names: /^(computer-use|prometheus)$/ },
];

/** The built-in deny list's categories, for display (the panel shows them; nothing lifts them). */
export const BUILTIN_DENY_CATEGORIES: readonly string[] = BUILTIN_DENY.map((r) => r.what);

/** Window titles that mark an elevation or security dialog whatever process shows it (only add refusals). */
const DENY_TITLES = /^(authentication required|authenticate|user account control|privacy|privacy (&|and) security|security (&|and) privacy|passwords and keys|keychain access|windows security|需要认证|用户帐户控制|用户账户控制|隐私与安全性?)$|\bpolkit\b|\bpkexec\b/i;

/** The built-in category `name` falls in, if any. */
export function builtinDenied(name: string): string | undefined {
  const n = normApp(name);
  if (!n) return undefined;
  return BUILTIN_DENY.find((r) => r.names.test(n) || r.names.test(base(n)))?.what;
}

/** Allow and deny lists plus the built-in deny list. */
export class AppRules {
  readonly allow: string[];
  readonly deny: string[];
  /** Pids of the agent host (this process and its ancestors): never acted on. */
  readonly hostPids: ReadonlySet<number>;

  constructor(opts: { allowApps?: readonly string[]; denyApps?: readonly string[]; hostPids?: readonly number[] } = {}) {
    this.allow = [...new Set((opts.allowApps ?? []).map(normApp).filter(Boolean))];
    this.deny = [...new Set((opts.denyApps ?? []).map(normApp).filter(Boolean))];
    this.hostPids = new Set(opts.hostPids ?? []);
  }

  /** Why the app is refused in every mode, or undefined. Any of name, executable, title may deny. */
  denied(app: AppIdentity): string | undefined {
    if (app.pid !== undefined && this.hostPids.has(app.pid)) return 'it is the agent host itself (an agent may not change its own permissions)';
    const names = [app.name, ...(app.executable ? [app.executable] : [])];
    for (const n of [...names, ...(app.also ?? [])]) {
      const what = builtinDenied(n);
      if (what) return `it is ${what} (built-in deny list; no setting lifts it)`;
    }
    if (app.title && DENY_TITLES.test(app.title.trim())) return 'its window is an authentication or security dialog (built-in deny list; no setting lifts it)';
    for (const n of [...names, ...(app.also ?? [])]) if (this.deny.some((d) => matches(d, n))) return `it is on your denyApps list`;
    return undefined;
  }

  /** True when the allow list names the app by what the platform proves (see INTERPRETER for the exception). */
  allowed(app: AppIdentity): boolean {
    return this.allow.some((a) => allowMatches(a, app));
  }

  /** The name to use for the app in settings and messages: the executable's file name when proven. */
  static keyOf(app: AppIdentity): string {
    if (app.executable && !INTERPRETER.test(base(app.executable))) return base(app.executable);
    return normApp(app.name);
  }
}

/** Does a list entry (name, executable path, or file name) match a name or path? */
function matches(entry: string, nameOrPath: string): boolean {
  const n = normApp(nameOrPath);
  return entry.includes('/') || entry.includes('\\') ? n === entry : n === entry || base(n) === entry;
}

function allowMatches(entry: string, app: AppIdentity): boolean {
  if (app.executable) {
    if (matches(entry, app.executable)) return true;
    // A proven non-interpreter executable is the app's identity: a name that says otherwise is not enough.
    if (!INTERPRETER.test(base(app.executable))) return false;
  }
  return !entry.includes('/') && normApp(app.name) === entry;
}
