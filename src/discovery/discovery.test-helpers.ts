import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp home folder (HINTGATE_HOME) and a temp project folder, removed by `cleanup`. */
export interface DiscoveryDirs {
  readonly home: string;
  readonly project: string;
  /** Writes `<home>/tools/<name>`. */
  writeGlobal(name: string, source: string): Promise<string>;
  /** Writes `<project>/.hintgate/tools/<name>`. */
  writeProject(name: string, source: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function discoveryDirs(): Promise<DiscoveryDirs> {
  const root = await mkdtemp(join(tmpdir(), 'hintgate-discovery-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const write = async (dir: string, name: string, source: string): Promise<string> => {
    await mkdir(dir, { recursive: true });
    const file = join(dir, name);
    await writeFile(file, source);
    return file;
  };
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  return {
    home,
    project,
    writeGlobal: (name, source) => write(join(home, 'tools'), name, source),
    writeProject: (name, source) => write(join(project, '.hintgate', 'tools'), name, source),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** URL of the sources' tool API, for modules that import defineTool by name. */
export const TOOL_API_URL = new URL('../tool/index.ts', import.meta.url).href;

/**
 * Source of a module whose default export makes one read-only tool `name` answering `text`,
 * with no import at all.
 */
export const readToolModule = (name: string, text: string, extra = ''): string => `
export default (api) => api.defineTool({
  name: ${JSON.stringify(name)},
  description: 'answers a fixed text',
  inputSchema: { type: 'object', properties: {} },
  annotations: api.READ_ONLY,
  execute: () => ${JSON.stringify(text)},
});
${extra}
`;
