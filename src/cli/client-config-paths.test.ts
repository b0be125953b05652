import { describe, expect, it } from 'vitest';
import { clientConfigPaths } from './client-config-paths.js';

const mac = { platform: 'darwin', home: '/Users/me', cwd: '/Users/me/project', env: {} } as const;
const linux = { platform: 'linux', home: '/home/me', cwd: '/home/me/project', env: {} } as const;
const windows = {
  platform: 'win32',
  home: 'C:\\Users\\me',
  cwd: 'C:\\work\\project',
  env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' },
} as const;

describe('clientConfigPaths', () => {
  it('finds Claude Desktop where it keeps its configuration on macOS, Windows and Linux', () => {
    expect(clientConfigPaths('claude', mac)).toEqual([
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
    ]);
    expect(clientConfigPaths('claude', windows)).toEqual([
      'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ]);
    expect(clientConfigPaths('claude', linux)).toEqual([
      '/home/me/.config/Claude/claude_desktop_config.json',
    ]);
    expect(
      clientConfigPaths('claude', { ...linux, env: { XDG_CONFIG_HOME: '/home/me/.xdg' } }),
    ).toEqual(['/home/me/.xdg/Claude/claude_desktop_config.json']);
  });

  it("tries the project's file before the user's for Cursor and VS Code", () => {
    expect(clientConfigPaths('cursor', linux)).toEqual([
      '/home/me/project/.cursor/mcp.json',
      '/home/me/.cursor/mcp.json',
    ]);
    expect(clientConfigPaths('cursor', windows)).toEqual([
      'C:\\work\\project\\.cursor\\mcp.json',
      'C:\\Users\\me\\.cursor\\mcp.json',
    ]);
    expect(clientConfigPaths('vscode', mac)).toEqual([
      '/Users/me/project/.vscode/mcp.json',
      '/Users/me/Library/Application Support/Code/User/mcp.json',
      '/Users/me/Library/Application Support/Code/User/settings.json',
    ]);
    expect(clientConfigPaths('vscode', windows)[1]).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json',
    );
    expect(clientConfigPaths('vscode', linux)[1]).toBe('/home/me/.config/Code/User/mcp.json');
  });
});
