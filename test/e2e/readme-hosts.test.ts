/**
 * The README's MCP host snippets work as written. The command lines are read out of README.md,
 * so this breaks when the README changes: the install line (`npm install -g .`, run with `--prefix` in a temporary
 * directory so nothing global is touched), then each host's server command (Claude Code's `claude mcp add … --`,
 * Codex's TOML, the common JSON form, the absolute `node …/main.js mcp`), started in a fresh HOME by the MCP SDK's
 * stdio client, which lists the tools. Listing needs no desktop, so this is quick.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
};

/** The README's `## MCP server` section and its fenced code blocks. */
const section = (() => {
  const start = readme.indexOf('\n## MCP server\n');
  assert.ok(start >= 0, 'README has a "## MCP server" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
})();
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const lines = (lang: string): string[] => blocks.filter((b) => b.lang === lang).flatMap((b) => b.body.split('\n'))
  .map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);

/** The server command lines the README gives, by host. */
function serverCommands(): { host: string; command: string; args: string[] }[] {
  const out: { host: string; command: string; args: string[] }[] = [];
  for (const l of lines('bash')) {
    const m = /^claude mcp add \S+ -- (.+)$/.exec(l);
    if (m) {
      const [command, ...args] = m[1]!.split(/\s+/);
      out.push({ host: 'Claude Code', command: command!, args });
    }
  }
  for (const b of blocks.filter((x) => x.lang === 'toml')) {
    const command = /^command\s*=\s*(".*")$/m.exec(b.body);
    const args = /^args\s*=\s*(\[.*\])$/m.exec(b.body);
    assert.ok(command && args, `a TOML snippet with command and args:\n${b.body}`);
    out.push({ host: 'Codex CLI', command: JSON.parse(command[1]!) as string, args: JSON.parse(args[1]!) as string[] });
  }
  for (const b of blocks.filter((x) => x.lang === 'json')) {
    const servers = (JSON.parse(b.body) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers;
    for (const [name, s] of Object.entries(servers))
      out.push({ host: `JSON (${name})`, command: s.command, args: s.args });
  }
  // The clone's absolute path, written `/path/to/computer-use` in the README.
  for (const m of section.matchAll(/`(node \/path\/to\/computer-use\/\S+ mcp)`/g)) {
    const [command, ...args] = m[1]!.replace('/path/to/computer-use/', root).split(/\s+/);
    out.push({ host: 'node path', command: command === 'node' ? process.execPath : command!, args });
  }
  return out;
}

let tmp = '';
let home = '';
let prefix = '';

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cu-readme-'));
  home = join(tmp, 'home');
  prefix = join(tmp, 'prefix');
  mkdirSync(home);
  const install = lines('bash').filter((l) => /^npm (install -g|link)\b/.test(l));
  assert.deepEqual(install, ['npm install -g .'], 'the README installs the command with `npm install -g .`');
  const [npm, ...args] = install[0]!.split(/\s+/);
  // As written, plus --prefix so the test installs into its own directory (npm links a folder: no download).
  await promisify(execFile)(npm!, [...args, '--prefix', prefix, '--no-audit', '--no-fund'], {
    cwd: root,
    timeout: 120_000,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      npm_config_cache: join(home, '.npm'),
      npm_config_update_notifier: 'false',
    },
  });
});
after(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }); });

test('package.json, bin and README agree on the names', () => {
  assert.deepEqual(Object.keys(pkg.bin), ['computer-use'], 'the command stays computer-use');
  assert.notEqual(pkg.name, 'computer-use', 'the package name is not the unpublished, ambiguous "computer-use"');
  assert.match(readme, new RegExp(`from '${pkg.name}'`), 'the library snippet imports the package by its name');
  for (const [, body] of readme.matchAll(/```\w*\n([\s\S]*?)```/g)) {
    assert.doesNotMatch(body!, /npx (-y )?computer-use\b|npm:computer-use\b/, 'no snippet runs an unpublished package');
  }
});

test('each README host snippet starts the MCP server in a fresh HOME and lists the tools', async () => {
  const commands = serverCommands();
  assert.deepEqual(commands.map((c) => c.host), ['Claude Code', 'Codex CLI', 'JSON (computer-use)', 'node path']);
  for (const c of commands) {
    const transport = new StdioClientTransport({
      command: c.command, args: c.args, stderr: 'pipe',
      // A fresh HOME, the installed command first on PATH, nothing else of this process's environment.
      env: { HOME: home, PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}` },
    });
    const client = new Client({ name: 'readme-e2e', version: '0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      assert.ok(
        names.includes('computer_observe') && names.includes('computer_act'),
        `${c.host} (${c.command} ${c.args.join(' ')}): ${names.join(', ')}`,
      );
    } finally {
      await client.close();
    }
  }
});
