/**
 * A page viewer's own controls around the page it shows, folded in a whole-window print: a browser's window
 * buttons, its toolbar (back, reload, the address bar, ~30 extension and menu buttons), its tab strip and its info
 * bars read ~150–200 tokens at every launch, before the page the task is about. Around a page (a document that
 * holds elements and is not itself editable text), the siblings of the page's ancestors that hold nothing focused
 * and nothing just acted on print as one line per run: each part by ref, role and name, with how many elements it
 * holds, so `scope=` on a part lists it and `full=true` prints it all. Works on a copy, like engine/fold.ts: refs,
 * the elements a find or a diff reads and the nodes themselves are untouched. Pure.
 */
import type { DistilledNode } from './distill.js';

/** The page: the first document (breadth first) that holds elements and is not editable text. */
function pageOf(root: DistilledNode): DistilledNode[] | undefined {
  const queue: DistilledNode[][] = [[root]];
  for (let path = queue.shift(); path; path = queue.shift()) {
    const n = path[path.length - 1] as DistilledNode;
    if (n !== root && n.role === 'document' && n.children.length > 0 && !n.states.includes('editable')) return path;
    for (const c of n.children) queue.push([...path, c]);
  }
  return undefined;
}

/** True when the subtree holds what a print must show: the focus, or an element the model just acted on. */
function holdsShown(n: DistilledNode, whole: ReadonlySet<string>): boolean {
  if (n.states.includes('focused') || (n.ref !== undefined && whole.has(n.ref))) return true;
  if (n.role === 'dialog') return true;
  return n.children.some((c) => holdsShown(c, whole));
}

/** How many elements a subtree holds under its top. */
export function insideCount(n: DistilledNode): number {
  return n.children.reduce((a, c) => a + 1 + insideCount(c), 0);
}

/** Elements a run around the page must hold, or parts it must count, to fold: fewer print as they are. */
const CHROME_MIN_ELEMENTS = 4;

/** The result of `foldChrome`. */
export interface ChromeFolded {
  root: DistilledNode;
  /** Elements inside the runs folded (their tops and everything under them). */
  elements: number;
  /** Their refs. */
  refs: ReadonlySet<string>;
}

/**
 * A copy of `root` where the parts around its page fold to one line per run of siblings (a `folded` node with
 * `around` set); `root` itself when it shows no page or nothing around it folds.
 */
export function foldChrome(root: DistilledNode, whole: ReadonlySet<string> = new Set()): ChromeFolded {
  const path = pageOf(root);
  if (!path) return { root, elements: 0, refs: new Set() };
  let elements = 0;
  const refs = new Set<string>();
  const note = (n: DistilledNode): void => {
    if (n.ref !== undefined) refs.add(n.ref);
    n.children.forEach(note);
  };
  const rebuild = (depth: number): DistilledNode => {
    const node = path[depth] as DistilledNode;
    const onPath = path[depth + 1];
    if (!onPath) return node;
    const kids: DistilledNode[] = [];
    let run: DistilledNode[] = [];
    const close = (): void => {
      const count = run.reduce((a, m) => a + 1 + insideCount(m), 0);
      if (run.length > 1 || count >= CHROME_MIN_ELEMENTS) {
        const first = run[0] as DistilledNode;
        const { name: _n, description: _d, value: _v, ...rest } = first;
        kids.push({ ...rest, states: [], actions: [], children: [],
          folded: { members: run, scope: node.ref ?? '?', around: true } });
        elements += count;
        run.forEach(note);
      } else kids.push(...run);
      run = [];
    };
    for (const c of node.children) {
      if (c === onPath) { close(); kids.push(rebuild(depth + 1)); continue; }
      if (holdsShown(c, whole)) { close(); kids.push(c); continue; }
      run.push(c);
    }
    close();
    return { ...node, children: kids };
  };
  const out = rebuild(0);
  return elements > 0 ? { root: out, elements, refs } : { root, elements: 0, refs };
}
