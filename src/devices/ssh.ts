/**
 * The SSH transport: a device reached with the user's own OpenSSH client, config, keys and
 * known_hosts, running `computer-use driver linux` on the remote end over the ssh session's stdio.
 *
 * The argv is built from parsed, validated parts only, never from a shell string on this side. The remote
 * command is necessarily one string (ssh hands it to the remote login shell), so each of its words is checked
 * against a plain character set and single-quoted. BatchMode=yes: ssh never prompts (no password through the
 * tool); a host key that changed or is not in known_hosts fails with its own error code.
 */
import { isAbsolute } from 'node:path';
import { ComputerUseError } from '../protocol/errors.js';
import type { DriverCommand } from './stdio.js';

/** A parsed `ssh://user@host[:port]` device address. */
export interface SshTarget {
  user?: string;
  host: string;
  port?: number;
  /** Words of the remote command (default `computer-use driver linux`). */
  command: string[];
}

/** The remote command when the device address names none. */
export const DEFAULT_REMOTE_COMMAND = ['computer-use', 'driver', 'linux'] as const;

const USER = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
// A DNS name or an IPv4 address; never starting with '-' (it would read as an ssh option).
const HOST = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;
/** A word of the remote command: no shell metacharacters, no spaces (it is quoted anyway). */
const WORD = /^[A-Za-z0-9_./:=@%+,-]{1,512}$/;

/** Parses and validates an ssh device address; throws invalid_params saying what is wrong. */
export function parseSshUrl(url: string): SshTarget {
  const bad = (why: string): ComputerUseError =>
    new ComputerUseError(
      'invalid_params',
      `Not a usable ssh device address (${why}). Write ssh://user@host[:port], e.g. ssh://me@lab.local:2222.`,
    );
  let u: URL;
  try { u = new URL(url); } catch { throw bad('not a URL'); }
  if (u.protocol !== 'ssh:') throw bad(`scheme ${u.protocol} is not ssh:`);
  if (u.password) throw bad('a password in the address; use keys: the tool never sends passwords');
  if (u.pathname && u.pathname !== '/' && u.pathname !== '') throw bad('a path');
  if (u.hash) throw bad('a #fragment');
  const user = decodeURIComponent(u.username);
  if (user && !USER.test(user)) throw bad('the user name has characters ssh would not take');
  let host = u.hostname;
  if (host.startsWith('[') && host.endsWith(']')) {
    host = host.slice(1, -1);
    if (!IPV6.test(host)) throw bad('the IPv6 address is malformed');
  } else if (!HOST.test(host)) throw bad('the host name is malformed');
  const out: SshTarget = { host, command: [...DEFAULT_REMOTE_COMMAND] };
  if (user) out.user = user;
  if (u.port) {
    const port = Number(u.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad('the port is not 1–65535');
    out.port = port;
  }
  for (const [k, v] of u.searchParams) {
    if (k !== 'command') throw bad(`unknown option ${k}; only ?command= is known`);
    out.command = parseRemoteCommand(v);
  }
  return out;
}

/** Splits a remote command given by the user into words, each checked against a plain character set. */
export function parseRemoteCommand(text: string): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 32)
    throw new ComputerUseError('invalid_params', 'The remote command is empty or has more than 32 words.');
  for (const w of words) {
    if (!WORD.test(w))
      throw new ComputerUseError(
        'invalid_params',
        `The remote command word ${JSON.stringify(w.slice(0, 40))} has characters other than letters, digits ` +
          `and _ . / : = @ % + , -.`,
      );
  }
  return words;
}

/** The address of a target, normalized (what `device list` prints). */
export function formatSshUrl(t: SshTarget): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return `ssh://${t.user ? `${t.user}@` : ''}${host}${t.port ? `:${t.port}` : ''}`;
}

/** Options of an ssh device beyond its address. */
export interface SshOptions {
  /** An ssh_config file instead of the user's (`ssh -F`); absolute. Tests and unusual setups only. */
  configFile?: string;
  /** Seconds before a connection attempt gives up (default 10). */
  connectTimeoutS?: number;
}

