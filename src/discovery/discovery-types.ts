/** A layer whose tools come from a folder. */
export type FolderLayer = 'global' | 'project';

/** A module that was loaded, and the tools it provides. */
export interface DiscoveredModule {
  /** Layer of its folder. */
  readonly layer: FolderLayer;
  /** Absolute path of the module file. */
  readonly file: string;
  /** Name of its origin in the registry: `<layer>:<file name>`. */
  readonly origin: string;
  /** Names of its tools. */
  readonly tools: readonly string[];
}

/** A module left out: it failed to load or to validate, or clashes with another. */
export interface DiscoveryProblem {
  /** Layer of its folder. */
  readonly layer: FolderLayer;
  /** Absolute path of the module file. */
  readonly file: string;
  /** What is wrong and what to do, naming the file. */
  readonly message: string;
}

/** A project folder whose tools are held back until a person trusts it. */
export interface HeldBackProject {
  /** The project folder. */
  readonly project: string;
  /** Its tools folder (`<project>/.hintgate/tools`). */
  readonly directory: string;
  /** The module files held back. */
  readonly files: readonly string[];
  /** `new`: never trusted; `changed`: trusted, but its tool files changed since. */
  readonly status: 'new' | 'changed';
  /** `sha256:` hash of the tools folder as it is now. */
  readonly hash: string;
  /** The command that trusts it: `hintgate trust <project>`. */
  readonly command: string;
}

/** What a person is asked before a project's tools load for the first time (or again). */
export interface TrustRequest extends HeldBackProject {}

/**
 * A person's answer: `always` trusts the folder with these files (remembered in the trust
 * file), `once` loads them for this process only, `deny` holds them back.
 */
export type TrustAnswer = 'always' | 'once' | 'deny';

/** What discovery found, for `hintgate tools` and logs. */
export interface DiscoveryStatus {
  /** Folders looked in, per layer (absent ones too). */
  readonly folders: Readonly<Record<FolderLayer, string | undefined>>;
  /** Modules loaded, global first, then by file. */
  readonly modules: readonly DiscoveredModule[];
  /** Modules left out, with why. */
  readonly problems: readonly DiscoveryProblem[];
  /** The project whose tools are held back, if they are. */
  readonly heldBack?: HeldBackProject;
}
