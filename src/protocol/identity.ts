/**
 * Identity on the wire (docs/policy.md, "One app, one allow entry"): what a driver proves about a process where it
 * runs, so the
 * policy can decide from facts alone, the same way for the local device and a remote one. Every value is
 * opaque to the host: `appId` and `startToken` are compared only for equality (a Windows FILETIME start time is
 * above 2^53, a macOS app is a bundle id plus team id), `user` is a string (Windows users are SIDs). Also the
 * three methods built on them: `process.identify`, `apps.resolveLaunch` and `apps.terminate`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { doc, DocumentedLiterals, Pid, Strict } from './primitives.js';

const Path = (description: string) => Type.String({ maxLength: 4096, description });
/** A list of paths or words, capped. */
const Paths = (description: string, maxItems = 256) =>
  Type.Array(Type.String({ maxLength: 4096 }), { maxItems, description });

/** An opaque start token: tells a reused pid apart; compared only for equality. */
export const StartToken = Type.String({ minLength: 1, maxLength: 64, description:
  'Opaque token of the process start (Linux: /proc start time in clock ticks; Windows: creation FILETIME; macOS: start time in µs), ' +
  'compared only for equality: a pid with another token is another process.' });

/**
 * What kind of thing `appId` is, as the driver says (the policy reads appId only through it): absent or
 * `executable` means the executable's realpath, judged by path as on Linux.
 */
export const AppIdKind = DocumentedLiterals(
  {
    executable: "appId is the executable's realpath (judged by path).",
    signed:
      'appId is "<id>@<signer>": an identifier (a macOS bundle id, a Windows package identity) claimed by code whose signature by <signer> ' +
      'the OS validated ("apple" for Apple\'s code, else the team or publisher id). An allow entry may name "<id>@<signer>", or "<id>" for any validated signer.',
  },
  {
    description:
      'What kind of identity appId is; only `signed` lets an allow entry name the app by its identifier rather ' +
      'than its executable path.',
  },
);
export type AppIdKind = Static<typeof AppIdKind>;

/** The identity fields every app and window carries (drivers fill what their platform proves). */
export const IdentityFields = {
  pid: doc('Process id of the owning process on the device.', Pid),
  appId: Type.Optional(
    Type.String({
      maxLength: 4096,
      description:
        'Opaque app identity the driver proves (never the name the app gives itself): Linux the executable realpath; macOS "bundle id@team id" ("@apple" for Apple\'s code) from a validated signature, else the executable path; ' +
        'Windows the AUMID or the executable path; Android the package name.',
    }),
  ),
  appIdKind: Type.Optional(AppIdKind),
  startToken: Type.Optional(StartToken),
  executable: Type.Optional(Path("Realpath of the process's executable, where the platform has one.")),
  user: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'The process owner as the platform names it: a decimal uid on POSIX, a SID on Windows.',
    }),
  ),
  package: Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        "The installed package the executable belongs to, from the package manager's own database, reported only for a system-owned file " +
        '(root\'s, writable by no one else): "binary/source" when the source package differs (Debian: "libreoffice-core/libreoffice").',
    }),
  ),
  sameAs: Type.Optional(
    Type.Array(Type.String({ maxLength: 4096 }), {
      maxItems: 32,
      description:
        'Other programs on the device that the executable is the same file as or a byte-for-byte copy of (see ContentFacts.sameAs): identity by content on every read.',
    }),
  ),
};

/** macOS: how the code of an app is signed, as Security.framework validates it. */
export const Signing = DocumentedLiterals(
  {
    apple: 'Signed by Apple (requirement "anchor apple"): appId is the bundle id with "@apple".',
    developer:
      'Signed with a Developer ID or App Store certificate of the team in appId ("bundle id@team id"), validated.',
    adhoc: 'Ad-hoc signed (no certificate: it can claim any identifier): known by its executable path.',
    unsigned: 'Not signed: known by its executable path.',
    invalid:
      'A signature that does not validate (modified after signing, or an unusual identifier): known by its executable path.',
  },
  {
    description:
      'macOS: how the code is signed, as validated; only apple and developer give an appId other than the ' +
      'executable path.',
  },
);

