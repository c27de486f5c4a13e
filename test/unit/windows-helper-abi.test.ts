/**
 * The helper declares the UI Automation COM interfaces and ids itself (helper/Uia.cs, helper/UiaIds.cs), so
 * nothing checks them at compile time: a method out of order calls the wrong vtable slot on a user's machine.
 * Here each declared interface's methods are checked slot by slot against Wine's uiautomationclient.idl
 * (libwine-dev) and, for the pattern interfaces Wine only forward-declares, against
 * test/fixtures/windows/uia-pattern-vtables.json (written from Microsoft's documentation); the interface ids
 * likewise; property and pattern ids against mingw-w64's uiautomationclient.h; UIA_E_* HRESULTs against its
 * uiautomationcoreapi.h; control type and event ids against Wine's IDL.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { UIA_CONTROL_TYPES } from '../../src/drivers/windows/roles.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WINE_IDL = '/usr/include/wine/wine/windows/uiautomationclient.idl';
const MINGW_CLIENT = '/usr/share/mingw-w64/include/uiautomationclient.h';
const MINGW_CORE = '/usr/share/mingw-w64/include/uiautomationcoreapi.h';
const helperSource = (name: string): string => readFileSync(`${ROOT}src/drivers/windows/helper/${name}`, 'utf8');

interface Declared { iid: string; slots: (string | undefined)[] }

/** The interfaces of an IDL with a body, in vtable order after IUnknown's three (propget X → get_X). */
export function idlInterfaces(idl: string): Map<string, { iid: string; methods: string[] }> {
  const out = new Map<string, { iid: string; methods: string[] }>();
  const re = /uuid\(([0-9a-fA-F-]{36})\)[^\]]*\]\s*interface\s+(\w+)\s*:\s*\w+\s*\{([\s\S]*?)\n\s*\}/g;
  for (const m of idl.matchAll(re)) {
    const methods = [...m[3]!.matchAll(/(\[\s*(propget|propput)[^\]]*\]\s*)?HRESULT\s+(\w+)\s*\(/g)].map((x) =>
      x[2] === 'propget' ? `get_${x[3]}` : x[2] === 'propput' ? `put_${x[3]}` : x[3]!,
    );
    out.set(m[2]!, { iid: m[1]!.toLowerCase(), methods });
  }
  return out;
}

/** The C# [ComImport] interfaces: each slot's method name, `_VtblGapN_M` as M unnamed slots. */
export function csharpInterfaces(cs: string): Map<string, Declared> {
  const out = new Map<string, Declared>();
  const re =
    /\[ComImport, Guid\("([0-9a-f-]{36})"\), InterfaceType\(ComInterfaceType\.InterfaceIsIUnknown\)\]\s*public interface (\w+)\s*(?:\{ \}|\{([\s\S]*?)\n {4}\})/g;
  for (const m of cs.matchAll(re)) {
    const slots: (string | undefined)[] = [];
    const body = (m[3] ?? '').replace(/\/\/.*$/gm, '').replace(/\[[^\]]*\]/g, '');
    for (const d of body.matchAll(/(\w+)\s*\([^;]*\);/g)) {
      const gap = /^_VtblGap\d+_(\d+)$/.exec(d[1]!);
      if (gap) for (let i = 0; i < Number(gap[1]); i++) slots.push(undefined);
      else slots.push(d[1]!);
    }
    out.set(m[2]!, { iid: m[1]!, slots });
  }
  return out;
}

const declared = csharpInterfaces(helperSource('Uia.cs'));
const wine = idlInterfaces(readFileSync(WINE_IDL, 'utf8'));
const manifest = JSON.parse(readFileSync(`${ROOT}test/fixtures/windows/uia-pattern-vtables.json`, 'utf8')) as {
  interfaces: Record<string, { iid: string; methods: string[] }>;
};

test('every declared UIA interface has its reference (Wine\'s IDL or the documentation manifest)', () => {
  assert.ok(declared.size >= 20, `parsed ${declared.size} interfaces from Uia.cs`);
  for (const name of declared.keys())
    assert.ok(wine.has(name) || manifest.interfaces[name], `${name} is in neither reference`);
  for (const name of Object.keys(manifest.interfaces))
    assert.ok(!wine.has(name), `${name} has a body in Wine's IDL now: check it there instead`);
});

