/**
 * The identity methods (`process.identify`, `apps.resolveLaunch`, `apps.terminate`) are optional in the protocol
 * (docs/protocol.md, "Identity"): a driver that lists none of them still passes, and the kit says what the host
 * then does without them. A driver that lists one is held to it, on a process and a command that do not exist
 * (the kit starts and ends nothing): identify answers `gone`, terminate signals no one, resolve starts nothing.
 */
import { methodSpec } from '../protocol/methods.js';
import { describeAnswer } from './connection.js';
import { cite } from './report.js';
import type { KitContext } from './wire.js';

/** A pid no process has (the largest a pid may be, 2^31 - 1: Linux caps pids at 2^22, Windows uses multiples of 4). */
const NO_PID = 2_147_483_647;
/** A command no system provides. */
const NO_COMMAND = 'computer-use-conformance-no-such-program';

/** What the host does when the driver does not list each identity method (the kit prints it, the docs say it). */
export const WITHOUT_IDENTITY: Readonly<
  Record<'process.identify' | 'apps.resolveLaunch' | 'apps.terminate', string>
> = {
  'process.identify':
    'nothing proves what an app is: no allow entry matches it, so each act asks (or is refused where no one can be asked)',
  'apps.resolveLaunch': 'a launch is judged by its command words alone: no allow entry matches it',
  'apps.terminate': 'a started program the policy then denies is left running, and the model is told',
};

/** `wire.identity`: each identity method the driver lists answers the probe as the protocol says; the rest are named as absent. */
export async function identityRule(ctx: KitContext): Promise<void> {
  const problems: string[] = [];
  const listed = (m: keyof typeof WITHOUT_IDENTITY): boolean => ctx.methods.has(m);
  if (listed('process.identify')) {
    const a = await ctx.drv.call('process.identify', { pid: NO_PID }, 10_000);
    const gone = a.kind === 'result' && (a.value as { gone?: unknown } | null)?.gone === true;
    if (!gone && !(a.kind === 'error' && a.dataCode === 'app_not_found'))
      problems.push(
        `process.identify of pid ${NO_PID} (no such process): expected gone: true, got ${describeAnswer(a)}`,
      );
  }
  if (listed('apps.terminate')) {
    const a = await ctx.drv.call('apps.terminate', { pid: NO_PID, startToken: 'conformance-no-such-start' }, 10_000);
    if (!(a.kind === 'result' && (a.value as { ended?: unknown } | null)?.ended === false))
      problems.push(
        `apps.terminate of pid ${NO_PID} (no such process): expected ended: false, got ${describeAnswer(a)}`,
      );
  }
  if (listed('apps.resolveLaunch')) {
    const a = await ctx.drv.call('apps.resolveLaunch', { command: NO_COMMAND }, 10_000);
    const answered = a.kind === 'result' || (a.kind === 'error' && a.dataCode === 'app_not_found');
    if (!answered)
      problems.push(
        `apps.resolveLaunch of ${NO_COMMAND}: expected a resolution or app_not_found, got ${describeAnswer(a)}`,
      );
  }
  const names = Object.keys(WITHOUT_IDENTITY) as (keyof typeof WITHOUT_IDENTITY)[];
  for (const m of names)
    if (!methodSpec(m)?.optional) problems.push(`${m} is declared required; the kit holds it optional`);
  const absent = names.filter((m) => !listed(m));
  const present = names.filter(listed);
  ctx.v.check(
    'wire.identity',
    problems.map((p) => cite('R-identity', p)),
    [
      present.length ? `${present.join(', ')} answer for a process and a command that do not exist` : '',
      absent.length
        ? `optional, not listed: ${absent.map((m) => `${m} (without it ${WITHOUT_IDENTITY[m]})`).join('; ')}`
        : '',
    ]
      .filter(Boolean)
      .join('; '),
  );
}