/** How much the OS lets a process do, as its token says (Windows: the integrity level and UAC elevation). */
export const Privilege = Type.Object(
  {
    level: Type.Optional(
      DocumentedLiterals(
        {
          untrusted: 'Windows: untrusted integrity (below 0x1000).',
          low: "Windows: low integrity (0x1000): a sandboxed process, e.g. a browser's renderer.",
          medium: "Windows: medium integrity (0x2000): a normal user's apps.",
          high: 'Windows: high integrity (0x3000): run as administrator.',
          system: 'Windows: system integrity (0x4000) or above: services.',
        },
        {
          description:
            "The mandatory integrity level of the process's token. A driver of lower level cannot send it input " +
            '(Windows UIPI): acting on it is elevation_required.',
        },
      ),
    ),
    elevated: Type.Optional(
      Type.Boolean({
        description: 'True when the process runs with administrator rights (Windows: an elevated token).',
      }),
    ),
  },
  {
    ...Strict,
    description:
      'Privilege facts of the process as the OS reports them; facts only: the policy decides nothing from them, and a driver that cannot reach the process says so with elevation_required.',
  },
);
export type Privilege = Static<typeof Privilege>;

/** A window's class as the app sets it (the platform's window class): untrusted, may only deny. */
export const ClassName = Type.String({
  maxLength: 1024,
  description:
    'The window class the app sets, as the platform names it (where it has an instance and a class name, both ' +
    'joined by a comma). Set by the app: it may only deny.',
});

/** What the driver found by content: the executable's digest and the programs it is a copy of. */
export const ContentFacts = Type.Object(
  {
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the executable file.' }),
    size: Type.Integer({ minimum: 0, description: 'Size of the executable in bytes.' }),
    sameAs: Paths(
      "Programs on the device's PATH (and in the executable's own directory, and any `compareWith` path) " +
        'that are the same file (a hard link) or byte-for-byte copies of it. The policy checks their names ' +
        'against the deny list, so a renamed copy of a denied program is denied.',
    ),
  },
  { description: "The executable's content, for identity by content rather than by name." },
);
export type ContentFacts = Static<typeof ContentFacts>;

export const IdentifyParams = Type.Object(
  {
    pid: doc('The process to identify.', Pid),
    /** Also hash the executable and find its copies (cached by the driver by device, inode, size and mtime). */
    content: Type.Optional(
      Type.Boolean({
        description: "Also report `content`: the executable's SHA-256 and the programs it is a copy of.",
      }),
    ),
    /** Extra paths to compare the executable with (deny entries that name a path). */
    compareWith: Type.Optional(
      Paths('Extra programs to compare the executable with by content (deny-list entries that name a path).', 64),
    ),
  },
  Strict,
);
export type IdentifyParams = Static<typeof IdentifyParams>;

/** One launcher met on the way (a symlink, a wrapper script): with the facts that make it trustworthy or not. */
const LauncherFields = {
  path: Path('Realpath of the launcher.'),
  systemOwned: Type.Boolean({
    description:
      'Owned by root (or the system), not writable by anyone else, in a directory likewise: installed, not ' +
      'planted by a user or an agent.',
  }),
  package: Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        "The installed package the file belongs to, from the package manager's own database (Debian: dpkg), with its source package after a slash when they differ.",
    }),
  ),
  commands: Type.Optional(
    Type.Array(Type.String({ maxLength: 256 }), {
      maxItems: 16,
      description:
        "The commands the system's program directories " +
        '(/usr/bin, /usr/sbin, /usr/games, /usr/local/bin: root-owned, writable by no one else) give this launcher: its own file name there, or a ' +
        'link whose every step is root-owned and that resolves to it (`libreoffice` and `soffice` for /usr/lib/libreoffice/program/soffice). ' +
        'An allow entry may name the launch by one of them; only for a `systemOwned` launcher.',
    }),
  ),
};
export const Launcher = Type.Object(LauncherFields);
/** One launcher met on the way, with the facts that make it trustworthy or not. */
export type Launcher = Static<typeof Launcher>;

