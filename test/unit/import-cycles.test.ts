/**
 * The import graph of src/ has no circles (ARCHITECTURE.md, "Keeping it true"): no two modules import each other,
 * directly or around a loop, with type imports, re-exports and dynamic imports counted, since each ties the
 * modules' meaning together just the same. The walk reads the TypeScript sources, so it sees what tsc erases.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Every .ts file under `dir`, as absolute paths. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative module specifiers a source imports: static imports, `export … from`, and `import('…')`. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  // Comments may quote an import; they are no edge.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  for (const m of code.matchAll(/(?:^|[\n;])\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g))
    out.push(m[1]!);
  for (const m of code.matchAll(/(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out.filter((s) => s.startsWith('.'));
}

/** The graph of `files` (absolute paths) by their relative imports, `.js` specifiers mapped to the `.ts` source. */
function graphOf(files: string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const targets = importsOf(read(f))
      .map((s) => resolve(dirname(f), s).replace(/\.js$/, '.ts'))
      .filter((t) => known.has(t));
    graph.set(f, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one node, or with a self-loop (Tarjan): each is a circle. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('the import graph of src/ has no circles (type imports, re-exports and dynamic imports included)', () => {
  const files = sources(join(root, 'src'));
  assert.ok(files.length > 100, `read ${files.length} sources`);
  const found = circles(graphOf(files, (f) => readFileSync(f, 'utf8')));
  assert.deepEqual(
    found.map((c) => c.map((f) => relative(root, f))),
    [],
    'modules that import each other: move what both need into a module below them',
  );
});

test('the walk finds a circle made of any kind of import, and none in a chain', () => {
  const texts: Record<string, string> = {
    '/r/a.ts': "import { b } from './b.js';\n// import { z } from './z.js';\n",
    '/r/b.ts': "import type { C } from './sub/c.js';\nexport const b = 1;\n",
    '/r/sub/c.ts': "export { a } from '../a.js';\n",
    '/r/d.ts': "const e = await import('./e.js');\n",
    '/r/e.ts': "import './d.js';\n",
    '/r/g.ts': "import {\n  x,\n} from './h.js';\n",
    '/r/h.ts': "export { y } from './g.js';\n",
    '/r/f.ts': "import { b } from './b.js';\n",
  };
  const graph = graphOf(Object.keys(texts), (f) => texts[f]!);
  assert.deepEqual(
    circles(graph)
      .map((c) => c.join(' '))
      .sort(),
    ['/r/a.ts /r/b.ts /r/sub/c.ts', '/r/d.ts /r/e.ts', '/r/g.ts /r/h.ts'],
  );
  assert.deepEqual(circles(new Map([['x', ['y']], ['y', ['z']], ['z', []]])), []);
  assert.deepEqual(circles(new Map([['x', ['x']]])), [['x']]);
});
