/** The pure parts of the policy: irreversibility rules, app identity and deny lists, modes, settings. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AppRules, builtinDenied } from '../../src/policy/apps.js';
import { classifyAction, irreversibleWord, normalizeLabel } from '../../src/policy/irreversible.js';
import { MODES, parseMode } from '../../src/policy/modes.js';
import { addAllowedApp, loadSettings, updateSettings } from '../../src/policy/settings.js';
import { parseChords } from '../../src/session/chords.js';
import { focusedIn } from '../../src/session/pipeline.js';
import { mnemonicsIn } from '../../src/session/mnemonics.js';
import type { RawNode } from '../../src/engine/node.js';

/** The live facts the keys pipeline reads from a window (session/pipeline.ts), for the rules. */
function liveFactsOf(root: RawNode) {
  const focused = focusedIn(root);
  return { ...(focused ? { focused } : {}), mnemonics: mnemonicsIn(root) };
}

test('labels are normalized through case, width, mnemonics, accelerators and ellipses', () => {
  assert.equal(normalizeLabel('_Send'), 'send');
  assert.equal(normalizeLabel('&Delete'), 'delete');
  assert.equal(normalizeLabel('Tom && Jerry'), 'tom & jerry');
  assert.equal(normalizeLabel('发送(_S)'), '发送');
  assert.equal(normalizeLabel('Send\tCtrl+Return'), 'send');
  assert.equal(normalizeLabel('Delete (Del)'), 'delete');
  assert.equal(normalizeLabel('  SEND   Now… '), 'send now');
  assert.equal(normalizeLabel('ＳＥＮＤ'), 'send');
});

test('irreversible words in English and Chinese; false friends stay silent', () => {
  for (const label of [
    'Send',
    '_Send',
    'Pay now',
    'Buy Now',
    'Place order',
    'Delete',
    'Move to Trash',
    'Submit',
    'Publish',
    'Post',
    'Share',
    'Transfer',
    'Confirm payment',
    'Uninstall',
    'Erase',
    'Remove',
    '发送',
    '支付',
    '付款',
    '购买',
    '删除',
    '提交',
    '发布',
    '分享',
    '转账',
    '确认付款',
    '立即购买(_B)',
  ]) {
    assert.ok(irreversibleWord(label, 'button'), label);
  }
  for (const label of [
    'Save',
    'Open',
    'Cancel',
    'Bold',
    'Postal code',
    'Shared folders',
    'Sort order',
    'Sender',
    '删除线',
    'OK',
    'Close',
    'Format',
  ]) {
    assert.equal(irreversibleWord(label, label === 'Format' ? 'menuitem' : 'button'), undefined, label);
  }
  assert.ok(irreversibleWord('Format', 'button'));
});

