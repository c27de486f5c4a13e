/**
 * Doctor's one fix it can apply itself: switching toolkit accessibility on (`org.a11y.Status.IsEnabled`).
 * It is applied only after the user confirms, through a `Confirmer` (the CLI's TTY prompt, a host's dialog);
 * without one, the commands are only described.
 */
import { execFile } from 'node:child_process';
import { A11Y_FIX_COMMANDS, a11yStatus, onPath, setA11yEnabled } from './prereq.js';

/** Who confirms a fix: the host's confirmer (the CLI's TTY prompt, an MCP/pi host's dialog), as far as doctor asks it.
* */
export interface FixConfirmer {
  /** True when a human can actually answer. */
  readonly interactive: boolean;
  confirm(
    request: { title: string; message: string; choices: ['allow_once', 'deny']; reason: 'other' },
    signal?: AbortSignal,
  ): Promise<string>;
}

/** A fix doctor offers: what it does, the commands, and whether doctor can apply it after confirmation. */
export interface DoctorFix {
  id: 'a11y_status';
  title: string;
  commands: string[];
}

/** What applying a fix did. */
export interface FixOutcome {
  id: DoctorFix['id'];
  /** 'applied': confirmed and done; 'declined': the user said no; 'not_asked': no human to ask (nothing changed). */
  result: 'applied' | 'declined' | 'not_asked' | 'failed';
  /** Steps and their errors, one line each. */
  detail: string[];
  /** IsEnabled read again after applying. */
  isEnabledAfter?: boolean;
}

/** The fix for IsEnabled = false. */
export function a11yFix(): DoctorFix {
  return {
    id: 'a11y_status',
    title: 'Switch toolkit accessibility on (org.a11y.Status.IsEnabled = true)',
    commands: [...A11Y_FIX_COMMANDS],
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, timeout: 5000 }, (err, _out, stderr) =>
      resolve(err ? stderr.trim().split('\n')[0] || err.message : undefined),
    );
  });
}

/**
 * Asks `confirmer` whether to apply `fix`; when the user allows it, sets the GNOME key (when gsettings is
 * installed) and the `org.a11y.Status` property on the session bus of `env`, then reads the status again.
 */
export async function applyA11yFix(
  fix: DoctorFix,
  env: NodeJS.ProcessEnv,
  confirmer: FixConfirmer | undefined,
  signal?: AbortSignal,
): Promise<FixOutcome> {
  if (!confirmer?.interactive)
    return {
      id: fix.id,
      result: 'not_asked',
      detail: ['No one to confirm: nothing was changed. Run these commands yourself:', ...fix.commands],
    };
  const choice = await confirmer.confirm(
    {
      title: 'Switch toolkit accessibility on?',
      message:
        `Accessibility is off on this desktop (org.a11y.Status.IsEnabled is false), so apps may not expose ` +
        `their trees. computer-use will run:\n${fix.commands.join('\n')}`,
      choices: ['allow_once', 'deny'],
      reason: 'other',
    },
    signal,
  );
  if (choice === 'deny') return { id: fix.id, result: 'declined', detail: ['Declined: nothing was changed.'] };
  const detail: string[] = [];
  if (onPath('gsettings', env)) {
    const err = await run('gsettings', ['set', 'org.gnome.desktop.interface', 'toolkit-accessibility', 'true'], env);
    detail.push(err ? `gsettings failed: ${err}` : 'gsettings: toolkit-accessibility set to true.');
  } else detail.push('gsettings is not installed: the GNOME key was not set.');
  let ok = true;
  try {
    await setA11yEnabled(true, env);
    detail.push('org.a11y.Status.IsEnabled set to true.');
  } catch (e) {
    ok = false;
    detail.push(`Setting org.a11y.Status.IsEnabled failed: ${(e as Error).message}`);
  }
  const after = await a11yStatus(env);
  const out: FixOutcome = { id: fix.id, result: ok && after.isEnabled === true ? 'applied' : 'failed', detail };
  if (after.isEnabled !== undefined) out.isEnabledAfter = after.isEnabled;
  if (out.result === 'applied') detail.push('Apps already running may need a restart to expose their trees.');
  return out;
}
