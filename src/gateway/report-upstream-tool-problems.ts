import type { McpServerConnection } from '../mcp/index.js';

/**
 * Tells on `notice` each problem of a server's tool list (a tool not registered, or
 * registered with a concession, and why): those of the list as it is now, then those of
 * each new list, each once while it holds. Returns the unsubscribe.
 */
export function reportUpstreamToolProblems(
  connection: McpServerConnection,
  notice: (message: string) => void,
): () => void {
  let told = new Set<string>();
  const tell = (problems: readonly { readonly message: string }[]): void => {
    const now = new Set<string>();
    for (const { message } of problems) {
      if (!told.has(message) && !now.has(message)) notice(message);
      now.add(message);
    }
    told = now;
  };
  tell(connection.problems);
  return connection.on('change', ({ problems }) => tell(problems));
}
