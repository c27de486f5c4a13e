/**
 * Records every tool call a solver makes: its text, the o200k tokens the model reads, its milliseconds, and what a
 * screenshot agent would have read at the same step (one screenshot of the app's windows at their real sizes).
 */
import type { Computer, ToolResult } from '../../src/index.js';
import { screenshotTokens, textTokens } from '../../src/demo/tokens.js';
import type { ChatMessage } from './chat.js';

/** The sandbox desktop's screen (sandbox.ts starts Xvfb at 1280×1024). */
const SANDBOX_SCREEN: [number, number] = [1280, 1024];

/** One recorded tool call. */
export interface EvalStep {
  tool: string;
  params: unknown;
  isError: boolean;
  /** o200k tokens of the result text (what the model reads). */
  tokens: number;
  /** One screenshot of the app's windows around this step (the larger of before and after). */
  screenshotTokens: number;
  ms: number;
  /** The result text (kept in JSON only with --keep-text). */
  text: string;
}

/** A model solver's side of a task: the messages it sent and got, and what its endpoint counted. */
export interface Conversation {
  messages: ChatMessage[];
  /** Chat-completions requests made. */
  requests: number;
  /** Token counts as the endpoint reported them (0 when it reports none). */
  promptTokens: number;
  completionTokens: number;
}

/** Calls tools for a solver and keeps the record. */
export class Recorder {
  readonly steps: EvalStep[] = [];
  /** Time spent on accounting (screenshot sizes), subtracted from the task's wall time. */
  accountingMs = 0;
  /** Filled by a model solver (model.ts); the runner writes it as the task's transcript. */
  readonly conversation: Conversation = { messages: [], requests: 0, promptTokens: 0, completionTokens: 0 };
  private readonly ended = new AbortController();
  /** Aborted when the task is over: a solver still waiting for its model stops. */
  readonly signal = this.ended.signal;

  constructor(
    private readonly computer: Computer,
    private readonly appNames: readonly string[],
    private readonly maxSteps = 40,
  ) {}

  /** Screenshot tokens of every window of the task's apps now. */
  private async shot(): Promise<number> {
    const t = performance.now();
    const apps = await this.computer.session.apps().catch(() => []);
    const sum = apps
      .filter((a) => this.appNames.includes(a.name))
      .flatMap((a) => a.windows)
      // A window whose toolkit gives no bounds (Java reports -1) is counted as the whole sandbox screen.
      .reduce(
        (s, w) =>
          s +
          (w.bounds && w.bounds[2] > 0 && w.bounds[3] > 0
            ? screenshotTokens(w.bounds[2], w.bounds[3])
            : screenshotTokens(...SANDBOX_SCREEN)),
        0,
      );
    this.accountingMs += performance.now() - t;
    return sum;
  }

  /** Calls a tool by its MCP name; throws when the step budget is spent (a solver that loops fails). */
  async call(tool: string, params: Record<string, unknown>): Promise<ToolResult> {
    // A solver that outlived its task's deadline must not act on the desktop the next task set up.
    if (this.signal.aborted) throw new Error(`the task is over (${String(this.signal.reason)}): no more tool calls`);
    if (this.steps.length >= this.maxSteps) throw new Error(`step budget of ${this.maxSteps} tool calls spent`);
    const before = await this.shot();
    const t = performance.now();
    const r = await this.computer.call(tool, params);
    const ms = Math.round(performance.now() - t);
    this.steps.push({
      tool,
      params,
      isError: r.isError,
      tokens: textTokens(r.text),
      screenshotTokens: Math.max(before, await this.shot()),
      ms,
      text: r.text,
    });
    return r;
  }

  /** Ends the task for the solver: no tool call goes through after this, and a pending model request is aborted. */
  end(reason: string): void {
    this.ended.abort(reason);
  }
}
