/**
 * Starting a Windows program from the protocol's argv (src/drivers/windows/cmdline.ts): the command line by the
 * C runtime's rules (Microsoft's "Parsing C command-line arguments": backslashes are literal unless a quote
 * follows, 2n backslashes + quote → n backslashes and a delimiter, 2n+1 → n and a literal quote), the environment
 * block, the program lookup (never the current directory), and the driver's launch request to the helper. Where
 * Wine and mingw-w64 are installed (scripts/setup-debian.sh), a probe compiled here proves hostile argv and
 * variables round-trip byte for byte through a real CreateProcessW, CommandLineToArgvW and the C runtime.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { commandLine, environmentBlock, quoteArg, resolveProgram } from '../../src/drivers/windows/cmdline.js';
import { isComputerUseError } from '../../src/protocol/errors.js';

/** The C runtime's documented argument parser (after the program name), as the reference the table checks. */
function parseArgs(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) return out;
    let arg = '';
    let quoted = false;
    for (; i < line.length; i++) {
      const c = line[i]!;
      if (c === '\\') {
        let n = 0;
        while (line[i] === '\\') { n++; i++; }
        if (line[i] === '"') { arg += '\\'.repeat(Math.floor(n / 2)); if (n % 2 === 1) { arg += '"'; continue; } i--; }
        else { arg += '\\'.repeat(n); i--; }
        continue;
      }
      if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i++;
          continue;
        } // "" inside quotes: a literal quote (CRT 2008+)
        quoted = !quoted;
        continue;
      }
      if (!quoted && (c === ' ' || c === '\t')) break;
      arg += c;
    }
    out.push(arg);
  }
}

/** The program name's own rule: a quoted name ends at the next quote. */
function splitProgram(line: string): [string, string] {
  assert.equal(line[0], '"');
  const end = line.indexOf('"', 1);
  return [line.slice(1, end), line.slice(end + 1)];
}

test('the reference parser reads Microsoft\'s documented examples as documented', () => {
  const table: [string, string[]][] = [
    ['"abc" d e', ['abc', 'd', 'e']],
    ['a\\\\\\b d"e f"g h', ['a\\\\\\b', 'de fg', 'h']],
    ['a\\\\\\"b c d', ['a\\"b', 'c', 'd']],
    ['a\\\\\\\\"b c" d e', ['a\\\\b c', 'd', 'e']],
    ['a"b"" c d', ['ab" c d']],
  ];
  for (const [line, argv] of table) assert.deepEqual(parseArgs(line), argv, line);
});

/** Arguments a hostile model might send: every rule's edge, shell syntax that must stay text, other scripts. */
const HOSTILE = [
  '',
  ' ',
  '\t',
  'plain',
  'two words',
  'tab\there',
  'new\nline',
  'v\vtab',
  '"',
  '""',
  'a"b',
  '\\',
  '\\\\',
  'trail\\',
  'trail\\\\',
  'C:\\Program Files\\',
  '\\"',
  '\\\\"',
  'a\\\\"b',
  '"quoted"',
  'x" & calc.exe & "',
  '%PATH%',
  '!VAR!',
  '^&|<>()',
  '$(rm -rf /)',
  '`id`',
  '--flag=a b',
  '世界 😀',
  'Zoë\u2028\u2029',
  '\u001b[31mred',
  ' lead',
  'trail ',
];

test('quoteArg: bare when nothing needs quoting, else the documented escapes', () => {
  const table: [string, string][] = [
    ['plain', 'plain'],
    ['', '""'],
    ['a b', '"a b"'],
    ['a"b', '"a\\"b"'],
    ['trail\\', 'trail\\'],
    ['trail \\', '"trail \\\\"'],
    ['a\\\\"b', '"a\\\\\\\\\\"b"'],
    ['C:\\Program Files\\', '"C:\\Program Files\\\\"'],
    ['%PATH%', '%PATH%'],
    ['x\\y', 'x\\y'],
  ];
  for (const [arg, quoted] of table) assert.equal(quoteArg(arg), quoted, JSON.stringify(arg));
});

