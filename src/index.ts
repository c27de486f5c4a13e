/**
 * The library API: `createComputer(options)` gives the same tools the MCP server, the pi extension and the
 * CLI expose, bound to one session on one desktop.
 */
import { Device } from './devices/manager.js';
import { ensureDesktop, findDesktop, stopSandbox, type SandboxInfo } from './sandbox/sandbox.js';
import { Session, type SettleOptions } from './session/session.js';
import type { PolicyGate } from './policy/gate.js';
import { TOOLS, toolByName } from './tools/index.js';
import type { ToolResult } from './tools/tool.js';
import { runTool } from './tools/tool.js';
import type { actTool } from './tools/act.js';
import type { appsTool } from './tools/apps.js';
import type { findTool } from './tools/find.js';
import type { keysTool } from './tools/keys.js';
import type { launchTool } from './tools/launch.js';
import type { observeTool } from './tools/observe.js';
import type { waitTool } from './tools/wait.js';

export type { ToolResult } from './tools/tool.js';
export type { PolicyGate, ActionRequest, Decision } from './policy/gate.js';
export { ComputerUseError, isComputerUseError, ERROR_CODES, type ErrorCode } from './protocol/errors.js';
export { TOOLS } from './tools/index.js';
export { Session } from './session/session.js';

/** Options of createComputer. */
export interface ComputerOptions {
  /**
   * Which desktop: 'auto' reuses the current desktop or a running sandbox and starts a sandbox when there is
   * none; 'sandbox' always starts a fresh one; 'current' uses the process environment as it is.
   */
  desktop?: 'auto' | 'sandbox' | 'current';
  /** Stop a sandbox this computer started when it is closed (default true). */
  stopSandboxOnClose?: boolean;
  /** Persist refs between processes in this file, or in the file this function names for the desktop (the CLI does). */
  statePath?: string | ((desktop: Computer['desktop']) => string);
  /** Snapshot token budget (default 2000). */
  maxTokens?: number;
  settle?: Partial<SettleOptions>;
  /** The policy; every acting tool calls it. Default allows everything. */
  gate?: PolicyGate;
  /** Per-call driver timeout in ms. */
  timeoutMs?: number;
}

/** Params of a tool, as its handler types them. */
type P<T extends { handle: (...a: never[]) => unknown }> = Parameters<T['handle']>[1];

/** Typed tool functions. */
export interface ComputerTools {
  apps(p?: P<typeof appsTool>): Promise<ToolResult>;
  launch(p: P<typeof launchTool>): Promise<ToolResult>;
  observe(p?: P<typeof observeTool>): Promise<ToolResult>;
  find(p: P<typeof findTool>): Promise<ToolResult>;
  act(p: P<typeof actTool>): Promise<ToolResult>;
  wait(p: P<typeof waitTool>): Promise<ToolResult>;
  keys(p: P<typeof keysTool>): Promise<ToolResult>;
}

/** A computer: tools plus the session and desktop behind them. */
export interface Computer {
  tools: ComputerTools;
  /** Calls a tool by its MCP name (computer_observe, …). */
  call(name: string, params: unknown, signal?: AbortSignal): Promise<ToolResult>;
  session: Session;
  desktop: { kind: 'real' | 'sandbox'; env: Record<string, string>; sandbox?: SandboxInfo; started: boolean };
  close(): Promise<void>;
}

/** Creates a computer on the chosen desktop. */
export async function createComputer(options: ComputerOptions = {}): Promise<Computer> {
  const mode = options.desktop ?? 'auto';
  let desktop: Computer['desktop'];
  if (mode === 'current') {
    desktop = { kind: 'real', env: {}, started: false };
  } else if (mode === 'sandbox') {
    const { startSandbox, sandboxEnv } = await import('./sandbox/sandbox.js');
    const info = await startSandbox();
    desktop = { kind: 'sandbox', env: sandboxEnv(info), sandbox: info, started: true };
  } else {
    const found = await ensureDesktop();
    desktop = { kind: found.info ? 'sandbox' : 'real', env: found.env, started: found.started, ...(found.info ? { sandbox: found.info } : {}) };
  }
  const statePath = typeof options.statePath === 'function' ? options.statePath(desktop) : options.statePath;
  const device = new Device({ platform: 'linux', env: desktop.env, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  const session = new Session({
    device, ...(statePath ? { statePath } : {}), ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    ...(options.settle ? { settle: options.settle } : {}), ...(options.gate ? { gate: options.gate } : {}),
  });
  const call = (name: string, params: unknown, signal?: AbortSignal): Promise<ToolResult> => {
    const tool = toolByName(name);
    if (!tool) return Promise.resolve({ text: `error unsupported: no tool named ${name}; tools: ${TOOLS.map((t) => t.schema.name).join(', ')}`, isError: true, code: 'unsupported' });
    return runTool(tool, { session, ...(signal ? { signal } : {}) }, params ?? {});
  };
  return {
    session, desktop, call,
    tools: {
      apps: (p = {}) => call('computer_apps', p),
      launch: (p) => call('computer_launch', p),
      observe: (p = {}) => call('computer_observe', p),
      find: (p) => call('computer_find', p),
      act: (p) => call('computer_act', p),
      wait: (p) => call('computer_wait', p),
      keys: (p) => call('computer_keys', p),
    },
    async close() {
      await session.close();
      if (desktop.started && desktop.sandbox && options.stopSandboxOnClose !== false) await stopSandbox(desktop.sandbox.display);
    },
  };
}

export { findDesktop };
