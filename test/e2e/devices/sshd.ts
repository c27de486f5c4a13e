/**
 * A real OpenSSH server on a loopback port for the device tests (Debian's openssh-server), with its host key,
 * a user key, authorized_keys, an sshd_config and the client's ssh_config and known_hosts all generated in a
 * temp dir. Test-only settings: StrictModes off (temp dirs in CI), root may log in with a key (CI runs as
 * root), no PAM, no passwords.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface TestSshd {
  dir: string;
  port: number;
  user: string;
  /** The client config naming the key and known_hosts (`ssh -F`). */
  sshConfig: string;
  /** known_hosts holding the server's real key. */
  knownHosts: string;
  url: string;
  proc: ChildProcess;
  /** Pids of the processes sshd started (the remote sessions), newest last. */
  sessionPids(): number[];
  stop(): Promise<void>;
}

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const a = s.address();
    s.close(() => {
      if (a && typeof a === 'object') resolve(a.port);
      else reject(new Error('no port'));
    });
  });
});

const keygen = (path: string): void => {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'cu-test', '-f', path]);
};

/** Every descendant pid of `root` (from /proc). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(e), ppid);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const walk = (p: number): void => { for (const [c, pp] of parent) if (pp === p) { out.push(c); walk(c); } };
  walk(root);
  return out.sort((a, b) => a - b);
}

/** The command line of a pid ('' when gone). */
export const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

export async function startSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-sshd-'));
  const port = await freePort();
  const user = userInfo().username;
  keygen(join(dir, 'host_ed25519'));
  keygen(join(dir, 'id_ed25519'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'id_ed25519.pub')), { mode: 0o600 });
  // sshd refuses to start without its privilege-separation directory.
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_ed25519')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      `AllowUsers ${user}`,
      user === 'root' ? 'PermitRootLogin prohibit-password' : 'PermitRootLogin no',
      'X11Forwarding no',
      'AllowTcpForwarding no',
      'PrintMotd no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const hostPub = readFileSync(join(dir, 'host_ed25519.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostPub}\n`);
  const sshConfig = join(dir, 'ssh_config');
  writeFileSync(sshConfig, [
    'Host *', `  IdentityFile ${join(dir, 'id_ed25519')}`, '  IdentitiesOnly yes', `  UserKnownHostsFile ${knownHosts}`,
    '  GlobalKnownHostsFile /dev/null', '  StrictHostKeyChecking yes', '',
  ].join('\n'));
  const proc = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-4000); });
  // Ready when a client gets in.
  for (let i = 0; ; i++) {
    try {
      execFileSync(
        'ssh',
        ['-F', sshConfig, '-o', 'BatchMode=yes', '-p', String(port), '-l', user, '127.0.0.1', 'true'],
        { stdio: 'ignore', timeout: 10_000 },
      );
      break;
    } catch {
      if (i > 50 || proc.exitCode !== null) throw new Error(`test sshd did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    dir, port, user, sshConfig, knownHosts, proc, url: `ssh://${user}@127.0.0.1:${port}`,
    sessionPids: () => (proc.pid ? descendants(proc.pid) : []),
    async stop() {
      for (const p of proc.pid ? descendants(proc.pid) : []) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
