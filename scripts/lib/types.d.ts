// The shapes the scripts pass around, for the type check of their JSDoc (scripts/tsconfig.json).

/** The environment the scripts read (process.env or a test's own). */
export type Env = Record<string, string | undefined>;

/** A remote present in the repository, where it listens and where the shell finds its manifest. */
export interface RemotePart {
  name: string;
  dir: string;
  port: number;
  absDir: string;
  origin: string;
  manifestUrl: string;
}

/** Ports and public URLs of every part (`readLayout`). */
export interface Layout {
  bind: string;
  api: { port: number; url: string };
  host: { port: number; url: string };
  remotes: RemotePart[];
}

/** A part that listens on a port, with the variable that moves it (`listeningParts`). */
export interface ListeningPart {
  label: string;
  port: number;
  bind: string;
  variable: string;
}

/** The host or a remote, as webpack builds it. */
export interface BuildTarget {
  name: string;
  absDir: string;
}

/** The object served as /runtime-config.js. */
export interface RuntimeConfig {
  apiBaseUrl: string;
  remotes: Record<string, string>;
  redirectAllowList: string[];
  billing?: { publishableKey: string; pricingTableId: string };
  links?: { campaignUrl: string; supportEmail: string };
}
