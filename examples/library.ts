/**
 * The library API in one file: `createComputer` gives typed tool functions over one session on one desktop.
 * This example writes a note in gedit and saves it, with a gate that logs every acting call before it runs.
 *
 *   npm run build && node dist/examples/library.js /tmp/note.txt
 *
 * It reuses the current desktop or a running sandbox, and starts a sandbox when there is none.
 */
import {
  createComputer,
  type ActionRequest,
  type Computer,
  type ComputerOptions,
  type PolicyGate,
  type ToolResult,
} from '../src/index.js';

/** A gate that allows everything and says what it allowed (a real policy asks, refuses and audits). */
const loggingGate: PolicyGate = {
  async check(req: ActionRequest) {
    const what =
      req.kind === 'launch'
        ? req.command
        : req.kind === 'keys'
          ? `${req.app ?? ''} ${req.keys}`
          : `${req.app ?? ''} ${req.op}${req.kind === 'element' ? ` ${req.ref}` : ''}`;
    console.error(`[gate] ${req.tool} ${what}`.trimEnd());
    return { done: (receipt: string) => console.error(`[gate] → ${receipt}`) };
  },
  // Hides nothing; the built-in policy hides denied apps (password managers) from every read.
  visible: () => undefined,
};

/** The ref on the first line matching `pattern` (refs are `[eN]` at the start of a snapshot line). */
function refOn(result: ToolResult, pattern: RegExp): string {
  const line = result.text.split('\n').find((l) => pattern.test(l));
  const ref = line ? /\[(e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no element matches ${pattern}:\n${result.text}`);
  return ref;
}

/** Fails on an error result, returns it otherwise. */
function ok(result: ToolResult): ToolResult {
  if (result.isError) throw new Error(`${result.code ?? 'error'}: ${result.text}`);
  return result;
}

async function writeNote(computer: Computer, path: string, text: string): Promise<void> {
  const launched = ok(await computer.tools.launch({ command: 'gedit', args: ['--new-window'], waitMs: 20000 }));
  const doc = refOn(launched, /\] document\b.*editable/);
  console.log(ok(await computer.tools.act({ actions: [{ ref: doc, op: 'type', value: text }] })).text);

  let dialog = ok(await computer.tools.keys({ keys: 'ctrl+s', app: 'gedit' }));
  if (!/"Save As"/.test(dialog.text))
    dialog = ok(await computer.tools.wait({ until: 'window_appears', text: 'Save As', timeoutMs: 10000 }));
  const saveAs: ToolResult = { ...dialog, text: dialog.text.slice(dialog.text.search(/"Save As"/)) };
  const name = refOn(saveAs, /\] textbox\b.*editable/);
  const save = refOn(saveAs, /\] button "Save"/);
  console.log(
    ok(
      await computer.tools.act({
        actions: [
          { ref: name, op: 'set_value', value: path },
          { ref: save, op: 'click' },
        ],
      }),
    ).text,
  );
  ok(await computer.tools.keys({ keys: 'ctrl+q', app: 'gedit' }));
}

const options: ComputerOptions = { desktop: 'auto', gate: loggingGate, maxTokens: 2000 };
const computer = await createComputer(options);
try {
  console.log(
    `desktop: ${computer.desktop.kind}` + `${computer.desktop.sandbox ? ` ${computer.desktop.sandbox.display}` : ''}`,
  );
  await writeNote(computer, process.argv[2] ?? '/tmp/computer-use-note.txt', 'Written through the accessibility tree.');
} finally {
  await computer.close();
}
