/**
 * The Windows helper's first-use build (src/drivers/windows/build.ts), with Mono's mcs standing in for the .NET
 * Framework's csc: the embedded sources compile as C# 5 with warnings as errors, land in
 * `<drivers>/<sha256>/`, are reused while unchanged, and a changed source makes a new entry. A failed build says
 * what the compiler said.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import {
  ensureHelper, frameworkCsc, helperHash, HELPER_EXE, monoMcs, type Compiler,
} from '../../src/drivers/windows/build.js';
import { HELPER_SOURCES } from '../../src/drivers/windows/helper-sources.generated.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'cu-win-build-'));

test('the generated module embeds exactly the helper sources (npm run embed:windows after an edit)', async () => {
  const { generate } = await import(join(ROOT, 'scripts/embed-windows-helper.mjs')) as { generate(): string };
  const onDisk = readFileSync(join(ROOT, 'src/drivers/windows/helper-sources.generated.ts'), 'utf8');
  assert.ok(
    onDisk === generate(),
    'src/drivers/windows/helper-sources.generated.ts is stale: run npm run embed:windows',
  );
  const files = readdirSync(join(ROOT, 'src/drivers/windows/helper')).filter((f) => f.endsWith('.cs')).sort();
  assert.deepEqual(HELPER_SOURCES.map((s) => s.name), files);
});

test('the helper compiles as C# 5 with warnings as errors, is ' +
    'cached by hash, and a changed source makes a new entry', { timeout: 120_000 }, async () => {
  const dir = tmp();
  try {
    const first = await ensureHelper({ sources: HELPER_SOURCES, driversDir: dir, compiler: monoMcs() });
    assert.equal(first.origin, 'compiled');
    assert.equal(first.path, join(dir, first.hash!, HELPER_EXE));
    assert.ok(existsSync(first.path));
    const again = await ensureHelper({ sources: HELPER_SOURCES, driversDir: dir, compiler: monoMcs() });
    assert.deepEqual(again, { ...first, origin: 'cached' });
    const changed = HELPER_SOURCES.map((s) =>
      s.name === 'Program.cs' ? { ...s, text: `${s.text}\n// changed\n` } : s,
    );
    const next = await ensureHelper({ sources: changed, driversDir: dir, compiler: monoMcs() });
    assert.equal(next.origin, 'compiled');
    assert.notEqual(next.hash, first.hash);
    assert.ok(existsSync(first.path), 'the old entry stays');
    assert.deepEqual(readdirSync(dir).sort(), [first.hash, next.hash].sort(), 'one folder per hash, no leftovers');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a C# 6 feature fails the build with the compiler\'s ' +
    'own message (what a user\'s first run would show)', { timeout: 120_000 }, async () => {
  const dir = tmp();
  try {
    const broken = [
      ...HELPER_SOURCES,
      {
        name: 'Six.cs',
        text: 'namespace ComputerUse.Windows { static class Six { static string S(int x) { return $"{x}"; } } }\n',
      },
    ];
    await assert.rejects(ensureHelper({ sources: broken, driversDir: dir, compiler: monoMcs() }), (e: unknown) => {
      assert.ok(isComputerUseError(e, 'internal'));
      assert.match(e.message, /did not compile with mcs/);
      assert.match(e.message, /Six\.cs\(1,\d+\): error CS\d+/);
      return true;
    });
    assert.deepEqual(readdirSync(dir), [], 'a failed build leaves no entry behind');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

/**
 * A stand-in for csc.exe that answers as csc does: its diagnostics on stdout, full paths of the build folder, a
 * long list of warnings before the one error, exit 1. It also refuses to run with LIB set, as csc turns each
 * missing folder of LIB into CS1668, an error under -warnaserror.
 */
const FAKE_CSC = `
const [out, ...sources] = process.argv.slice(2);
if (process.env.LIB !== undefined) {
  console.log('warning CS1668: Invalid search path ' + process.env.LIB + ' specified in LIB environment variable');
  process.exit(1);
}
const program = sources.find((s) => s.endsWith('Program.cs'));
for (let i = 0; i < 45; i++) console.log(program + '(' + (i + 1) + ',1): warning CS0168: x' + i + ' is never used');
console.log(program + '(12,5): error CS1002: ; expected');
void out;
process.exit(1);
`;