/** Single-quotes a checked word for the remote POSIX shell. */
const quote = (w: string): string => `'${w.replace(/'/g, `'\\''`)}'`;

/**
 * The ssh argv for a target: options first, `--` so nothing after it reads as an option, then the host and
 * the remote command (one quoted string: ssh joins its words with spaces and the remote shell splits them).
 */
export function sshArgs(t: SshTarget, opts: SshOptions = {}): string[] {
  const args: string[] = [];
  if (opts.configFile) {
    if (!isAbsolute(opts.configFile))
      throw new ComputerUseError('invalid_params', 'The ssh config file must be an absolute path.');
    args.push('-F', opts.configFile);
  }
  const timeout = Math.max(1, Math.min(120, Math.round(opts.connectTimeoutS ?? 10)));
  args.push('-T', '-x', '-a',
    '-o', 'BatchMode=yes', // never a password or passphrase prompt
    '-o', `ConnectTimeout=${timeout}`,
    '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=3', // a dead link is seen in ~15 s even when idle
    '-o', 'LogLevel=ERROR');
  if (t.port) args.push('-p', String(t.port));
  if (t.user) args.push('-l', t.user);
  for (const w of t.command)
    if (!WORD.test(w))
      throw new ComputerUseError('invalid_params', 'A remote command word has characters that are not allowed.');
  args.push('--', t.host, t.command.map(quote).join(' '));
  return args;
}

/** The driver command of an ssh device: the user's own `ssh`. */
export function sshDriver(t: SshTarget, opts: SshOptions = {}): DriverCommand {
  return { command: 'ssh', args: sshArgs(t, opts) };
}

/**
 * Turns what ssh wrote to stderr when a link could not start into a clear error, or undefined when it is not
 * an ssh failure it knows.
 */
export function classifySshFailure(stderr: string, target: string): ComputerUseError | undefined {
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i.test(stderr)) {
    return new ComputerUseError(
      'host_key_mismatch',
      `The SSH host key of ${target} differs from the one in your known_hosts: the host was re-installed, or ` +
        `someone is in between. ` +
        "Nothing was sent. Check the key with the machine's owner, then fix known_hosts (ssh-keygen -R <host>) yourself.",
    );
  }
  if (/Host key verification failed|No .*host key is known for/i.test(stderr)) {
    return new ComputerUseError(
      'host_key_mismatch',
      `The SSH host key of ${target} is not in your known_hosts (or does not match it), and the tool never ` +
        `accepts keys on its own. ` +
        'Nothing was sent. Connect once with `ssh` by hand and check the fingerprint, then add the device again.',
    );
  }
  if (/Permission denied \(|Too many authentication failures/i.test(stderr)) {
    return new ComputerUseError(
      'auth_failed',
      `SSH refused the login to ${target}: no key it accepts (password prompts are never used). ` +
        'Load your key into ssh-agent or name it in ~/.ssh/config (IdentityFile), and check authorized_keys on the device.',
    );
  }
  if (
    /Could not resolve hostname|Connection refused|Connection timed out|No route to host|Network is unreachable|Connection closed by|kex_exchange_identification/i.test(
      stderr,
    )
  ) {
    return new ComputerUseError(
      'driver_unavailable',
      `Cannot reach ${target} over SSH: ${firstLine(stderr)}. Check the host, port and network; it is ` +
        `retried with backoff.`,
    );
  }
  if (/command not found|No such file or directory|not found/i.test(stderr)) {
    return new ComputerUseError(
      'driver_unavailable',
      `The device ${target} answered but could not run the driver: ${firstLine(stderr)}. ` +
        'Install Node and computer-use there (npm i -g computer-use), or give the command with ?command=; `computer-use doctor --device <name>` checks it.',
    );
  }
  return undefined;
}

const firstLine = (s: string): string =>
  (
    s
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('[stdout]')) ?? 'no message'
  ).slice(0, 300);
