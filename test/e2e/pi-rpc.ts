/**
 * pi's own CLI in RPC mode (`pi --mode rpc`), driven over its JSONL stdin/stdout protocol: prompts in, agent
 * events and extension UI requests (ctx.ui.confirm, notify) out. The model is whatever provider the temporary
 * agent directory's models.json names.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One JSON line pi wrote. */
export type RpcEvent = { type: string; id?: string; [k: string]: unknown };

export interface PiRpcOptions {
  /** Where pi loads the extension from (`-e`): a file, or a package directory with a "pi" manifest. */
  extension: string;
  /** Base URL of the OpenAI-compatible endpoint the model lives behind. */
  baseUrl: string;
  /** Extra CLI arguments (extension flags). */
  args?: string[];
  /** Extra environment (COMPUTER_USE_HOME for a private policy home). */
  env?: Record<string, string>;
  /** Answers a dialog request (confirm, select, input); the default cancels it. */
  onDialog?: (request: RpcEvent) => Record<string, unknown>;
}

export class PiRpc {
  readonly events: RpcEvent[] = [];
  stderr = '';
  private waiters: { match: (e: RpcEvent) => boolean; resolve: (e: RpcEvent) => void }[] = [];
  private seq = 0;
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly agentDir: string,
    private readonly onDialog: PiRpcOptions['onDialog'],
  ) {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      // The protocol splits on LF only (U+2028 inside JSON strings is not a line break).
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i).replace(/\r$/, '');
        buffer = buffer.slice(i + 1);
        if (line.trim()) this.receive(line);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { this.stderr += chunk; });
  }

  /** Starts pi with a private agent directory whose models.json has the provider `stub`, model `scripted`. */
  static async start(options: PiRpcOptions): Promise<PiRpc> {
    const agentDir = await mkdtemp(join(tmpdir(), 'pi-agent-'));
    await writeFile(join(agentDir, 'models.json'), JSON.stringify({
      providers: {
        stub: {
          baseUrl: options.baseUrl, api: 'openai-completions', apiKey: 'stub-key',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'scripted', name: 'Scripted', reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 4096,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
        },
      },
    }, null, 2));
    const cli = join(dirname(fileURLToPath(import.meta.resolve('@mariozechner/pi-coding-agent'))), 'cli.js');
    const args = [
      cli,
      '--mode',
      'rpc',
      '--offline',
      '--no-session',
      '--no-extensions',
      '--no-skills',
      '--no-prompt-templates',
      '--no-themes',
      '--no-context-files',
      '--no-builtin-tools',
      '-e',
      options.extension,
      '--provider',
      'stub',
      '--model',
      'scripted',
      ...(options.args ?? []),
    ];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env['PI_CODING_AGENT_DIR'] = agentDir;
    env['PI_OFFLINE'] = '1';
    Object.assign(env, options.env);
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    return new PiRpc(child, agentDir, options.onDialog);
  }

  private receive(line: string): void {
    let event: RpcEvent;
    try { event = JSON.parse(line) as RpcEvent; } catch { this.stderr += `[non-JSON stdout] ${line}\n`; return; }
    this.events.push(event);
    if (
      event.type === 'extension_ui_request' &&
      ['confirm', 'select', 'input', 'editor'].includes(String(event['method']))
    ) {
      const answer = this.onDialog ? this.onDialog(event) : { cancelled: true };
      this.write({ type: 'extension_ui_response', id: event.id, ...answer });
    }
    for (const w of [...this.waiters])
      if (w.match(event)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(event);
      }
  }

  private write(o: unknown): void { this.child.stdin.write(`${JSON.stringify(o)}\n`); }

  /** The next event (or one already received after `from`) that matches; rejects after `timeoutMs`. */
  waitFor(match: (e: RpcEvent) => boolean, timeoutMs: number, from = 0): Promise<RpcEvent> {
    const already = this.events.slice(from).find(match);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `pi: no matching event in ${timeoutMs} ms; stderr:\n${this.stderr}\nlast events:\n` +
                `${this.events
                  .slice(-5)
                  .map((e) => JSON.stringify(e).slice(0, 400))
                  .join('\n')}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (e) => { clearTimeout(timer); resolve(e); } });
    });
  }

  /** Sends a command and resolves with its response. */
  async command(cmd: Record<string, unknown>, timeoutMs = 30_000): Promise<RpcEvent> {
    const id = `t${++this.seq}`;
    const from = this.events.length;
    this.write({ ...cmd, id });
    return this.waitFor((e) => e.type === 'response' && e.id === id, timeoutMs, from);
  }

  /** Sends a prompt and resolves when the agent has finished with it. */
  async prompt(message: string, timeoutMs: number): Promise<RpcEvent> {
    const from = this.events.length;
    const accepted = await this.command({ type: 'prompt', message });
    if (accepted['success'] !== true) throw new Error(`pi refused the prompt: ${JSON.stringify(accepted)}`);
    return this.waitFor((e) => e.type === 'agent_end', timeoutMs, from);
  }

  /** Tool executions that ended since `from`: name, error flag and result text. */
  toolResults(from = 0): { tool: string; isError: boolean; text: string }[] {
    return this.events.slice(from).filter((e) => e.type === 'tool_execution_end').map((e) => {
      const result = e['result'] as { content?: { type: string; text?: string }[] } | undefined;
      return {
        tool: String(e['toolName']),
        isError: e['isError'] === true,
        text: (result?.content ?? []).map((c) => c.text ?? '').join('\n'),
      };
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.stdin.end();
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.agentDir, { recursive: true, force: true });
  }
}
