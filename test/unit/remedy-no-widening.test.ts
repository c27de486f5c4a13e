/**
 * No text the model reads hands it a way to widen its own permissions: a refusal that said "The user can allow the
 * app: --allow-app mousepad" or "allows it with --mode bypass" taught a model in the loop to add that flag to its
 * next call. Every string and template literal in the source (refusals, errors, hints, the CLI's rewording) is
 * scanned for a widening flag, settings field or environment variable; the few literals that are usage text read
 * on request, or a settings field's own name in code, are listed below with why. The policy's refusals
 * produced for real are read the same way in policy-gate.test.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';
import { WIDENING } from '../fixtures/policy/widening.js';
import { parseMode } from '../../src/policy/modes.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Literals that may name such flags, each with why: text a person reads or types, never a message to the model.
 * Keyed by file and the name of a declaration or property the literal stands in.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/hosts/options.ts HOST_OPTIONS':
    'the option table: --help text and the flags a user writes into their MCP/pi configuration',
  'src/index.ts status': "the policy's one-line state, which pi's /computer status (typed by the person) shows",
  'src/hosts/cli/main.ts USAGE':
    "computer-use --help, read on request; a flag given on a call holds only after a person's yes",
  'src/hosts/cli/tool-commands.ts COMMON': "a tool command's --help, read on request (the same)",
  'src/hosts/cli/device-command.ts USAGE':
    'computer-use device --help, read on request: a person adds a device with its own mode',
  'src/policy/policy.ts reason':
    "the audit record's reason, read by the person in the audit log and the panel, never returned to the model",
  'src/panel/page.ts pageHtml': "the panel page, the person's own screen (the model never reads it: panel-deny)",
};

interface Hit { file: string; owners: string[]; text: string; line: number }

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** The named things a node stands in, innermost first: variables, properties, functions, methods. */
function ownersOf(node: ts.Node): string[] {
  const out: string[] = [];
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (
      (ts.isVariableDeclaration(n) ||
        ts.isPropertyAssignment(n) ||
        ts.isFunctionDeclaration(n) ||
        ts.isMethodDeclaration(n) ||
        ts.isPropertyDeclaration(n)) &&
      n.name &&
      ts.isIdentifier(n.name)
    )
      out.push(n.name.text);
  }
  return out;
}

/** Every prose literal (one with a space) of the source that names a widening flag or field. */
function scan(): Hit[] {
  const hits: Hit[] = [];
  for (const path of sources(join(root, 'src'))) {
    const file = relative(root, path);
    const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      let text: string | undefined;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
      else if (ts.isTemplateExpression(node))
        text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${}');
      if (text !== undefined && /\s/.test(text) && WIDENING.some((r) => r.test(text))) {
        hits.push({
          file,
          owners: ownersOf(node),
          text,
          line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return hits;
}

test('no message template in the source names a flag, field or variable that widens the caller\'s permissions', () => {
  const hits = scan().filter((h) => !h.owners.some((o) => `${h.file} ${o}` in ALLOWED));
  assert.deepEqual(hits.map((h) => `${h.file}:${h.line} (${h.owners[0] ?? ''}) ${h.text.slice(0, 160)}`), []);
});

test('the scanner sees the templates: a refusal naming --allow-app is found (it scans what it says it scans)', () => {
  const all = scan();
  assert.ok(all.some((h) => h.file === 'src/hosts/options.ts'), 'the option table names --mode and is found');
  assert.ok(WIDENING.some((r) => r.test('The user can allow the app: --allow-app mousepad (or "allowApps": [...])')));
  assert.ok(WIDENING.some((r) => r.test('or allows it with --mode bypass --allow-app gedit')));
  assert.ok(!WIDENING.some((r) => r.test('Unattended mode acts only on allow-listed apps and never asks')));
});

test('an unknown mode is refused without listing the modes that ask less', () => {
  assert.throws(
    () => parseMode('auto'),
    (e: Error) => !WIDENING.some((r) => r.test(e.message)) && /computer-use --help/.test(e.message),
  );
});
