/**
 * The relay directory: how the relay server (relay.ts) and the answering CLI (relay-cli.ts) talk, on disk only, so
 * that every CLI call may come from another shell. Layout:
 * - `requests/000007.json`: a chat-completions request the server holds open ({id, receivedAt, body}).
 * - `replies/000007.json`: the answer to it, written once by the CLI (a second answer is refused).
 * - `closed/000007`: the server stopped waiting (the client went away, or no answer came in time); its reason.
 * - `cli-state.json`: what the CLI printed last (which request, from which message), for `next`.
 * Every file appears whole (written aside, then renamed or linked), so a reader never sees half a file.
 */
import { link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { ChatRequest } from './chat.js';

/** A request as the server stored it. */
export interface StoredRequest { id: number; receivedAt: string; body: ChatRequest }

/** The answer the CLI gives: one tool call, or a final text. */
export type RelayReply = { kind: 'call'; name: string; arguments: string } | { kind: 'final'; content: string };

/** Where relay and CLI meet when neither is told (`--dir`, or the env var CU_RELAY_DIR). */
export function defaultRelayDir(): string {
  return process.env['CU_RELAY_DIR'] || join(tmpdir(), `cu-relay-${userInfo().username}`);
}

const name = (id: number): string => String(id).padStart(6, '0');
let seq = 0;

/** The relay directory's paths. */
export class RelayStore {
  constructor(readonly dir: string) {}

  requestPath(id: number): string { return join(this.dir, 'requests', `${name(id)}.json`); }
  replyPath(id: number): string { return join(this.dir, 'replies', `${name(id)}.json`); }
  closedPath(id: number): string { return join(this.dir, 'closed', name(id)); }
  get statePath(): string { return join(this.dir, 'cli-state.json'); }

  /** Creates the folders, readable by this user only (the requests hold what the tools read on the desktop). */
  async init(): Promise<void> {
    for (const sub of ['requests', 'replies', 'closed'])
      await mkdir(join(this.dir, sub), { recursive: true, mode: 0o700 });
  }

  /** Forgets what the CLI printed, so the next `next` prints a conversation from its start. */
  async forget(): Promise<void> {
    await rm(this.statePath, { force: true });
  }

  /** Writes a file whole; with `exclusive`, false (nothing written) when it already exists. */
  async put(path: string, text: string, exclusive = false): Promise<boolean> {
    const tmp = `${path}.${process.pid}.${++seq}.tmp`;
    await writeFile(tmp, text, { mode: 0o600 });
    if (!exclusive) { await rename(tmp, path); return true; }
    try {
      await link(tmp, path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    } finally { await unlink(tmp).catch(() => undefined); }
  }

  /** A JSON file, or undefined when it is not there (yet). */
  async get<T>(path: string): Promise<T | undefined> {
    try { return JSON.parse(await readFile(path, 'utf8')) as T; } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /** Why the server stopped waiting for that request, or undefined while it waits (or after it was answered). */
  async closed(id: number): Promise<string | undefined> {
    try { return await readFile(this.closedPath(id), 'utf8'); } catch { return undefined; }
  }

  /** The ids of every stored request, oldest first. */
  async requestIds(): Promise<number[]> {
    const files = await readdir(join(this.dir, 'requests')).catch(() => [] as string[]);
    return files
      .map((f) => /^(\d+)\.json$/.exec(f)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  /** Stores a new request under the next free id (another server on the same folder cannot take the same id). */
  async addRequest(body: ChatRequest): Promise<StoredRequest> {
    let id = ((await this.requestIds()).at(-1) ?? 0) + 1;
    for (;;) {
      const req: StoredRequest = { id, receivedAt: new Date().toISOString(), body };
      if (await this.put(this.requestPath(id), JSON.stringify(req), true)) return req;
      id++;
    }
  }

  /** The oldest request nobody answered and the server still waits for. */
  async pending(): Promise<StoredRequest | undefined> {
    for (const id of await this.requestIds()) {
      if (await this.get(this.replyPath(id)) !== undefined) continue;
      if (await this.closed(id) !== undefined) continue;
      const req = await this.get<StoredRequest>(this.requestPath(id));
      if (req) return req;
    }
    return undefined;
  }
}