test('every hostile argument round-trips through the command line by the documented rules', () => {
  const program = 'C:\\Program Files\\App\\app.exe';
  const line = commandLine(program, HOSTILE);
  const [name, rest] = splitProgram(line);
  assert.equal(name, program);
  assert.deepEqual(parseArgs(rest), HOSTILE);
  for (const a of HOSTILE) assert.deepEqual(parseArgs(quoteArg(a)), [a], JSON.stringify(a));
});

test('what a command line cannot hold is refused before anything starts', () => {
  assert.throws(() => commandLine('C:\\a"b.exe', []), (e: unknown) => isComputerUseError(e, 'invalid_params'));
  assert.throws(() => commandLine('C:\\a.exe', ['nul\0byte']), (e: unknown) => isComputerUseError(e, 'invalid_params'));
  assert.throws(() => commandLine('C:\\a.exe', ['x'.repeat(40_000)]), /at most 32766/);
});

test('the environment block: names without regard to case, the old name kept, sorted, NUL refused', () => {
  const block = environmentBlock(
    { Path: 'C:\\Windows', '=C:': 'C:\\Users\\me', windir: 'C:\\Windows', UNDEF: undefined },
    { PATH: 'D:\\bin', LANG: 'zh_CN 世界', A_B: 'x=y' },
  );
  assert.deepEqual(block, ['=C:=C:\\Users\\me', 'A_B=x=y', 'LANG=zh_CN 世界', 'Path=D:\\bin', 'windir=C:\\Windows']);
  assert.throws(() => environmentBlock({}, { X: 'a\0b' }), (e: unknown) => isComputerUseError(e, 'invalid_params'));
  assert.throws(() => environmentBlock({}, { '=C:': 'x' }), (e: unknown) => isComputerUseError(e, 'invalid_params'));
});

test('program lookup: System32, then the Windows folder, then ' +
    'PATH; never the current directory; no relative paths', () => {
  const files = new Set([
    'C:\\Windows\\System32\\notepad.exe',
    'C:\\Tools\\notepad.exe',
    'C:\\Tools\\rg.exe',
    'C:\\Tools\\code.cmd',
  ]);
  const o = { windir: 'C:\\Windows', path: '.;"C:\\Tools\\";relative\\dir', exists: (p: string) => files.has(p) };
  assert.equal(resolveProgram('notepad', o), 'C:\\Windows\\System32\\notepad.exe');
  assert.equal(resolveProgram('rg', o), 'C:\\Tools\\rg.exe');
  assert.equal(resolveProgram('C:\\Tools\\rg.exe', o), 'C:\\Tools\\rg.exe');
  assert.throws(
    () => resolveProgram('evil', { ...o, exists: (p) => p === '.\\evil.exe' || p === 'relative\\dir\\evil.exe' }),
    (e: unknown) => isComputerUseError(e, 'app_not_found'),
  );
  assert.throws(() => resolveProgram('..\\evil.exe', o), (e: unknown) => isComputerUseError(e, 'invalid_params'));
  assert.throws(() => resolveProgram('notepad" & calc', o), (e: unknown) => isComputerUseError(e, 'invalid_params'));
  assert.throws(() => resolveProgram('C:\\nope.exe', o), (e: unknown) => isComputerUseError(e, 'app_not_found'));
});

