/**
 * Two structural lint rules of eslint.layers.js, each shown refusing a deliberate violation and passing what is
 * allowed, then shown applied to the source tree by eslint.config.js: short functions where the flows, passes and
 * rules live (session, engine, policy), and the acting device taken back by the acting pipeline alone.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
interface Layers {
  functionLengthRule: () => Linter.Config[];
  restrictedSyntaxRules: () => Linter.Config[];
  MAX_FUNCTION_LINES: number;
  SHORT_FUNCTION_FOLDERS: string[];
}
const layers = async (): Promise<Layers> => await import(pathToFileURL(join(root, 'eslint.layers.js')).href) as Layers;

/** The messages of `rules` for `code` placed at `path` (relative to the repository). */
async function messages(
  rules: Linter.Config[],
  path: string,
  code: string,
): Promise<{ ruleId: string | null; message: string }[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } }, ...rules],
  });
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  assert.ok(result, path);
  return result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

/**
 * A function `lines` lines long as the rule counts them (its first and last line included), with a blank line
 * and a comment after each statement (neither counts).
 */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};\n\n  // why ${i}\n`).join('');
  return `export function f(): number {\n  let n = 0;\n${body}  return n;\n}\n`;
}

test('a function over the line limit is refused in session, engine and policy, and allowed elsewhere', async () => {
  const { functionLengthRule, MAX_FUNCTION_LINES, SHORT_FUNCTION_FOLDERS } = await layers();
  assert.deepEqual(SHORT_FUNCTION_FOLDERS, ['src/session', 'src/engine', 'src/policy']);
  for (const folder of SHORT_FUNCTION_FOLDERS) {
    const long = await messages(functionLengthRule(), `${folder}/x.ts`, functionOf(MAX_FUNCTION_LINES + 1));
    assert.deepEqual(long.map((m) => m.ruleId), ['max-lines-per-function'], folder);
    // Blank lines and comments are not counted: this one has about three times the limit in raw lines.
    assert.deepEqual(
      await messages(functionLengthRule(), `${folder}/x.ts`, functionOf(MAX_FUNCTION_LINES)),
      [],
      folder,
    );
  }
  assert.deepEqual(
    await messages(functionLengthRule(), 'src/drivers/linux/x.ts', functionOf(MAX_FUNCTION_LINES + 40)),
    [],
  );
});

test('only the acting pipeline may import the acting device, by name, namespace or re-export', async () => {
  const { restrictedSyntaxRules } = await layers();
  const refused = [
    "import { actingDevice } from './acting-device.js';\nexport const d = actingDevice;\n",
    "import { actingDevice as take } from '../session/acting-device.js';\nexport const d = take;\n",
    "import * as hand from './acting-device.js';\nexport const d = hand;\n",
    "export { actingDevice } from './acting-device.js';\n",
    "export * from './acting-device.js';\n",
  ];
  for (const path of ['src/session/act.ts', 'src/tools/x.ts', 'src/session/session.ts', 'test/unit/x.test.ts']) {
    for (const code of refused) {
      const got = await messages(restrictedSyntaxRules(), path, code);
      assert.equal(got.length, 1, `${path}: ${code}`);
      assert.match(got[0]!.message, /Only the acting pipeline/);
    }
  }
  // The session hands its device over (entrust) and the pipeline takes it back.
  assert.deepEqual(
    await messages(
      restrictedSyntaxRules(),
      'src/session/session.ts',
      "import { entrust } from './acting-device.js';\nexport const e = entrust;\n",
    ),
    [],
  );
  assert.deepEqual(await messages(restrictedSyntaxRules(), 'src/session/pipeline.ts', refused[0]!), []);
});

test('the lint config applies both rules to the source tree', async () => {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
  for (const file of ['src/session/act.ts', 'src/engine/diff.ts', 'src/policy/policy.ts']) {
    const applied = await eslint.calculateConfigForFile(join(root, file)) as Linter.Config;
    assert.equal((applied.rules?.['max-lines-per-function'] as [number] | undefined)?.[0], 2, file);
  }
  const act = await eslint.calculateConfigForFile(join(root, 'src/session/act.ts')) as Linter.Config;
  assert.equal((act.rules?.['no-restricted-syntax'] as [number] | undefined)?.[0], 2);
  const pipeline = await eslint.calculateConfigForFile(join(root, 'src/session/pipeline.ts')) as Linter.Config;
  // The pipeline keeps the dynamic-import rule but not the one on actingDevice (it is the one that takes it back).
  const selectors = ((pipeline.rules?.['no-restricted-syntax'] as unknown[] | undefined) ?? []).slice(1) as {
    message?: string;
  }[];
  assert.ok(selectors.every((x) => !/Only the acting pipeline/.test(x.message ?? '')), JSON.stringify(selectors));
});