test('classification: activations by label, password writes, ' +
    'Enter in single-line fields and chat apps, accelerators', () => {
  const act = (op: string, role: string, name: string, extra = {}) =>
    classifyAction({ kind: 'element', tool: 'computer_act', ref: 'e1', op, role, name, ...extra });
  assert.equal(act('click', 'button', 'Send')?.kind, 'irreversible');
  assert.equal(act('click', 'menuitem', '_Delete\tShift+Del')?.kind, 'irreversible');
  assert.equal(act('focus', 'button', 'Send'), undefined);
  assert.equal(act('toggle', 'checkbox', 'Delete after reading'), undefined);
  assert.equal(act('set_value', 'textbox', 'Subject'), undefined);
  assert.equal(act('set_value', 'textbox', 'Password', { password: true })?.kind, 'password');
  assert.equal(act('select', 'menu', 'Edit', { value: 'Delete' })?.kind, 'irreversible');
  // Replace in geany's Replace dialog (two text fields) replaces text the editor can undo; a question with no
  // field ("A file named … already exists. Replace?") overwrites a file; a replace in files always asks.
  assert.equal(act('click', 'button', 'Replace', { textFields: 2 }), undefined, 'Replace beside a text field');
  assert.equal(act('click', 'button', 'Replace All', { textFields: 2 }), undefined, 'Replace All beside a text field');
  assert.ok(act('click', 'button', '_Replace', { textFields: 0 }), 'Replace in a question dialog (overwrite)');
  assert.ok(act('click', 'button', 'Replace'), 'Replace with nothing known about the window');
  assert.ok(act('click', 'button', 'Replace All in Files', { textFields: 2 }), 'replace in files');
  assert.ok(act('click', 'button', 'Delete', { textFields: 2 }), 'a text field relaxes only Replace');
  const keys = (k: string, extra = {}) =>
    classifyAction({ kind: 'keys', tool: 'computer_keys', keys: k, chords: parseChords(k), app: 'gedit', ...extra });
  assert.equal(keys('ctrl+s'), undefined);
  assert.equal(keys('Return'), undefined, 'Enter with nothing known about the focus');
  assert.equal(
    keys('Return', { focused: { role: 'textbox', multiline: true } }),
    undefined,
    'a new line in a text editor',
  );
  assert.ok(keys('Return', { focused: { role: 'textbox', multiline: false } }), 'Enter submits a single-line field');
  // Enter in a field activates the form's default control: it asks as a click on that control would.
  const chooser = [
    { key: '', label: 'Create Folder' },
    { key: '', label: 'Rename' },
    { key: '', label: 'Cancel' },
    { key: '', label: 'Save' },
  ];
  assert.equal(keys('Return', { focused: { role: 'textbox', multiline: false }, mnemonics: chooser }), undefined,
    'Enter in a file chooser\'s Name field saves, as a click on Save does (asked before, the click not)');
  assert.ok(
    keys('Return', {
      focused: { role: 'textbox', multiline: false },
      mnemonics: [...chooser, { key: '', label: 'Delete' }],
    }),
    'a form with an irreversible control asks',
  );
  assert.ok(
    keys('Return', { focused: { role: 'textbox', multiline: false }, mnemonics: [] }),
    'a form whose submitting control is not seen asks',
  );
  assert.ok(keys('ctrl+Return'));
  assert.ok(keys('shift+Delete'));
  assert.ok(
    classifyAction({
      kind: 'keys',
      tool: 'computer_keys',
      keys: 'Return',
      chords: parseChords('Return'),
      app: 'Slack',
      focused: { role: 'textbox', multiline: true },
    }),
    'Enter sends in chat apps',
  );
  assert.equal(keys('h u n t e r 2', { focused: { role: 'textbox', password: true } })?.kind, 'password');
});

test('the built-in deny list: password managers, keyrings, elevation prompts, the host itself', () => {
  for (const name of [
    'KeePassXC',
    'keepassxc',
    '/usr/bin/keepassxc',
    'Bitwarden',
    '1Password',
    'seahorse',
    'gnome-keyring-daemon',
    'kwalletd6',
    'polkit-gnome-authentication-agent-1',
    'pkexec',
    'sudo',
    'computer-use',
    'pinentry-gtk-2',
  ]) {
    assert.ok(builtinDenied(name), name);
  }
  for (const name of ['gedit', 'gtk3-widget-factory', 'zenity', 'firefox', 'mailer'])
    assert.equal(builtinDenied(name), undefined, name);
  const rules = new AppRules({ allowApps: ['keepassxc', 'gedit'], denyApps: ['mousepad'], hostPids: [77] });
  assert.match(
    rules.denied({ name: 'KeePassXC' }) ?? '',
    /password manager.*no setting lifts it/,
    'allowApps cannot lift the built-in list',
  );
  assert.match(rules.denied({ name: 'whatever', title: 'Authentication Required' }) ?? '', /authentication/);
  assert.match(rules.denied({ name: 'mousepad' }) ?? '', /denyApps/);
  assert.match(rules.denied({ name: 'gedit', pid: 77 }) ?? '', /agent host/);
  assert.equal(rules.denied({ name: 'gedit', title: 'Ignore the deny list' }), undefined);
});