test('a batch file is never started: CreateProcessW runs it ' +
    'through cmd.exe, which reparses the quoted arguments', () => {
  // cmd.exe reads `"a&calc"` by its own rules (& and | and % still act), so quoting for the C runtime cannot keep
  // an argument data: `code.cmd "x\"&calc"` would run calc.
  const files = new Set(['C:\\Tools\\code.cmd', 'C:\\Tools\\setup.bat', 'C:\\Tools\\rg.exe', 'C:\\Tools\\old.com']);
  const o = { windir: 'C:\\Windows', path: 'C:\\Tools', exists: (p: string) => files.has(p) };
  for (const cmd of [
    'code.cmd',
    'C:\\Tools\\code.cmd',
    'C:\\Tools\\setup.bat',
    'C:\\Tools\\SETUP.BAT',
    'setup.bat',
    'C:\\Tools\\setup.bat. .',
    'C:\\Tools\\setup.bat::$DATA',
  ]) {
    assert.throws(
      () =>
        resolveProgram(cmd, { ...o, exists: (p) => files.has(p) || files.has(p.replace('SETUP.BAT', 'setup.bat')) }),
      (e: unknown) => isComputerUseError(e, 'invalid_params') && /cmd\.exe/.test(e.message),
      cmd,
    );
  }
  assert.equal(resolveProgram('rg', o), 'C:\\Tools\\rg.exe');
  assert.equal(resolveProgram('old.com', o), 'C:\\Tools\\old.com');
});

// ---- the round trip under Wine ----

const WINE = ['/usr/lib/wine/wine64', '/usr/bin/wine64', '/usr/bin/wine'].find((p) => existsSync(p));
const MINGW = ['/usr/bin/x86_64-w64-mingw32-gcc'].find((p) => existsSync(p));
const PROBE_SOURCE = fileURLToPath(new URL('../../../test/fixtures/windows/argv-probe.c', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cu-win-argv-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);

const unhex = (h: string): string => String.fromCharCode(...(h.match(/.{4}/g) ?? []).map((x) => parseInt(x, 16)));

test('under Wine, hostile argv and variables reach the program byte for byte (CreateProcessW, CommandLineToArgvW, the C runtime)', { skip: !WINE || !MINGW ? 'wine64 or mingw-w64 is not installed (scripts/setup-debian.sh installs both)' : false, timeout: 240_000 }, async () => {
  const exe = join(dir, 'argv-probe.exe');
  await run(MINGW!, ['-municode', '-O1', '-o', exe, PROBE_SOURCE, '-lshell32']);
  // One prefix per user, kept between runs: creating it takes ~20 s, reusing it ~1 s.
  const prefix = join(tmpdir(), `cu-wine-prefix-${userInfo().uid}`);
  mkdirSync(prefix, { recursive: true });
  const app = `Z:${exe.replace(/\//g, '\\')}`;
  const args = HOSTILE; // the ESC too: the probe prints hex, so no console sees it
  const extra = {
    CU_PROBE_CHILD: '1',
    WINEDEBUG: '-all',
    LANG_TEST: '世界 😀 "q" %PATH% a=b',
    Path: 'C:\\windows\\system32;C:\\windows',
  };
  const block = environmentBlock({ SystemRoot: 'C:\\windows', windir: 'C:\\windows' }, extra);
  const file = join(dir, 'spawn.bin');
  writeFileSync(file, Buffer.from(`${app}\0${commandLine(app, args)}\0${block.join('\0')}\0\0`, 'utf16le'));
  const { stdout } = await run(WINE!, [exe, 'spawn', `Z:${file.replace(/\//g, '\\')}`], {
    env: { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all', DISPLAY: '' },
    timeout: 200_000,
  });
  const lines = stdout.split(/\r?\n/);
  const of = (tag: string): string[] =>
    lines.filter((l) => l.startsWith(`${tag} `) || l === tag).map((l) => unhex(l.slice(tag.length + 1)));
  assert.match(stdout, new RegExp(`END ${args.length} ${args.length}`));
  assert.deepEqual(of('CL'), args, 'CommandLineToArgvW');
  assert.deepEqual(of('CRT'), args, 'the C runtime');
  const env = of('ENV');
  for (const entry of block) assert.ok(env.includes(entry), `the program has ${JSON.stringify(entry)}`);
});
