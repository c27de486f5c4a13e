/**
 * A window read mid-work: after ctrl+s in LibreOffice Writer the act's re-read caught the save under way (the
 * document area `(not busy) → busy`, 85 elements `enabled → disabled`). The settle reads again until the work is
 * done, bounded, so the receipt shows the outcome.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { PolicyFake, bypassSession } from '../fixtures/policy/apps.js';

const B = ':1.91';

function writer(): FakeWindow {
  const buttons = Array.from({ length: 14 }, (_, i) =>
    n(B, 10 + i, 'button', { name: `Tool ${i}`, actions: ['click'] }),
  );
  const root = n(B, 1, 'window', { name: 'notes.odt', states: ['active'] }, [
    n(B, 2, 'toolbar', {}, buttons),
    n(B, 3, 'scrollarea', { name: 'Document' }, [n(B, 4, 'document', { name: 'Body', states: ['editable'] })]),
    n(B, 5, 'label', { name: 'Modified' }),
  ]);
  return { info: { id: root.id, title: 'notes.odt', app: 'writer', pid: 6161, role: 'window', focused: true }, root };
}

function setup(mode: 'busy' | 'disabled') {
  const w = writer();
  const fake = new PolicyFake([w]);
  const session = bypassSession(fake, ['writer']);
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  const [toolbar, area, status] = w.root.children!;
  // ctrl+s: the window greys out (and its document area is busy) for 800 ms, then reads "Saved".
  fake.onKeys = () => {
    for (const b of toolbar!.children!) b.states = [...b.states, 'disabled'];
    if (mode === 'busy') area!.states = [...area!.states, 'busy'];
    setTimeout(() => {
      for (const b of toolbar!.children!) b.states = b.states.filter((s) => s !== 'disabled');
      area!.states = area!.states.filter((s) => s !== 'busy');
      status!.name = 'Saved';
    }, 800).unref();
  };
  return { session, call };
}

for (const mode of ['busy', 'disabled'] as const) {
  test(`a re-read that finds the window ${mode} mid-work reads again until the work is done`, async () => {
    const s = setup(mode);
    await s.call('computer_observe', {});
    const r = await s.call('computer_keys', { window: 'w1', keys: 'ctrl+s' });
    assert.match(r.text, /label name "Modified" → "Saved"/, r.text);
    assert.ok(!/→ disabled|→ busy/.test(r.text), r.text);
    await s.session.close();
  });
}