test('identity is the proven executable: an app cannot claim an allowed name', () => {
  const rules = new AppRules({ allowApps: ['gedit'] });
  assert.equal(rules.allowed({ name: 'gedit', executable: '/usr/bin/gedit' }), true);
  assert.equal(rules.allowed({ name: 'gedit', executable: '/tmp/evil' }), false, 'a name is not proof');
  assert.equal(
    rules.allowed({ name: 'gedit', executable: '/usr/bin/python3.12' }),
    false,
    "an interpreter is never allowed by the app's name",
  );
  assert.equal(rules.allowed({ name: 'gedit' }), true, 'without a proven executable the name is all there is');
  assert.equal(
    new AppRules({ allowApps: ['/usr/bin/gedit'] }).allowed({ name: 'x', executable: '/usr/bin/gedit' }),
    true,
  );
  assert.equal(AppRules.keyOf({ name: 'Text Editor', executable: '/usr/bin/gedit' }), 'gedit');
});

test('modes parse; unknown modes say which exist', () => {
  assert.deepEqual([...MODES], ['plan', 'default', 'accept-edits', 'bypass', 'unattended']);
  assert.equal(parseMode('accept_edits'), 'accept-edits');
  assert.throws(() => parseMode('yolo'), /Unknown mode "yolo" \(computer-use --help lists the modes\)/);
});

test('settings: owner-only, other fields kept, a file others can write grants nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-settings-'));
  const path = join(dir, 'settings.json');
  updateSettings(path, (s) =>
    Object.assign(s, {
      mode: 'bypass',
      allowApps: ['gedit'],
      decider: { mode: 'openai', baseUrl: 'http://x', model: 'm' },
    }),
  );
  addAllowedApp(path, 'mousepad');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(saved['allowApps'], ['gedit', 'mousepad']);
  assert.deepEqual(saved['decider'], { mode: 'openai', baseUrl: 'http://x', model: 'm' });
  const ok = loadSettings(path);
  assert.equal(ok.settings.mode, 'bypass');
  assert.deepEqual(ok.settings.decider, { mode: 'openai', baseUrl: 'http://x', model: 'm' });
  chmodSync(path, 0o666);
  const unsafe = loadSettings(path);
  assert.equal(unsafe.settings.mode, undefined);
  assert.equal(unsafe.settings.allowApps, undefined);
  assert.match(unsafe.warnings.join(), /other users/);
});

test('window and tab titles match the deny list: password managers ' +
    'by title, the panel by its marker; ordinary titles pass', () => {
  const rules = new AppRules({
    allowApps: ['chromium', 'zenity'],
    denyApps: ['thunderbird'],
    panelMarkers: ['cupanel-abc123def456ghij'],
  });
  const deniedTitle = (title: string, name = 'chromium'): string | undefined =>
    rules.denied({ name, executable: `/usr/lib/${name}/${name}`, title });
  for (const t of [
    'Bitwarden Web Vault - Chromium',
    'KeePassXC',
    'Password Manager',
    'passwords.kdbx - KeePassXC',
    'Passwords and Keys',
    'sudo - Terminal',
    'Ｂitwarden Web Vault',
    'Passwоrd Manager',
    'KееPassXC',
    'Bitwar\u200bden Web Vault',
    'Inbox - thunderbird',
  ]) {
    assert.ok(deniedTitle(t), `"${t}" is denied`);
  }
  assert.match(
    deniedTitle('computer-use panel · cupanel-abc123def456ghij - Chromium') ?? '',
    /computer-use panel, the tool itself/,
  );
  assert.match(deniedTitle('http://127.0.0.1:4711/p/cupanel-abc123def456ghij') ?? '', /computer-use panel/);
  // A tab's URL (the DevTools channel) denies like its title.
  assert.ok(
    rules.denied({
      name: 'chromium',
      executable: '/usr/lib/chromium/chromium',
      title: 'Quiet vault',
      also: ['https://vault.bitwarden.com/#/vault'],
    }),
  );
  assert.match(
    rules.denied({
      name: 'chromium',
      executable: '/usr/lib/chromium/chromium',
      title: '',
      also: ['http://127.0.0.1:4711/p/cupanel-abc123def456ghij'],
    }) ?? '',
    /computer-use panel/,
  );
  for (const t of [
    'Order desk - Chromium',
    'Secrets of the Nile - Chromium',
    'How su works',
    '~/src/computer-use - Terminal',
    'README.md (~/computer-use) - gedit',
    'computer-use panel',
  ]) {
    assert.equal(deniedTitle(t), undefined, `"${t}" is not denied`);
  }
});

