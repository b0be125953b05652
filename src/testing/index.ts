export {
  type ConnectTestClientOptions,
  connectTestClient,
  type ElicitationScript,
  type TestClient,
  type TestClientEra,
} from './connect-test-client.js';
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
export type { FixtureAction, FixtureAnswer } from './fixture-answer.js';
export { type FixtureEntryOptions, fixtureServerEntry } from './fixture-server-entry.js';
export { type NextEventOptions, nextEvent } from './next-event.js';
export { nodeScriptArgs } from './node-script-args.js';
export { processAlive } from './process-alive.js';
export {
  type ScriptedCall,
  type ScriptedTool,
  type ScriptedToolOptions,
  type ScriptStep,
  scriptedTool,
} from './scripted-tool.js';
export {
  type FixtureHandlerTool,
  type ServeFixtureToolsOptions,
  serveFixtureTools,
} from './serve-fixture-tools.js';
export {
  type FixtureHttpServer,
  type FixtureHttpServerOptions,
  startFixtureHttpServer,
} from './start-fixture-http-server.js';
export {
  type NodeProcess,
  type StartNodeProcessOptions,
  startNodeProcess,
} from './start-node-process.js';
export { type WaitForOptions, waitFor } from './wait-for.js';