test('each declared method sits in its interface\'s vtable slot, and the interface ids match', () => {
  for (const [name, d] of declared) {
    const ref = wine.get(name) ?? manifest.interfaces[name]!;
    assert.equal(d.iid, ref.iid, `${name}: IID`);
    assert.ok(
      d.slots.length <= ref.methods.length,
      `${name}: ${d.slots.length} slots declared, the interface has ${ref.methods.length}`,
    );
    d.slots.forEach((slot, i) => {
      if (slot !== undefined) assert.equal(slot, ref.methods[i], `${name} slot ${i + 3}`);
    });
  }
});

test('the checker sees a method out of order (it cannot pass by parsing nothing)', () => {
  const swapped = helperSource('Uia.cs').replace(
    'void Expand();\n        void Collapse();',
    'void Collapse();\n        void Expand();',
  );
  const d = csharpInterfaces(swapped).get('IUIAutomationExpandCollapsePattern')!;
  assert.notEqual(d.slots[0], manifest.interfaces['IUIAutomationExpandCollapsePattern']!.methods[0]);
  const gapless = csharpInterfaces(helperSource('Uia.cs').replace('void _VtblGap1_2();', '')).get(
    'IUIAutomationElement',
  )!;
  assert.notEqual(gapless.slots[11], wine.get('IUIAutomationElement')!.methods[11]);
});

test('property and pattern ids match mingw-w64\'s uiautomationclient.h; event ids Wine\'s IDL', () => {
  const header = readFileSync(MINGW_CLIENT, 'utf8');
  const ids = helperSource('UiaIds.cs');
  const check = (cls: string, suffix: string, source: string, re: (name: string) => RegExp): number => {
    const block = new RegExp(`class ${cls}\\s*\\{([\\s\\S]*?)\\n {4}\\}`).exec(ids)![1]!;
    let n = 0;
    for (const m of block.matchAll(/(\w+) = (\d+)/g)) {
      const ref = re(`UIA_${m[1]}${suffix}`).exec(source);
      assert.ok(ref, `UIA_${m[1]}${suffix} is not in the reference`);
      assert.equal(Number(m[2]), Number(ref[1]), `UIA_${m[1]}${suffix}`);
      n++;
    }
    return n;
  };
  assert.ok(check('Prop', 'PropertyId', header, (n) => new RegExp(`#define ${n} \\((\\d+)\\)`)) >= 40);
  assert.ok(check('Pattern', 'PatternId', header, (n) => new RegExp(`#define ${n} \\((\\d+)\\)`)) >= 12);
  assert.equal(
    check('EventId', 'EventId', readFileSync(WINE_IDL, 'utf8'), (n) => new RegExp(`const long ${n} = (\\d+);`)),
    3,
  );
});

test('control type ids match Wine\'s IDL, every one of them mapped', () => {
  const idl = readFileSync(WINE_IDL, 'utf8');
  const types = [...idl.matchAll(/const long UIA_(\w+)ControlTypeId = (\d+);/g)].map(
    (m) => [m[1]!, Number(m[2])] as const,
  );
  assert.ok(types.length >= 41);
  for (const [name, id] of types) assert.equal(UIA_CONTROL_TYPES[id]?.name, name, `control type ${id}`);
  assert.equal(Object.keys(UIA_CONTROL_TYPES).length, types.length);
});

test('the HRESULTs the helper maps are the SDK\'s UIA_E_* values', () => {
  const core = readFileSync(MINGW_CORE, 'utf8');
  const program = helperSource('Program.cs');
  for (const [cs, sdk] of [
    ['ElementNotAvailable', 'UIA_E_ELEMENTNOTAVAILABLE'],
    ['ElementNotEnabled', 'UIA_E_ELEMENTNOTENABLED'],
    ['NoClickablePoint', 'UIA_E_NOCLICKABLEPOINT'],
    ['InvalidOperation', 'UIA_E_INVALIDOPERATION'],
    ['Timeout', 'UIA_E_TIMEOUT'],
  ] as const) {
    const mine = new RegExp(`const int ${cs} = unchecked\\(\\(int\\)(0x[0-9A-Fa-f]+)\\)`).exec(program);
    const ref = new RegExp(`#define ${sdk}\\s+(0x[0-9A-Fa-f]+)`).exec(core);
    assert.ok(mine && ref, cs);
    assert.equal(Number(mine[1]), Number(ref[1]), cs);
  }
});
