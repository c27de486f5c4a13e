/**
 * The layering of ARCHITECTURE.md is checked by lint (eslint.layers.js, applied by eslint.config.js): each rule is
 * shown refusing a deliberate violation and passing the imports its layer may make, by linting text placed in
 * that folder with exactly those rules, so a rule that never fires cannot pass this test.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const load = async <T>(file: string): Promise<T> => await import(pathToFileURL(join(root, file)).href) as T;

/** The messages of no-restricted-imports for `code` as the file `path` (relative to the repository). */
async function refusals(path: string, code: string): Promise<string[]> {
  const { layerRules } = await load<{ layerRules: () => Linter.Config[] }>('eslint.layers.js');
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      ...layerRules(),
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  assert.ok(result, path);
  assert.deepEqual(result.messages.filter((m) => m.ruleId !== 'no-restricted-imports').map((m) => m.message), [], path);
  return result.messages.map((m) => m.message);
}

const CASES: { path: string; bad: string[]; ok: string[]; says: RegExp }[] = [
  {
    path: 'src/tools/x.ts',
    bad: ['../drivers/linux/driver.js', '../devices/manager.js'],
    ok: ['../session/session.js', '../protocol/errors.js', './tool.js'],
    says: /never know which platform/,
  },
  {
    path: 'src/engine/x.ts',
    bad: [
      '../drivers/fake/driver.js',
      '../session/session.js',
      '../policy/policy.js',
      'node:child_process',
      'child_process',
    ],
    ok: ['../protocol/nodes.js', '../common/proc.js', './node.js', 'node:crypto'],
    says: /The engine is pure|start no process/,
  },
  {
    path: 'src/protocol/x.ts',
    bad: ['../engine/node.js', '../devices/stdio.js'],
    ok: ['../common/proc.js', './nodes.js', '@sinclair/typebox'],
    says: /imports nothing of ours but src\/common/,
  },
  {
    path: 'src/drivers/linux/x.ts',
    bad: [
      '../../doctor/process.js',
      '../../policy/apps.js',
      '../../tools/act.js',
      '../../session/session.js',
      '../../hosts/mcp.js',
    ],
    ok: ['../../protocol/nodes.js', '../common/names.js', './toolkits.js', '../../common/proc.js'],
    says: /A driver only enumerates/,
  },
  {
    path: 'src/drivers/linux/x11/x.ts',
    bad: ['../../../doctor/advice.js'],
    ok: ['../toolkits.js'],
    says: /A driver only enumerates/,
  },
  {
    path: 'src/drivers/replay/x.ts',
    bad: ['../../conformance/transcript.js', '../../devices/stdio.js'],
    ok: ['../../protocol/transcript.js', '../../protocol/peer.js'],
    says: /A driver only enumerates/,
  },
  {
    path: 'src/doctor/x.ts',
    bad: ['../hosts/cli/device-command.js', '../hosts/options.js'],
    ok: ['../devices/ssh.js', '../tools/remedy.js', './platform.js'],
    says: /used by the hosts, never the reverse/,
  },
  {
    path: 'src/panel/x.ts',
    bad: ['../hosts/options.js'],
    ok: ['../policy/stop.js', './server.js'],
    says: /used by the hosts, never the reverse/,
  },
  {
    path: 'src/drivers/macos/x.ts',
    bad: [
      '../linux/identity.js',
      '../windows/identity.js',
      '../cdp/keys.js',
      '../fake/driver.js',
      '../../drivers/linux/x11apps.js',
      '../../doctor/process.js',
    ],
    ok: ['../common/content.js', './cf.js', '../../protocol/identity.js', '../../common/proc.js', 'koffi'],
    says: /imports no other platform's folder|A driver only enumerates/,
  },
  {
    path: 'src/drivers/linux/x11/x.ts',
    bad: ['../../macos/keys.js', '../../windows/cmdline.js'],
    ok: ['../identity.js', '../../common/content.js'],
    says: /imports no other platform's folder/,
  },
  {
    path: 'src/drivers/common/x.ts',
    bad: ['../linux/identity.js', '../replay/driver.js', '../../policy/apps.js'],
    ok: ['./names.js', '../../protocol/identity.js'],
    says: /imports no other platform's folder|A driver only enumerates/,
  },
  {
    path: 'src/policy/x.ts',
    bad: ['../drivers/linux/identity.js', '../hosts/mcp.js', 'node:child_process'],
    ok: ['../protocol/identity.js', '../engine/escape.js', './apps.js'],
    says: /The policy decides|start no process/,
  },
  {
    path: 'src/policy/decider/x.ts',
    bad: ['../../drivers/linux/identity.js', 'node:child_process'],
    ok: ['../policy.js'],
    says: /The policy decides|start no process/,
  },
  // Outside src/drivers nothing reaches into a platform's folder: the protocol, drivers/common and the entries at the
  // top of src/drivers.
  {
    path: 'src/session/x.ts',
    bad: ['../drivers/linux/keysyms.js', '../drivers/windows/keys.js', '../drivers/android/adb/client.js'],
    ok: ['../drivers/common/names.js', '../drivers/host.js', '../protocol/keys.js', './pipeline.js'],
    says: /Only src\/drivers reaches into a platform's folder/,
  },
  {
    path: 'src/hosts/cli/x.ts',
    bad: ['../../drivers/linux/main.js', '../../drivers/linux/sandbox/sandbox.js', '../../drivers/cdp'],
    ok: ['../../drivers/host.js', '../../session/session.js', '../options.js'],
    says: /Only src\/drivers reaches into a platform's folder/,
  },
  {
    path: 'src/x.ts',
    bad: ['./drivers/macos/driver.js', './drivers/replay/main.js'],
    ok: ['./drivers/host.js', './session/session.js'],
    says: /Only src\/drivers reaches into a platform's folder/,
  },
  {
    path: 'src/doctor/x.ts',
    bad: ['../drivers/linux/prereq.js', '../drivers/windows/build.js'],
    ok: ['../drivers/host.js', '../drivers/common/checks.js'],
    says: /Only src\/drivers reaches into a platform's folder/,
  },
  {
    path: 'src/panel/x.ts',
    bad: ['../drivers/linux/keysyms.js'],
    ok: ['../drivers/host.js'],
    says: /Only src\/drivers reaches into a platform's folder/,
  },
];

