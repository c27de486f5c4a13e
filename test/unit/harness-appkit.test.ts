/**
 * The AppKit harness (harness/appkit.js) run here on a model of JXA's Objective-C bridge: every `$.Class`, object,
 * property and method is a recording stand-in, so the script runs to its end and its controls can be checked
 * against the kit's AppKit harness (each stable id an accessibility identifier, each name a label, title or string)
 * and its actions run (two clicks count two, "Arm" enables "Later", "Replace" puts a new "Target", the late dialog).
 * It proves the script's own logic, not AppKit: only macOS (.github/workflows/macos.yml) shows the real window.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { test } from 'node:test';
import { NATIVE_HARNESSES } from '../../src/conformance/harnesses.js';

const SOURCE = fileURLToPath(new URL('../../../harness/appkit.js', import.meta.url));

/** What the model knows of one Objective-C object: the call that made it, the properties set, the calls it got. */
interface Made {
  by: string;
  args: unknown[];
  props: Record<string, unknown>;
  calls: { name: string; args: unknown[] }[];
}
type Methods = Record<string, { implementation: (...a: unknown[]) => void }>;

/**
 * A JXA-like bridge. An object's property is an accessor: called, it is a method call (`setX(v)` sets `x`); used as
 * an object, it is the property's value, made once per access (JXA reads a property by calling its getter).
 */
function bridge() {
  const objects: Made[] = [];
  const classes: Record<string, Methods> = {};
  const scheduled: string[] = [];
  const logged: string[] = [];
  const object = (by: string, args: unknown[], methods?: Methods): object => {
    const made: Made = { by, args, props: {}, calls: [] };
    objects.push(made);
    return new Proxy(function () { /* an Objective-C object is callable in JXA */ }, {
      get(_t, key) {
        if (key === Symbol.toPrimitive) return () => 0;
        if (typeof key === 'symbol' || key === 'then') return undefined;
        if (key in made.props) return made.props[key];
        const own = methods?.[`${key}:`];
        if (own) return own.implementation;
        return accessor(made, key, key === 'alloc' || key === 'init' ? methods : undefined);
      },
      set(_t, key, value) { made.props[String(key)] = value; return true; },
    });
  };
  const accessor = (parent: Made, key: string, methods?: Methods): object => {
    let value: object | undefined;
    const read = (): object => (value ??= object(key, [], methods));
    return new Proxy(function () { /* a method */ }, {
      apply(_t, _self, args: unknown[]) {
        parent.calls.push({ name: key, args });
        const set = /^set([A-Z]\w*)$/.exec(key);
        if (set && args.length === 1) parent.props[set[1]![0]!.toLowerCase() + set[1]!.slice(1)] = args[0];
        if (key === 'performSelectorWithObjectAfterDelay') scheduled.push(String(args[0]));
        return object(key, args, methods);
      },
      get: (_t, k) => Reflect.get(read(), k),
      set: (_t, k, v) => Reflect.set(read(), k, v),
    });
  };
  const $ = new Proxy(function (v?: unknown) { return v === undefined ? null : v; }, {
    get: (_t, key) => (typeof key === 'symbol' ? undefined : object(`$.${key}`, [], classes[key])),
  });
  const ObjC = {
    import: () => undefined,
    registerSubclass: (d: { name: string; methods: Methods }) => { classes[d.name] = d.methods; },
  };
  const context = createContext({ $, ObjC, console: { log: (s: unknown) => logged.push(String(s)) } });
  return { objects, classes, scheduled, logged, context };
}

/** The last view made for each accessibility identifier. */
function byId(objects: readonly Made[]): Map<string, Made> {
  const m = new Map<string, Made>();
  for (const o of objects) {
    const id = o.props['accessibilityIdentifier'];
    if (typeof id === 'string') m.set(id, o);
  }
  return m;
}

/** A view's name as AppKit shows it: its accessibility label, else the string or title it was made with. */
const nameOf = (o: Made): unknown => o.props['accessibilityLabel'] ?? o.args[0];

test('the AppKit harness on a model of JXA makes every control of the kit (id, name); its actions behave', () => {
  const b = bridge();
  runInContext(readFileSync(SOURCE, 'utf8'), b.context, { filename: 'appkit.js' });
  assert.equal(b.logged.at(-1), 'ready');
  const appkit = NATIVE_HARNESSES.find((h) => h.platform === 'macos')!.harness;
  assert.ok(b.objects.some((o) => o.props['title'] === appkit.window.title), 'the window carries the kit\'s title');
  let views = byId(b.objects);
  for (const c of appkit.controls) {
    const v = views.get(c.id);
    assert.ok(v, `no view has the accessibility identifier ${c.id}`);
    assert.equal(nameOf(v), c.name, c.id);
  }
  assert.equal(views.get('rows')!.calls.filter((c) => c.name === 'addArrangedSubview').length, 1000);
  assert.equal(views.get('later')!.props['enabled'], false);
  assert.equal(views.get('never')!.props['enabled'], false);

  // The actions, as AppKit calls them on their target; a delayed one runs when the test says.
  const act = (selector: string): void => b.classes['CUHarnessActions']![selector]!.implementation();
  const status = (): unknown => views.get('status')!.props['stringValue'];
  act('count:');
  act('count:');
  assert.equal(status(), 'Status: count 2');
  act('arm:');
  assert.equal(status(), 'Status: armed');
  assert.deepEqual(b.scheduled, ['enableLater:']);
  act(b.scheduled.pop()!);
  assert.equal(views.get('later')!.props['enabled'], true);
  act('later:');
  assert.equal(status(), 'Status: later');
  assert.equal(views.get('later')!.props['enabled'], false, 'disabled again once used');
  const oldTarget = views.get('target');
  act('replace:');
  views = byId(b.objects);
  assert.notEqual(views.get('target'), oldTarget, 'a new Target in place of the old');
  act('openDialog:');
  assert.equal(status(), 'Status: dialog opening');
  assert.equal(views.get('close-dialog'), undefined, 'the dialog opens late');
  act(b.scheduled.pop()!);
  views = byId(b.objects);
  assert.equal(status(), 'Status: dialog open');
  assert.ok(b.objects.some((o) => o.props['title'] === 'Late dialog'));
  assert.equal(nameOf(views.get('close-dialog')!), 'Close dialog');
  act('closeDialog:');
  assert.equal(status(), 'Status: dialog closed');
});
