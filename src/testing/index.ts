export { createFakeClock, type FakeClock, type FakeClockOptions } from './create-fake-clock.js';
export {
  createFixtureServer,
  type FixtureServer,
  type FixtureServerOptions,
  type FixtureTool,
} from './create-fixture-server.js';
export {
  createTempWorkspace,
  type TempWorkspace,
  type TempWorkspaceOptions,
} from './create-temp-workspace.js';
export {
  type ScriptedCall,
  type ScriptedTool,
  type ScriptedToolOptions,
  type ScriptStep,
  scriptedTool,
} from './scripted-tool.js';