export const IdentifyResult = Type.Object(
  {
    ...IdentityFields,
    gone: Type.Optional(
      Type.Boolean({ description: 'True when no such process exists (any other field is absent).' }),
    ),
    ppid: Type.Optional(doc('The parent process id.', Pid)),
    argv: Type.Optional(
      Type.Array(Type.String({ maxLength: 65_536 }), {
        maxItems: 4096,
        description:
          'The argument vector as the platform shows it (the process can rewrite it): for an interpreter, which ' +
          'script it runs.',
      }),
    ),
    cwd: Type.Optional(Path("The process's working directory, to resolve a relative script path in `argv`.")),
    unreadable: Type.Optional(
      Type.Boolean({
        description:
          "True when the process exists but its executable cannot be read (another user's): nothing proves what it is.",
      }),
    ),
    signing: Type.Optional(Signing),
    content: Type.Optional(ContentFacts),
    privilege: Type.Optional(Privilege),
    launcher: Type.Optional(
      Type.Object(LauncherFields, {
        description:
          'For an interpreter (python3, sh, perl…): the installed script its `argv` runs, ' +
          "with the same facts as a launch's launchers (meld is python3 running /usr/bin/meld): an allow entry may name the process by its `commands`.",
      }),
    ),
  },
  { description: 'What the platform proves about one process.' },
);
export type IdentifyResult = Static<typeof IdentifyResult>;

/** What kind of thing a launch names (`apps.launch` and `apps.resolveLaunch`). */
export const TargetKind = DocumentedLiterals({
  command: 'An executable or desktop command with arguments, never run through a shell (the default).',
  bundle: 'A macOS bundle id.',
  aumid: 'A Windows AUMID or URI.',
  package: 'An Android package or package/activity.',
}, { description: 'What kind of thing the launch names.' });
export type TargetKind = Static<typeof TargetKind>;

export const ResolveLaunchParams = Type.Object(
  {
    command: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'What apps.launch would be given: a command (or bundle id, AUMID/URI, package per `kind`).',
    }),
    args: Type.Optional(
      Type.Array(Type.String({ maxLength: 4096 }), {
        maxItems: 256,
        description: 'Its arguments, as apps.launch would pass them.',
      }),
    ),
    kind: Type.Optional(TargetKind),
  },
  Strict,
);
export type ResolveLaunchParams = Static<typeof ResolveLaunchParams>;

export const ResolveLaunchResult = Type.Object(
  {
    executable: Type.Optional(
      Path('Realpath of the program that will run, when proven (for a script: its interpreter).'),
    ),
    appId: Type.Optional(
      Type.String({ maxLength: 4096, description: 'The appId the started process will have, when proven.' }),
    ),
    appIdKind: Type.Optional(AppIdKind),
    argv: Type.Array(Type.String({ maxLength: 65_536 }), {
      maxItems: 4096,
      description: 'The argument vector from that program on (for an interpreter: which script it runs).',
    }),
    names: Paths(
      'Every name met on the way (commands, paths, realpaths, .desktop Name=, argument words): each may deny.',
      4096,
    ),
    unproven: Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          'Why the program that will run cannot be proven (code strings, an unknown wrapper, a default handler).',
      }),
    ),
    launchers: Type.Optional(
      Type.Array(Launcher, {
        maxItems: 16,
        description: 'The launcher scripts and links between the command and the executable, in order.',
      }),
    ),
    package: Type.Optional(
      Type.String({
        maxLength: 256,
        description:
          'The installed package of the program (or of the script an interpreter runs), as for `launchers`.',
      }),
    ),
    runsCommand: Type.Optional(
      Type.Boolean({
        description:
          'The program runs another program named in its arguments (a terminal with -e/-x, a wrapper): the arguments name it.',
      }),
    ),
    signing: Type.Optional(Signing),
    content: Type.Optional(ContentFacts),
  },
  { description: 'What a launch would run, resolved where it runs.' },
);
export type ResolveLaunchResult = Static<typeof ResolveLaunchResult>;

export const TerminateParams = Type.Object(
  {
    pid: doc('The process to end.', Pid),
    startToken: Type.Optional(
      doc('Its start token as reported at launch: a process with another token is never signalled.', StartToken),
    ),
  },
  Strict,
);
export type TerminateParams = Static<typeof TerminateParams>;
export const TerminateResult = Type.Object({
  ended: Type.Boolean({
    description:
      'True when the process was signalled; false when it was already gone or its start token differs (another ' +
      'process now has the pid: nothing was sent).',
  }),
});
export type TerminateResult = Static<typeof TerminateResult>;
