/**
 * The Windows helper's platform-free decisions, called directly under Mono (test/windows/units/HelperUnits.cs,
 * compiled against the helper built as a library): which processes' elements belong to a window's app (a UWP
 * frame's caption buttons are ApplicationFrameHost's, one app with the app by the window; no other process is),
 * the runtime-id cache that spares each act a descendant search (an element is used only when it proves alive and
 * the same, else forgotten), and when `type` can set the value instead of needing the window in front.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';

const UNITS = fileURLToPath(new URL('../../../test/windows/units/HelperUnits.cs', import.meta.url));
const MCS = ['-nologo', '-noconfig', '-langversion:5', '-warnaserror+', '-r:System.dll'];
let dir = '';
let got: Record<string, unknown> = {};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cu-win-units-'));
  const files = HELPER_SOURCES.map((s) => { const p = join(dir, s.name); writeFileSync(p, s.text); return p; });
  execFileSync('mcs', [...MCS, '-target:library', `-out:${join(dir, 'helper.dll')}`, ...files], { stdio: 'pipe' });
  const out = `-out:${join(dir, 'units.exe')}`;
  execFileSync('mcs', [...MCS, `-r:${join(dir, 'helper.dll')}`, out, UNITS], { stdio: 'pipe' });
  got = JSON.parse(execFileSync('mono', [join(dir, 'units.exe')], { encoding: 'utf8' })) as Record<string, unknown>;
});
after(() => { rmSync(dir, { recursive: true, force: true }); });

test('a UWP frame\'s caption buttons (the frame host\'s elements) ' +
    'belong to the app by its window; no other process does', () => {
  assert.equal(got['uwpAppElement'], true);
  assert.equal(got['uwpCaptionButton'], true, 'ApplicationFrameHost\'s title bar in the app\'s own frame');
  assert.equal(got['uwpOtherProcess'], false);
  assert.equal(got['uwpNoAppAttached'], false, 'a frame with no app attached proves no app, so not even its host');
  assert.equal(got['uwpChildOfHostItself'], false);
  assert.equal(got['win32Own'], true);
  assert.equal(got['win32HostPid'], false, 'the frame host is one app with a UWP app only by a UWP frame');
  assert.equal(got['win32Other'], false);
  assert.equal(got['zeroPid'], false);
});

test('the runtime-id cache gives an element only when it proves ' +
    'alive and the same, forgets a dead one, and stays bounded', () => {
  assert.equal(got['cacheHit'], 'button');
  assert.equal(got['cacheOtherWindow'], null, 'keyed by window too');
  assert.equal(got['cacheDeadElement'], null);
  assert.equal(got['cacheDeadForgotten'], null, 'a failed check forgets it: the caller searches');
  assert.equal(got['cacheThrowing'], null, 'UIA_E_ELEMENTNOTAVAILABLE while checking counts as gone');
  assert.equal(got['cacheAfterThrow'], 0);
  assert.equal(got['cacheCapPerWindow'], 3);
  assert.equal(got['cacheEvictsOldestWindow'], 0);
  assert.equal(got['cacheKeepsRecentWindow'], 1);
  assert.equal(got['cacheNoEntryWithoutSnapshot'], 0);
});

test('type sets the value (no focus, no foreground) only into an empty writable field', () => {
  const keys = ['typeEmpty', 'typeHasText', 'typeReadOnly', 'typeNoValuePattern', 'typePasswordEmpty',
    'typePasswordFilled'];
  assert.deepEqual(keys.map((k) => got[k]), [true, false, false, false, true, false]);
});
