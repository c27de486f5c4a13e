/**
 * Names as the trial's apps printed them and a user reads them (drivers/common/names.ts), and the Linux driver
 * reporting them cleaned: kcalc's Qt rich text, GTK 4's class names, doubled labels.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanName, markedAccessKey } from '../../src/drivers/common/names.js';
import { accessKeyOf } from '../../src/drivers/linux/driver.js';
import { toRawNode, type ElementInfo } from '../../src/drivers/linux/tree/reader.js';
import type { RawNode } from '../../src/engine/node.js';
import { mnemonicsIn } from '../../src/session/mnemonics.js';

test('Qt rich text reads as its text: x², <i>…</i> without tags, entities decoded', () => {
  assert.equal(cleanName('x<sup>2</sup>'), 'x²');
  assert.equal(cleanName('x<sup>y</sup>'), 'x^y');
  assert.equal(cleanName('H<sub>2</sub>O'), 'H₂O');
  assert.equal(cleanName('<i>Rich Text</i> Format'), 'Rich Text Format');
  assert.equal(cleanName('<html><body><p>Tom &amp; Jerry</p></body></html>'), 'Tom & Jerry');
  // Text that only looks like markup is left alone.
  assert.equal(cleanName('a < b > c'), 'a < b > c');
  assert.equal(cleanName('<unknown-tag>'), '<unknown-tag>');
});

test('GTK 4 class names are no names; doubled labels are said once', () => {
  const classNames = /^(?:Gtk|Adw)[A-Z][A-Za-z0-9]*$/;
  for (const c of ['AdwTabBar', 'AdwGizmo', 'GtkBox', 'GtkToggleButton'])
    assert.equal(cleanName(c, { classNames }), undefined, c);
  // Without the platform's pattern a class-like word is a name like any other.
  assert.equal(cleanName('GtkBox'), 'GtkBox');
  assert.equal(cleanName('Save Save'), 'Save');
  assert.equal(cleanName('_Retry Retry'), 'Retry');
  assert.equal(cleanName('Places Places'), 'Places');
  assert.equal(cleanName('Go Back Go Back'), 'Go Back');
  assert.equal(cleanName('New York'), 'New York');
  assert.equal(cleanName(''), undefined);
});

test('the Linux driver reports the cleaned name (and checks an act\'s expect against it)', () => {
  const info = (name: string): ElementInfo =>
    ({
      target: { dest: ':1.5', path: '/o/1' },
      name,
      description: '',
      accessibleId: '',
      atspiRole: 'push button',
      states: new Set(['enabled', 'visible', 'showing']),
      interfaces: new Set(['org.a11y.atspi.Action']),
      actions: [],
      children: [],
      childCount: 0,
    }) as unknown as ElementInfo;
  assert.equal(toRawNode(info('_Retry Retry')).name, 'Retry');
  assert.equal(toRawNode(info('AdwGizmo')).name, undefined);
  assert.equal(toRawNode(info('x<sup>2</sup>')).name, 'x²');
});

test('a name padded with blanks reads trimmed; blanks alone are no ' +
    'name (mousepad\'s menu items, seen by a model in the loop)', () => {
  assert.equal(cleanName('Preferences...      '), 'Preferences...');
  assert.equal(cleanName('  Save\t'), 'Save');
  assert.equal(cleanName('   '), undefined);
});

test('a GTK 4 app\'s own widget type names are no names on containers ' +
    'and text views, and stay on buttons, labels and elsewhere', () => {
  const gtk4 = '/org/gnome/TextEditor/a11y/9e651222_f984_4efc_859c_d42b3bd7d9da';
  const info = (
    name: string,
    atspiRole: string,
    path = gtk4,
    states = ['enabled', 'visible', 'showing'],
  ): ElementInfo =>
    ({
      target: { dest: ':1.19', path },
      name,
      description: '',
      accessibleId: '',
      atspiRole,
      states: new Set(states),
      interfaces: new Set(),
      actions: [],
      children: [],
      childCount: 0,
    }) as unknown as ElementInfo;
  assert.equal(toRawNode(info('EditorPage', 'filler')).name, undefined);
  assert.equal(toRawNode(info('EditorInfoBar', 'panel')).name, undefined);
  assert.equal(toRawNode(info('EditorSourceView', 'text', gtk4, ['multi line', 'editable'])).name, undefined);
  // A button or label says its text; a one-line entry its label; a GTK 3 or Qt container keeps what it reports.
  assert.equal(toRawNode(info('GitHub', 'push button')).name, 'GitHub');
  assert.equal(toRawNode(info('YouTube', 'label')).name, 'YouTube');
  assert.equal(toRawNode(info('UserName', 'text')).name, 'UserName');
  assert.equal(toRawNode(info('MainPanel', 'panel', '/org/a11y/atspi/accessible/12')).name, 'MainPanel');
  // A named container of GTK 4 (two words, or one) keeps its name.
  assert.equal(toRawNode(info('Start or Open a Document', 'panel')).name, 'Start or Open a Document');
  assert.equal(toRawNode(info('Sidebar', 'panel')).name, 'Sidebar');
  assert.equal(cleanName('EditorPage'), 'EditorPage', 'without the context, a CamelCase word is a name');
});

test('GTK 4 controls lose the one mnemonic underscore of their label ' +
    '(gtk4-widget-factory\'s tabs "Page _1"); file names keep theirs', () => {
  const gtk4 = '/org/gtk/WidgetFactory4/a11y/ab88cc03_fa9d_482b_9e74_e2f216c25f17';
  const info = (name: string, atspiRole: string, path = gtk4): ElementInfo =>
    ({
      target: { dest: ':1.42', path },
      name,
      description: '',
      accessibleId: '',
      atspiRole,
      states: new Set(['enabled', 'visible', 'showing']),
      interfaces: new Set(),
      actions: [],
      children: [],
      childCount: 0,
    }) as unknown as ElementInfo;
  assert.equal(toRawNode(info('Page _1', 'page tab')).name, 'Page 1');
  assert.equal(toRawNode(info('Page _2', 'panel')).name, 'Page 2');
  assert.equal(toRawNode(info('_Open', 'push button')).name, 'Open');
  // A list's file, a name with several underscores, a snake_case word, and GTK 3 (which strips its own) stay.
  assert.equal(toRawNode(info('_config.yml', 'table cell')).name, '_config.yml');
  assert.equal(toRawNode(info('my_file_name', 'push button')).name, 'my_file_name');
  assert.equal(toRawNode(info('snake_case', 'push button')).name, 'snake_case');
  assert.equal(toRawNode(info('_Open', 'push button', '/org/a11y/atspi/accessible/7')).name, '_Open');
});

test('an access key whose marker name cleaning dropped stays known to ' +
    'the policy (Alt+R presses "_Retry Retry", Alt+O GTK 4\'s "_Open")', () => {
  const gtk4 = '/org/gtk/WidgetFactory4/a11y/ab88cc03_fa9d_482b_9e74_e2f216c25f17';
  const info = (name: string, path = gtk4): ElementInfo =>
    ({
      target: { dest: ':1.42', path },
      name,
      description: '',
      accessibleId: '',
      atspiRole: 'push button',
      states: new Set(['enabled', 'sensitive', 'visible', 'showing']),
      interfaces: new Set(['org.a11y.atspi.Action']),
      actions: [],
      children: [],
      childCount: 0,
    }) as unknown as ElementInfo;
  const window = {
    id: 'w',
    role: 'window',
    states: [],
    actions: [],
    children: [toRawNode(info('_Retry Retry', '/o/1')), toRawNode(info('_Open')), toRawNode(info('Save'))],
  } as RawNode;
  assert.deepEqual(mnemonicsIn(window), [
    { key: 'r', label: 'Retry', role: 'button' },
    { key: 'o', label: 'Open', role: 'button' },
    { key: '', label: 'Save', role: 'button' },
  ]);
});

test('an access key the toolkit marks in a label, or names in ' +
    'its AT-SPI key binding, reaches the host in W3C key names', () => {
  assert.deepEqual(markedAccessKey('_Delete all'), { key: 'd', label: 'Delete all' });
  assert.deepEqual(markedAccessKey('&Send'), { key: 's', label: 'Send' });
  assert.deepEqual(markedAccessKey('Save _As'), { key: 'a', label: 'Save As' });
  assert.equal(markedAccessKey('Fish && chips'), undefined, '&& is an ampersand');
  assert.equal(markedAccessKey('my__file'), undefined, '__ is an underscore');
  assert.equal(accessKeyOf('<Alt>d'), 'Alt+d');
  assert.equal(accessKeyOf('<Alt>D;;<Control>d'), 'Alt+d', 'the first part is the mnemonic');
  assert.equal(accessKeyOf(';;<Control>s'), undefined, 'a shortcut is no access key');
  assert.equal(accessKeyOf('<Control>s'), undefined);
});
