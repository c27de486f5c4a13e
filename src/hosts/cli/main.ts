#!/usr/bin/env node
/** The `computer-use` command line: dispatches a subcommand to its module. */
import { runSandboxCommand } from './sandbox-command.js';
import { asksHelp, commandFirst } from './args.js';
import { OPS_LINE, TOOL_COMMANDS, runToolCommand } from './tool-commands.js';
import { optionHelp } from '../options.js';

/**
 * The usage, in two parts: what an agent needs to act (printed by `--help`), and setting up, hosting and checking
 * (printed by `help all`). An agent starts from `--help`: every line it skips costs it tokens.
 */
const USAGE = {
  agent: `usage: computer-use <command> [args...]   (each command's --help tells more)
  apps                               list apps and windows (w1, w2, …)
  launch <command> [args...]         start an app and print its snapshot
  observe [app] [--window wN] [--scope eN [--from K]] [--query text] [--max-tokens N] [--full]
  find <text> [--role R] [--app A] [--from N]   find elements without a full snapshot
  act <ref> <op> [value] [, <ref> <op> [value] ...]   e.g. act e5 set_value "hello" , e9 click
      ${OPS_LINE}
  keys <chords...> [--app A | --window wN]   e.g. keys ctrl+s
  wait <appears|disappears|value_changes|window_appears> [--text T] [--ref eN] [--timeout ms]
  screenshot [app] [--window wN]     OCR text elements [oN] of a window (degraded fallback; image stays local)
  clipboard read | write <text> | paste [text] [--app A]   the clipboard (paste: into the app's focused element)
      every command above takes --device NAME and --driver 'COMMAND' (a driver of your own, kept for the
      session); a permission flag that lowers a question holds only after you confirm it on the terminal, and is
      kept for the next ones on the same desktop when you answer "this session" (session clear forgets them)
  setting up, hosting and checking (mcp, panel, doctor, devices, drivers, sandbox, audit, stop): computer-use help all`,
  setup: `  session clear                      forget the permission flags kept by earlier commands
  sandbox   headless desktops (up | down | status | env | exec); see \`computer-use sandbox help\`
  stop | resume                      pause every session of this home (aborts the action in flight) / continue (asks \
you on the terminal)
  audit [--json] [--tail N]          the audit log: every decision and its receipt
  settings confirm [--path P]        confirm settings edited outside computer-use (asks on the terminal)
  mcp [options]                      MCP server on stdio; each option also reads its environment variable:
${optionHelp('mcp')}
      (--image-input: computer_screenshot mode "image" also needs "allowScreenshots": true in settings;
       --panel: the panel's URL goes to stderr; --confirm-in panel: ask there even when the client advertises \
elicitation)
  panel [--port N] [--desktop ...]   the local panel: apps, audit, self-check, stop (prints its URL)
  policy options of tool commands (also environment variables; settings in $COMPUTER_USE_HOME/settings.json):
${optionHelp('cli')}
  decider test --base-url URL --model M [--api-key-env NAME]   check a decider-model endpoint
  doctor [--app NAME] [--json] [--fix] check prerequisites; why is an app's tree empty
  doctor --device NAME               check a remote device: ssh without prompts, node, the driver
  doctor --conformance --driver "<command>" [--scenarios F] [--record F]   run the driver conformance kit on any driver
  device add ssh://user@host[:port] [--name N] [--command "..."]   another machine, driven over your own ssh
  device add NAME --command 'COMMAND'   a driver of your own on this machine (split like shell words, no shell)
  device list [--check] | device remove NAME | device revoke NAME   (revoke: also closes a paired device's link)
  pairing start [--listen ws://127.0.0.1:7787] [--name N] [--tls-cert F --tls-key F]   show a one-time code for a device
  pair <server-url> --code 123-456 [--desktop sandbox]   on the device: dial the server, then serve this machine's \
driver
  pair --revoke | unpair             on the device: forget its pairing (the server is told when reachable)
  driver linux [--desktop sandbox]   run the Linux driver on stdio (JSON-RPC); on this home's sandbox desktop
  driver cdp --endpoint URL          run the Chromium DevTools driver on stdio (channel: cdp)
  driver windows [--replay FILE]     run the Windows UI Automation driver on stdio (compiles its C# helper on first use)
  driver fake [--fixture F]          the in-memory test driver on stdio, serving a recorded tree (conformance harness)
  driver replay FILE                 serve a recorded transcript (doctor --conformance --record) on stdio`,
};

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = commandFirst(args);
  // `<command> --help` prints a usage and does nothing else: `stop --help` must not pause every session, nor
  // `apps --help` start a desktop (the CLI trial). Tool commands, sandbox and doctor print their own.
  if (command !== undefined && asksHelp(rest) && !['sandbox', 'doctor'].includes(command) && KNOWN.has(command)) {
    // Each tool command knows its own help (launch passes an app's --help on).
    if (TOOL_COMMANDS.includes(command)) return runToolCommand(command, rest);
    process.stdout.write(`${USAGE.agent}\n${USAGE.setup}\n`);
    return 0;
  }
  switch (command) {
    case 'sandbox': return runSandboxCommand(rest);
    case 'decider': return (await import('./decider-command.js')).runDeciderCommand(rest);
    case 'stop': return (await import('./policy-commands.js')).runStop();
    case 'resume': return (await import('./policy-commands.js')).runResume();
    case 'audit': return (await import('./policy-commands.js')).runAudit(rest);
    case 'session': {
      if (rest[0] !== 'clear') {
        process.stdout.write(
          'usage: computer-use session clear   forget the permission flags kept by earlier tool commands\n',
        );
        return rest.length && !asksHelp(rest) ? 2 : 0;
      }
      const n = (await import('./kept-flags.js')).clearKeptFlags();
      process.stdout.write(`forgot the kept permission flags of ${n} desktop${n === 1 ? '' : 's'}\n`);
      return 0;
    }
    case 'settings': return (await import('./policy-commands.js')).runSettings(rest);
    case 'mcp': {
      const { mcpOptionsFrom } = await import('../options.js');
      const { runMcpServer } = await import('../mcp.js');
      await runMcpServer(mcpOptionsFrom(rest));
      return new Promise<number>(() => undefined); // serves until the client disconnects
    }
    case 'panel': return (await import('./panel-command.js')).runPanelCommand(rest);
    case 'device': return (await import('./device-command.js')).runDeviceCommand(rest);
    case 'pairing': return (await import('./pairing-command.js')).runPairingCommand(rest);
    case 'pair': return (await import('./pairing-command.js')).runPairCommand(rest);
    case 'unpair': return (await import('./pairing-command.js')).runPairCommand(['--revoke', ...rest]);
    case 'doctor': return (await import('./doctor-command.js')).runDoctorCommand(rest);
    case 'driver': {
      const { isDriverName, listSandboxes, runDriver, sandboxEnv } = await import('../../drivers/host.js');
      if (rest[0] === 'linux') {
        // `--desktop sandbox`: drive this home's running sandbox desktop (a remote device reached over ssh, whose
        // login session has no DISPLAY of its own).
        if (rest[1] === '--desktop' && rest[2] === 'sandbox') {
          const alive = (await listSandboxes()).filter((s) => s.alive);
          const box = alive.find((s) => s.display === process.env['COMPUTER_USE_SANDBOX']) ?? alive[0];
          if (!box) {
            process.stderr.write(
              'computer-use driver: no running sandbox desktop in this home (computer-use sandbox up)\n',
            );
            return 1;
          }
          Object.assign(process.env, sandboxEnv(box));
        } else if (rest.length > 1) {
          process.stderr.write('usage: computer-use driver linux [--desktop sandbox]\n');
          return 2;
        }
        await runDriver('linux', []);
      } else if (isDriverName(rest[0])) await runDriver(rest[0], rest.slice(1));
      else {
        process.stderr.write(
          'usage: computer-use driver linux | driver cdp --endpoint http://127.0.0.1:9222 | driver android ' +
            '[--serial S] | driver macos | driver windows [--replay FILE] | driver fake [--fixture F] | driver ' +
            'replay FILE\n',
        );
        return 2;
      }
      return new Promise<number>(() => undefined); // the driver runs until its stdin closes
    }
    case undefined: case 'help': case '--help': case '-h':
      process.stdout.write(`${USAGE.agent}\n${rest[0] === 'all' ? `${USAGE.setup}\n` : ''}`);
      return command === undefined ? 2 : 0;
    default:
      if (command && TOOL_COMMANDS.includes(command)) return runToolCommand(command, rest);
      process.stderr.write(`unknown command: ${command}\n${USAGE.agent}\n`);
      return 2;
  }
}

/** Every command the switch above dispatches: `<unknown> --help` is an unknown command, not the usage with exit 0. */
const KNOWN = new Set([
  ...TOOL_COMMANDS,
  'sandbox',
  'decider',
  'stop',
  'resume',
  'audit',
  'session',
  'settings',
  'mcp',
  'panel',
  'device',
  'pairing',
  'pair',
  'unpair',
  'doctor',
  'driver',
  'help',
]);

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stderr.write(`computer-use: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
