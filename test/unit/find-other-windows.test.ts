/**
 * find searches one window; when the app has more, the answer names them (a model in the loop searched gucharmap by
 * app name, got the Find dialog's own search box, and missed the main window's status bar that held the answer).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { cliWording } from '../../src/hosts/cli/wording.js';
import { n } from '../fixtures/engine/build.js';

test('find by app names the app\'s other windows; with window= it does not', async () => {
  const fake = new FakeDriver();
  fake.windows.push(
    {
      info: { id: 'w-main', title: 'Character Map', app: 'gucharmap', pid: 801, role: 'window', focused: false },
      root: n(':1.5', 1, 'window', { name: 'Character Map' }, [
        n(':1.5', 2, 'statusbar', { name: 'U+2603 SNOWMAN = snowy weather' }),
      ]),
    },
    {
      info: { id: 'w-find', title: 'Find', app: 'gucharmap', pid: 801, role: 'dialog', focused: true },
      root: n(':1.5', 10, 'dialog', { name: 'Find' }, [
        n(':1.5', 11, 'textbox', { name: 'Search', value: 'SNOWMAN', states: ['editable', 'focused'] }),
      ]),
    },
    {
      info: { id: 'w-other', title: 'Other app', app: 'other', pid: 802, role: 'window', focused: false },
      root: n(':1.6', 1, 'window', { name: 'Other app' }),
    },
  );
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const call = (params: unknown) => runTool(TOOLS.find((t) => t.schema.name === 'computer_find')!, { session }, params);
  const r = await call({ text: 'SNOWMAN', app: 'gucharmap' });
  assert.match(r.text, /^1 match for "SNOWMAN" in \[w\d+\] "Find"/m, r.text);
  const note = r.text.split('\n').find((l) => l.startsWith('(searched this window only'));
  assert.ok(note, r.text);
  assert.match(note, /its app has 1 more window: \[w\d+\] "Character Map"; window=wN searches one\)$/);
  assert.doesNotMatch(note, /Other app/);
  assert.match(cliWording(note), /--window wN searches one/);
  const main = /\[(w\d+)\] "Character Map"/.exec(note)![1]!;
  const there = await call({ text: 'SNOWMAN', window: main });
  assert.match(there.text, /statusbar "U\+2603 SNOWMAN = snowy weather"/, there.text);
  assert.doesNotMatch(there.text, /searched this window only/);
  await session.close();
});