for (const c of CASES) {
  test(`layering: ${c.path} may not import ${c.bad.join(', ')}`, async () => {
    for (const spec of c.bad) {
      const got = await refusals(c.path, `import { x } from '${spec}';\nexport const y = x;\n`);
      assert.equal(got.length, 1, `${c.path} importing ${spec} must be refused: ${got.join(' | ')}`);
      assert.match(got[0]!, c.says);
      // A type import and a re-export cross the layer just the same.
      assert.equal(
        (await refusals(c.path, `import type { X } from '${spec}';\nexport type Y = X;\n`)).length,
        1,
        `type import of ${spec}`,
      );
      assert.equal((await refusals(c.path, `export { x } from '${spec}';\n`)).length, 1, `re-export of ${spec}`);
    }
    for (const spec of c.ok)
      assert.deepEqual(
        await refusals(c.path, `import { x } from '${spec}';\nexport const y = x;\n`),
        [],
        `${c.path} may import ${spec}`,
      );
  });
}

test('a dynamic import of a platform folder from outside src/drivers ' +
    'is refused too; the entries of src/drivers may make it', async () => {
  const { layerRules, restrictedSyntaxRules } = await load<{
    layerRules: () => Linter.Config[];
    restrictedSyntaxRules: () => Linter.Config[];
  }>('eslint.layers.js');
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      ...layerRules(),
      ...restrictedSyntaxRules(),
    ],
  });
  const lint = async (path: string, spec: string): Promise<string[]> =>
    (
      await eslint.lintText(`export const m = await import('${spec}');\n`, { filePath: join(root, path) })
    )[0]!.messages.map((m) => m.message);
  for (const [path, spec] of [
    ['src/hosts/cli/x.ts', '../../drivers/linux/main.js'],
    ['src/doctor/x.ts', '../drivers/android/doctor.js'],
    ['src/x.ts', './drivers/cdp/main.js'],
  ] as const) {
    const got = await lint(path, spec);
    assert.equal(got.length, 1, `${path} importing ${spec}`);
    assert.match(got[0]!, /Only src\/drivers reaches into a platform's folder/);
  }
  assert.deepEqual(await lint('src/hosts/cli/x.ts', '../../drivers/host.js'), []);
  assert.deepEqual(await lint('src/drivers/host.ts', './linux/main.js'), []);
  assert.deepEqual(await lint('src/hosts/cli/x.ts', '../../session/session.js'), []);
});

test('every platform folder of src/drivers has its own rule', async () => {
  const { DRIVER_FOLDERS } = await load<{ DRIVER_FOLDERS: string[] }>('eslint.layers.js');
  const folders = readdirSync(join(root, 'src', 'drivers'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'common')
    .map((d) => d.name)
    .sort();
  assert.deepEqual(
    [...DRIVER_FOLDERS].sort(),
    folders,
    'a new driver folder is listed in eslint.layers.js DRIVER_FOLDERS',
  );
});

test('the lint config applies the layer rules to the source tree', async () => {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
  for (const file of [
    'src/engine/node.ts',
    'src/protocol/nodes.ts',
    'src/tools/act.ts',
    'src/drivers/linux/apps/x11apps.ts',
    'src/policy/policy.ts',
    'src/policy/decider/types.ts',
    'src/drivers/macos/resolve.ts',
    'src/drivers/common/content.ts',
    'src/session/session.ts',
    'src/hosts/mcp.ts',
    'src/index.ts',
    'src/devices/manager.ts',
  ]) {
    const applied = await eslint.calculateConfigForFile(join(root, file)) as Linter.Config;
    const rule = applied.rules?.['no-restricted-imports'] as [number, { patterns: { message: string }[] }] | undefined;
    assert.equal(rule?.[0], 2, `no-restricted-imports is on (error) for ${file}`);
    assert.match(rule[1].patterns[0]!.message, /ARCHITECTURE\.md/, file);
    if (file.startsWith('src/drivers/'))
      assert.ok(
        rule[1].patterns.some((p) => /other platform's folder/.test(p.message)),
        `the platform rule applies to ${file}`,
      );
    else
      assert.equal(
        (applied.rules?.['no-restricted-syntax'] as [number] | undefined)?.[0],
        2,
        `dynamic imports of a platform are refused in ${file}`,
      );
  }
});

test('a tool builds no acting step: it may not take the pipeline\'s runner, only its context type', async () => {
  for (const name of ['perform', 'ActingRun', 'Dispatcher']) {
    const got = await refusals(
      'src/tools/x.ts',
      `import { ${name} } from '../session/pipeline.js';\nexport const y = ${name};\n`,
    );
    assert.equal(got.length, 1, `${name}: ${got.join(' | ')}`);
    assert.match(got[0]!, /A tool builds no acting step/);
  }
  assert.deepEqual(
    await refusals(
      'src/tools/x.ts',
      "import type { PipelineContext } from '../session/pipeline.js';\nexport type Y = PipelineContext;\n",
    ),
    [],
  );
  assert.deepEqual(
    await refusals('src/session/x.ts', "import { perform } from './pipeline.js';\nexport const y = perform;\n"),
    [],
  );
});