test('a failed build prints the compiler\'s own lines: its error first ' +
    'however much came before, paths cut to the file name, LIB not passed on', { timeout: 60_000 }, async () => {
  const dir = tmp();
  const lib = process.env['LIB'];
  process.env['LIB'] = 'C:\\Program Files (x86)\\Gone\\lib';
  try {
    writeFileSync(join(dir, 'fake-csc.cjs'), FAKE_CSC);
    const csc: Compiler = { id: 'csc (fake)', command: process.execPath,
      args: (out, sources) => [join(dir, 'fake-csc.cjs'), out, ...sources] };
    const driversDir = join(dir, 'José Smith', 'drivers');
    const build = ensureHelper({ sources: HELPER_SOURCES, driversDir, compiler: csc });
    await assert.rejects(build, (e: unknown) => {
      assert.ok(isComputerUseError(e, 'internal'));
      const lines = e.message.split('\n');
      assert.match(lines[0]!, /did not compile with csc \(fake\) \(exit 1\)/);
      // The error comes first, as csc wrote it, without the build folder (under the user's home).
      assert.equal(lines[1], 'Program.cs(12,5): error CS1002: ; expected');
      assert.ok(!e.message.includes('José Smith'), e.message);
      assert.ok(!e.message.includes('CS1668'), 'LIB was not passed to the compiler');
      assert.match(e.message, /\(6 more lines\)/);
      return true;
    });
  } finally {
    if (lib === undefined) delete process.env['LIB']; else process.env['LIB'] = lib;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('csc is asked for UTF-8 output, so a path under a home named José reaches the user readable', () => {
  const csc = frameworkCsc('C:\\Windows', () => true);
  assert.ok(csc?.args('o.exe', ['a.cs']).includes('-utf8output'));
});

test('the helper\'s XML doc comments are well placed and well ' +
    'formed (csc may check them where mcs does not unless asked)', { timeout: 120_000 }, () => {
  const dir = tmp();
  try {
    const files = HELPER_SOURCES.map((s) => { const p = join(dir, s.name); writeFileSync(p, s.text); return p; });
    // CS1587 misplaced, CS1570 malformed, CS1572/CS1573 param names, CS1574 crefs; CS1591 (an undocumented public
    // member) is not a rule here.
    execFileSync('mcs', ['-nologo', '-noconfig', '-langversion:5', '-warnaserror+', '-warn:4', '-nowarn:1591',
      `-doc:${join(dir, 'doc.xml')}`,
      '-target:library', '-r:System.dll', `-out:${join(dir, 'helper.dll')}`, ...files], { stdio: 'pipe' });
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a warning fails the build too (warnings are errors, as in CI)', { timeout: 120_000 }, async () => {
  const dir = tmp();
  try {
    const warns = [
      ...HELPER_SOURCES,
      {
        name: 'Warn.cs',
        text: 'namespace ComputerUse.Windows { static class Warn { static void W() { int unused = 1; } } }\n',
      },
    ];
    await assert.rejects(
      ensureHelper({ sources: warns, driversDir: dir, compiler: monoMcs() }),
      /warning CS0219|error CS0219/,
    );
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('COMPUTER_USE_DRIVER_WINDOWS names a prebuilt helper; ' +
    'a missing one is an error, never a silent build', async () => {
  const dir = tmp();
  try {
    const exe = join(dir, 'prebuilt.exe');
    writeFileSync(exe, 'MZ');
    assert.deepEqual(
      await ensureHelper({ sources: HELPER_SOURCES, driversDir: dir, compiler: monoMcs(), prebuilt: exe }),
      { path: exe, origin: 'prebuilt' },
    );
    await assert.rejects(
      ensureHelper({ sources: HELPER_SOURCES, driversDir: dir, compiler: monoMcs(), prebuilt: join(dir, 'nope.exe') }),
      /COMPUTER_USE_DRIVER_WINDOWS/,
    );
    await assert.rejects(ensureHelper({ sources: HELPER_SOURCES, driversDir: dir, compiler: undefined }), /csc\.exe/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('csc is the .NET Framework 4 compiler under WINDIR, 64-bit first; the compiler is part of the cache key', () => {
  const seen: string[] = [];
  const csc = frameworkCsc('C:\\Windows', (p) => { seen.push(p); return p.includes('Framework64'); });
  assert.equal(csc?.command, 'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe');
  assert.deepEqual(csc?.args('o.exe', ['a.cs']).slice(0, 5), [
    '-nologo',
    '-noconfig',
    '-langversion:5',
    '-warnaserror+',
    '-target:exe',
  ]);
  assert.equal(frameworkCsc('C:\\Windows', () => false), undefined);
  assert.notEqual(helperHash(HELPER_SOURCES, csc!), helperHash(HELPER_SOURCES, monoMcs()));
  assert.ok(seen.length >= 1);
});

test('a source name that is not a plain .cs name is refused before anything is written', async () => {
  const dir = tmp();
  try {
    await assert.rejects(
      ensureHelper({ sources: [{ name: '../evil.cs', text: '' }], driversDir: dir, compiler: monoMcs() }),
      /plain \.cs name/,
    );
    assert.ok(!existsSync(join(dir, '..', 'evil.cs')));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
