/**
 * The `registry` decider mode inside a running pi (`pi --mode rpc`): `/computer decider registry stub/scripted`
 * saves the mode, and `/computer decider test` asks pi's own registry model (the scripted model behind a local
 * OpenAI-compatible endpoint, configured in pi's models.json with pi's API key) through pi-ai's completeSimple.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { contentText, startScriptedModel } from './openai-stub.js';
import { PiRpc, type RpcEvent } from './pi-rpc.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
after(async () => { for (const c of cleanups.reverse()) await c().catch(() => undefined); });

test('/computer decider registry uses pi\'s model registry ' +
    'and credentials; decider test answers from the text', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pi-registry-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const model = await startScriptedModel((_seen, messages) => {
    const user = contentText(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    return { text: /yes or no/.test(user) ? 'yes' : 'C' };
  });
  cleanups.push(() => model.close());
  const pi = await PiRpc.start({
    extension: root,
    baseUrl: model.baseUrl,
    args: ['--computer-desktop', 'current'],
    env: { COMPUTER_USE_HOME: join(dir, 'home') },
  });
  cleanups.push(() => pi.close());

  const say = async (message: string): Promise<string> => {
    const from = pi.events.length;
    await pi.command({ type: 'prompt', message });
    const notify = await pi.waitFor(
      (e: RpcEvent) => e.type === 'extension_ui_request' && e['method'] === 'notify',
      30_000,
      from,
    );
    return String(notify['message']);
  };
  assert.match(
    await say('/computer decider registry stub/scripted'),
    /^decider: registry stub\/scripted through pi's model registry/,
  );
  const report = await say('/computer decider test');
  assert.match(report, /^decider: registry "stub\/scripted"/, report);
  assert.match(report, /p\(irreversible\) = 1\.00 from the answer text/, report);
  assert.match(report, /#3 button "Save" from the answer text/, report);
  assert.match(report, /\nOK$/, report);
  const asked = model.requests.filter((r) => /BEGIN DATA/.test(contentText(r.messages.at(-1)?.content ?? '')));
  assert.equal(asked.length, 2, 'both questions went to the registry model');
});
