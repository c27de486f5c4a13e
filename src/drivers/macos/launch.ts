/**
 * `apps.launch` on macOS: `open -a BUNDLE` with the bundle path the launch resolved to (resolve.ts: the same
 * bundle `apps.resolveLaunch` judged, never a name Launch Services would look up again), or the executable
 * itself (an absolute path), run without a shell, its text only ever an argv element. A name that starts with
 * `-` would be read as an option of `open` and is refused. The app's window is then waited for among the window
 * owners: a process that was not there before whose name or executable matches what was launched.
 */
import { execFile, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { ComputerUseError } from '../../protocol/errors.js';
import type { LaunchParams } from '../../protocol/methods.js';
import type { ResolvedApp } from './resolve.js';

/** How a launch starts its program (tests replace it). */
export type Spawner = (file: string, args: readonly string[]) => Promise<void>;

/** The real one: `open` waits until Launch Services started the app; an executable runs detached. */
export const systemSpawner: Spawner = (file, args) => new Promise((resolve, reject) => {
  if (file === '/usr/bin/open') {
    execFile(file, [...args], { timeout: 30_000 }, (err, _out, stderr) =>
      err
        ? reject(
            new ComputerUseError(
              'app_not_found',
              `open could not start it: ${String(stderr).trim().slice(0, 300) || err.message}`,
            ),
          )
        : resolve(),
    );
    return;
  }
  const child = spawn(file, [...args], { detached: true, stdio: 'ignore' });
  child.once('error', (e) =>
    reject(new ComputerUseError('app_not_found', `could not start ${basename(file)}: ${e.message}`)),
  );
  child.once('spawn', () => { child.unref(); resolve(); });
});

/** Refuses what a launch can never be, before anything is resolved or started. */
export function refuseLaunch(p: LaunchParams): void {
  if (p.command.startsWith('-'))
    throw new ComputerUseError('invalid_params', 'an app name cannot start with "-"; nothing was started');
  if (p.env && Object.keys(p.env).length)
    throw new ComputerUseError(
      'unsupported',
      "the macOS driver cannot set an app's environment (Launch Services starts it); nothing was started",
    );
}

/** The argv of a launch of `target` (what `p` resolved to), and the name its window owner will have. */
export function launchArgv(p: LaunchParams, target: ResolvedApp): { file: string; args: string[]; name: string } {
  refuseLaunch(p);
  const args = p.args ?? [];
  if (!target.bundle) return { file: target.executable, args, name: basename(target.executable) };
  const name = basename(target.bundle).replace(/\.app$/, '');
  return { file: '/usr/bin/open', args: ['-a', target.bundle, ...(args.length ? ['--args', ...args] : [])], name };
}
