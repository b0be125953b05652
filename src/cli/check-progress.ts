import { neutralizeTerminalText } from '../terminal/index.js';
import type { ServerCheckProgress } from './run-check-server.js';

/** Options of {@link CheckProgress}. */
export interface CheckProgressOptions {
  /** Writes to the terminal. */
  readonly write: (text: string) => void;
  /** The servers, one line each, in this order. */
  readonly servers: readonly string[];
  /** Width of the terminal, in columns: longer lines are cut so that none wraps. Default 80. */
  readonly columns?: number;
  /** Milliseconds since some fixed point. Default `performance.now()`. */
  readonly now?: () => number;
  /** Redraw every this many milliseconds, so that elapsed times tick. Default 1000; 0 for never. */
  readonly tickMs?: number;
}

interface ServerLine {
  status: string;
  started: number;
  ended?: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** What one progress event says, in a few words. */
function statusOf(event: ServerCheckProgress): string {
  switch (event.phase) {
    case 'installing':
      return 'installing its package (npx)';
    case 'starting':
      return 'starting';
    case 'listing':
      return 'listing its tools';
    case 'listed':
      return `listed ${event.tools} tool${event.tools === 1 ? '' : 's'}`;
    case 'fingerprint':
      return 'reading its state';
    case 'probing':
      return `probing tool ${event.index} of ${event.total}: ${neutralizeTerminalText(event.tool).slice(0, 60)}`;
    case 'done':
      return `done: ${event.tools} tool${event.tools === 1 ? '' : 's'}, ${event.findings} finding${event.findings === 1 ? '' : 's'}${event.violations > 0 ? `, ${event.violations} violation${event.violations === 1 ? '' : 's'}` : ''}`;
    case 'failed': {
      // The line is short: the reason, without the server's name the line already has.
      const reason = (event.error.split('\n')[0] ?? '')
        .replace(/^MCP server "[^"]*" could not be started and connected for the probe: /, '')
        .replace(/^Could not connect to MCP server "[^"]*"[^:]*: /, '')
        .replace(/^Could not start MCP server "[^"]*": /, '');
      return `NOT CHECKED: ${neutralizeTerminalText(reason)}`;
    }
  }
}

/**
 * Progress of `hintgate check` on a terminal: one line per server (its name, where its check
 * is: installing, starting, listing, probing tool k of n, done or failed, and the time
 * since it started), redrawn in place as the checks go on. Only for a terminal: the lines
 * are rewritten with cursor movements.
 */
export class CheckProgress {
  readonly #options: CheckProgressOptions;
  readonly #lines = new Map<string, ServerLine>();
  readonly #width: number;
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #drawn = false;

  constructor(options: CheckProgressOptions) {
    this.#options = options;
    const now = this.#now();
    for (const server of options.servers) {
      this.#lines.set(server, { status: 'waiting', started: now });
    }
    this.#width = Math.max(...options.servers.map((server) => server.length), 6);
    this.#draw();
    const tick = options.tickMs ?? 1000;
    if (tick > 0) {
      this.#timer = setInterval(() => this.#draw(), tick);
      this.#timer.unref?.();
    }
  }

  #now(): number {
    return (this.#options.now ?? (() => performance.now()))();
  }

  /** Records where the check of `server` is, and redraws. */
  update(server: string, event: ServerCheckProgress): void {
    const line = this.#lines.get(server);
    if (line === undefined || line.ended !== undefined) return;
    line.status = statusOf(event);
    if (event.phase === 'done' || event.phase === 'failed') line.ended = this.#now();
    this.#draw();
  }

  /** Draws the lines a last time and stops the clock. */
  finish(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#draw();
  }

  #draw(): void {
    const columns = Math.max(this.#options.columns ?? 80, 20) - 1;
    const now = this.#now();
    const text = [...this.#lines].map(([server, line]) => {
      const elapsed = seconds((line.ended ?? now) - line.started);
      const body = `  ${server.padEnd(this.#width)}  ${line.status}`;
      const room = columns - elapsed.length - 2;
      const cut = body.length > room ? `${body.slice(0, Math.max(room - 1, 0))}…` : body;
      return `\r\u001b[2K${cut.padEnd(room)}  ${elapsed}\n`;
    });
    const up = this.#drawn ? `\u001b[${this.#lines.size}A` : '';
    this.#drawn = true;
    this.#options.write(`${up}${text.join('')}`);
  }
}
