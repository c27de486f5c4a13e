/**
 * Self-protection and the sandboxes' homes: a sandbox's apps keep their HOME inside computer-use's own home
 * (`sandboxes/display-N/home`). What lies there is the apps' (a file saved to the sandbox's home folder, a settings
 * file an app writes), not the tool's; the rest of the tool's home stays refused, whatever the path's spelling.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalisePath, ownFileTouched, sandboxHomeAt } from '../../src/policy/own-files.js';
import { Policy } from '../../src/policy/policy.js';

function toolHome(): { tool: string; home: string } {
  const tool = join(mkdtempSync(join(tmpdir(), 'cu-own-')), '.computer-use');
  const home = join(tool, 'sandboxes', 'display-90', 'home');
  mkdirSync(join(home, 'Documents'), { recursive: true });
  writeFileSync(join(tool, 'settings.json'), '{}');
  return { tool: normalisePath(tool)!, home };
}

test('sandboxHomeAt names the sandbox home a path lies in, by its exact spelling only', () => {
  const { tool, home } = toolHome();
  assert.equal(sandboxHomeAt(join(home, 'Documents', 'a.txt'), tool), normalisePath(home));
  assert.equal(sandboxHomeAt(normalisePath(home)!, tool), normalisePath(home));
  assert.equal(sandboxHomeAt(join(tool, 'sandboxes', 'display-90', 'home2', 'x'), tool), undefined);
  assert.equal(sandboxHomeAt(join(tool, 'sandboxes', 'display-90', 'atspi.log'), tool), undefined);
  assert.equal(sandboxHomeAt(join(tool, 'sandboxes', ':90.json'), tool), undefined);
  assert.equal(sandboxHomeAt(join(tool, 'settings.json'), tool), undefined);
  assert.equal(sandboxHomeAt(join(home, 'a'), undefined), undefined);
});

test('a path in a sandbox\'s home is the apps\', the rest of the tool\'s home stays its own', () => {
  const { tool, home } = toolHome();
  const roots = [tool];
  const touched = (p: string, title?: string) => ownFileTouched([p], [], title, roots, '.computer-use', tool);
  assert.equal(touched(join(home, 'Documents', 'notes.txt')), undefined);
  assert.equal(touched(join(home, '.config', 'mousepad', 'settings.ini')), undefined);
  assert.ok(touched(join(tool, 'settings.json')));
  assert.ok(touched(join(tool, 'sandboxes', ':90.json')), 'the sandbox state file');
  assert.ok(touched(join(tool, 'sandboxes', 'display-90', 'atspi.log')), 'the sandbox folder beside the home');
  assert.ok(touched(`${home}/../../../settings.json`), 'climbing out of the home');
  // A link in the sandbox's home to the settings is the settings.
  symlinkSync(join(tool, 'settings.json'), join(home, 'link.json'));
  assert.ok(touched(join(home, 'link.json')));
  // A settings file kept inside a sandbox's home (an odd settingsPath) stays protected.
  const inside = join(home, 'cu-settings.json');
  assert.ok(ownFileTouched([inside], [], undefined, [tool, normalisePath(inside)!], '.computer-use', tool));
  // Without the tool home (the check before sandboxes had homes), the whole tool home is refused.
  assert.ok(ownFileTouched([join(home, 'Documents', 'notes.txt')], [], undefined, roots, '.computer-use'));
});

test('a window title showing a file in a sandbox\'s home is not refused for the ".computer-use" in its path', () => {
  const { tool, home } = toolHome();
  const title = `notes.txt - ${join(home, 'Documents')} - Geany`;
  assert.equal(ownFileTouched([], [], title, [tool], '.computer-use', tool), undefined);
  assert.ok(ownFileTouched([], [], 'settings.json (~/.computer-use) - gedit', [tool], '.computer-use', tool));
  assert.ok(ownFileTouched([], [], `settings.json - ${tool}`, [tool], '.computer-use', tool));
});

test('the policy leaves a chooser submit into its sandbox\'s home alone, and refuses one into its settings', () => {
  const { tool, home } = toolHome();
  const before = process.env['COMPUTER_USE_HOME'];
  process.env['COMPUTER_USE_HOME'] = tool;
  try {
    const policy = new Policy({ processInfo: () => undefined, hostPids: [], audit: false });
    assert.equal(policy.ownFile([join(home, 'Documents', 'report.odt')]), undefined);
    assert.match(policy.ownFile([join(tool, 'settings.json')]) ?? '', /refused in every mode/);
  } finally {
    if (before === undefined) delete process.env['COMPUTER_USE_HOME'];
    else process.env['COMPUTER_USE_HOME'] = before;
  }
});
