/**
 * The second baseline: computer-use-mcp (npm), a screenshot-and-mouse MCP server users pick today. Without a
 * vision model here it cannot solve a task, so what is measured is what a model driving it would read: one
 * real screenshot of this desktop per step (its own capture and scaling, through its own MCP tool), taken
 * after our solver finished each task, times our step count (its click/type actions return only `{ok:true}`,
 * so an agent must look after each step). Where it cannot run, the reason is reported instead.
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { screenshotTokens, textTokens } from '../../src/demo/tokens.js';

/** The peer's name as the table prints it. */
export const PEER_NAME = 'computer-use-mcp';

/** One look through the peer: tokens of its screenshot result, and its image size. */
export interface PeerLook { tokens: number; width: number; height: number; ms: number }

/** A running peer server. */
export interface Peer {
  look(): Promise<PeerLook>;
  /** o200k tokens of its tool list (the fixed cost per conversation, as ours). */
  toolListTokens: number;
  close(): Promise<void>;
}

/** Starts the peer over stdio on the desktop `env` names; rejects with the reason it cannot run here. */
export async function startPeer(env: Record<string, string>): Promise<Peer> {
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve('computer-use-mcp/dist/main.js');
  } catch {
    throw new Error('computer-use-mcp is not installed (npm devDependency)');
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main],
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
      ...env,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'computer-use-eval', version: '1' });
  await client.connect(transport);
  const tools = await client.listTools();
  return {
    toolListTokens: textTokens(JSON.stringify(tools.tools)),
    async look(): Promise<PeerLook> {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'computer', arguments: { action: 'get_screenshot' } }, undefined, {
        timeout: 30_000,
      });
      const content = (r.content ?? []) as { type: string; text?: string }[];
      if (r.isError)
        throw new Error(
          `its screenshot failed: ${content
            .map((c) => c.text ?? '')
            .join(' ')
            .slice(0, 200)}`,
        );
      const text = content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
      const size = JSON.parse(text || '{}') as { image_width?: number; image_height?: number };
      const width = size.image_width ?? 0;
      const height = size.image_height ?? 0;
      if (!content.some((c) => c.type === 'image') || !width || !height)
        throw new Error('its screenshot returned no image');
      return {
        tokens: screenshotTokens(width, height) + textTokens(text),
        width,
        height,
        ms: Math.round(performance.now() - t0),
      };
    },
    close: () => client.close(),
  };
}