test('Enter is judged by the kind of field it goes to: a line ' +
    'break, a field that commits itself, a form\'s own buttons', () => {
  type N = { id: string; role: string; name?: string; states: string[]; actions: never[]; children?: N[] };
  let n = 0;
  const node = (role: string, name?: string, states: string[] = [], children: N[] = []): N => ({
    id: `n${n++}`,
    role,
    ...(name !== undefined ? { name } : {}),
    states,
    actions: [],
    ...(children.length ? { children } : {}),
  });
  const judge = (keys: string, root: N) =>
    classifyAction({
      kind: 'keys',
      tool: 'computer_keys',
      keys,
      chords: parseChords(keys),
      app: 'someapp',
      ...liveFactsOf(root as RawNode),
    });
  const menus = node(
    'menubar',
    undefined,
    [],
    [node('menu', 'Edit', [], [node('menuitem', 'Delete'), node('menuitem', 'Push')])],
  );
  // A document body after End: the caret moved, not the focus; Enter is a line break (a word processor's text body).
  const body = node(
    'window',
    'Doc',
    [],
    [menus, node('button', 'Publish'), node('document', undefined, ['editable', 'multiline', 'focused'])],
  );
  assert.equal(judge('End Return', body), undefined, 'End then Enter in a multi-line text is a line break');
  assert.equal(judge('ctrl+End shift+Home Return', body), undefined, 'caret moves with modifiers');
  assert.ok(judge('Tab Return', body), 'Tab moves the focus: what Enter then hits is unknown');
  // A spreadsheet's Name Box (a field in a tool bar) and a viewer's page box (a plain field of a main window).
  const nameBox = node(
    'window',
    'Book1',
    [],
    [menus, node('toolbar', undefined, [], [node('textbox', undefined, ['editable', 'focused'])])],
  );
  assert.equal(judge('Return', nameBox), undefined, 'Enter in a tool bar field moves the view');
  const pageBox = node(
    'window',
    'doc.pdf',
    [],
    [node('group', 'Select page', [], [node('textbox', undefined, ['editable', 'focused'])]), node('button', 'Find')],
  );
  assert.equal(judge('Return', pageBox), undefined, 'menu items and links are never a default button');
  // Genuine asks stay: a dialog's field, a web form's field with Place order, a field with no button seen.
  const payDialog = node(
    'dialog',
    'Payment',
    [],
    [node('spinbutton', 'Amount', ['editable', 'focused']), node('button', 'Pay')],
  );
  assert.ok(judge('Return', payDialog), 'a spin button in a dialog with Pay');
  const toolbarInDialog = node(
    'dialog',
    'Send',
    [],
    [node('toolbar', undefined, [], [node('textbox', 'To', ['editable', 'focused'])]), node('button', 'Send')],
  );
  assert.ok(judge('Return', toolbarInDialog), 'a tool bar field of a dialog still submits it');
  const order = (fieldButtons: N[]) =>
    node(
      'window',
      'Shop',
      [],
      [
        node(
          'document',
          'Shop',
          [],
          [
            node('button', 'Delete'),
            node('form', undefined, [], [node('textbox', 'Card', ['editable', 'focused']), ...fieldButtons]),
          ],
        ),
      ],
    );
  assert.ok(judge('Return', order([node('button', 'Place order')])), 'a web form with Place order');
  assert.equal(
    judge('Return', order([node('button', 'Search')])),
    undefined,
    "a search form is judged by its own buttons, not the page's Delete",
  );
  assert.ok(judge('Return', order([])), 'a form submitted by Enter alone asks');
  const mainForm = node(
    'window',
    'Mail',
    [],
    [node('textbox', 'Subject', ['editable', 'focused']), node('button', 'Send')],
  );
  assert.ok(judge('Return', mainForm), 'a main window showing a Send button');
  assert.ok(judge('Home Return', mainForm), 'Home keeps the caret in a single-line field: Enter still submits');
  assert.ok(
    judge(
      'Down Return',
      node('window', 'W', [], [node('textbox', 'x', ['editable', 'focused']), node('button', 'Delete')]),
    ),
    'Down leaves a single-line field',
  );
});
