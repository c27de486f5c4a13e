/** The actionability wait (drivers/common/actionable.ts) with the Linux driver's judgement, against a scripted probe.
* */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STABLE_QUIET_MS, waitActionable, type ActionabilityProbe } from '../../src/drivers/common/actionable.js';
import { elementFacts, unmetCheck } from '../../src/drivers/linux/act/actionable.js';
import type { ElementInfo } from '../../src/drivers/linux/tree/reader.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

const button = (states: string[], bounds: [number, number, number, number] = [10, 10, 80, 30]): ElementInfo => ({
  target: { dest: ':1.5', path: '/org/a11y/atspi/accessible/7' },
  atspiRole: 'push button',
  name: 'Save',
  description: '',
  accessibleId: '',
  states: new Set(states),
  interfaces: new Set(['org.a11y.atspi.Action', 'org.a11y.atspi.Component']),
  children: [],
  childCount: 0,
  bounds,
});
const READY = ['enabled', 'sensitive', 'visible', 'showing', 'focusable'];
const ALL = ['visible', 'enabled', 'stable'] as const;

/** A probe whose reads return `reads` in turn (the last one repeats); counts what the wait asked for. */
function probe(
  reads: ElementInfo[],
  quietFor = Infinity,
): ActionabilityProbe<ElementInfo> & { nexts: number; readCount: number } {
  const p = {
    nexts: 0, readCount: 0,
    read: async () => reads[Math.min(p.readCount++, reads.length - 1)]!,
    unmet: (info: ElementInfo, checks: readonly ('visible' | 'enabled' | 'editable' | 'stable')[]) => unmetCheck(info, checks, true),
    facts: (info: ElementInfo) => elementFacts(info, true),
    next: async (ms: number) => { p.nexts++; await new Promise((r) => setTimeout(r, Math.min(ms, 5))); },
    quietFor: () => quietFor,
    scrollIntoView: async () => false,
  };
  return p;
}

test('an enabled, showing button in a quiet app is actionable at once: no wait, no extra read', async () => {
  const p = probe([]);
  const r = await waitActionable(button(READY), ALL, 2000, p);
  assert.equal(r.waitedMs, 0);
  assert.equal(p.readCount, 0);
  assert.equal(p.nexts, 0);
});

test('a disabled button is re-read on its app\'s events until it is enabled', async () => {
  const p = probe([button(['visible', 'showing']), button(READY)], STABLE_QUIET_MS + 1);
  const r = await waitActionable(button(['visible', 'showing']), ALL, 2000, p);
  assert.ok(r.info.states.has('enabled'));
  assert.ok(p.nexts >= 1);
});

test('a button that stays disabled fails with element_disabled and its state', async () => {
  const p = probe([button(['visible', 'showing'])]);
  await assert.rejects(waitActionable(button(['visible', 'showing']), ALL, 60, p), (e: unknown) => {
    assert.ok(isComputerUseError(e, 'element_disabled'));
    assert.deepEqual(e.details['unmet'], ['enabled']);
    assert.deepEqual(e.details['states'], ['disabled']);
    assert.match(
      e.message,
      /"Save" stayed disabled .*nothing was sent\. Its state now: disabled, bounds 10,10,80,30\./,
    );
    return true;
  });
});

test('a hidden or zero-sized element fails with not_visible; a moving one waits until it stops', async () => {
  await assert.rejects(
    waitActionable(
      button(['enabled', 'sensitive', 'visible']),
      ALL,
      30,
      probe([button(['enabled', 'sensitive', 'visible'])]),
    ),
    (e: unknown) => isComputerUseError(e, 'not_visible'),
  );
  await assert.rejects(waitActionable(button(READY, [0, 0, 0, 0]), ALL, 30, probe([button(READY, [0, 0, 0, 0])])),
    (e: unknown) => isComputerUseError(e, 'not_visible'));
  // The app just sent events (an animation): bounds are compared one frame apart until they agree.
  const sliding = [button(READY, [10, 40, 80, 30]), button(READY, [10, 20, 80, 30]), button(READY, [10, 20, 80, 30])];
  const r = await waitActionable(button(READY, [10, 60, 80, 30]), ALL, 2000, probe(sliding, 0));
  assert.deepEqual(r.info.bounds, [10, 20, 80, 30]);
});

test('only text widgets must be editable; GTK4 without "showing" is judged by size', () => {
  const entry = { ...button(READY), atspiRole: 'text', interfaces: new Set(['org.a11y.atspi.EditableText']) };
  assert.equal(unmetCheck(entry, ['editable'], true)?.check, 'editable');
  entry.states.add('editable');
  assert.equal(unmetCheck(entry, ['editable'], true), undefined);
  const slider = { ...button(READY), atspiRole: 'slider', interfaces: new Set(['org.a11y.atspi.Value']) };
  assert.equal(unmetCheck(slider, ['editable'], true), undefined);
  const gtk4 = button(['enabled', 'sensitive', 'visible']);
  assert.equal(unmetCheck(gtk4, ['visible'], false), undefined);
  assert.equal(unmetCheck(gtk4, ['visible'], true)?.check, 'visible');
});

test('a stop during the wait ends it at once with paused, nothing sent', async () => {
  const stop = new AbortController();
  const p = probe([button(['visible', 'showing'])]);
  p.next = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        r();
      });
    });
  setTimeout(() => stop.abort(), 30);
  const t0 = performance.now();
  await assert.rejects(
    waitActionable(button(['visible', 'showing']), ALL, 5000, p, { signal: stop.signal }),
    (e: unknown) => isComputerUseError(e, 'paused'),
  );
  assert.ok(performance.now() - t0 < 2000);
});

test('an element renamed while waited for is stale, not waited for', async () => {
  const renamed = { ...button(['visible', 'showing']), name: 'Delete' };
  const verify = (i: ElementInfo): void => { if (i.name !== 'Save') throw new Error('stale'); };
  await assert.rejects(
    waitActionable(button(['visible', 'showing']), ALL, 2000, probe([renamed]), { verify }),
    /stale/,
  );
});
