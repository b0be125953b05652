import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph } from './import-graph.test-helpers.js';

// What each entry point of package.json exports (values and types), and what the root
// entry point imports when it runs.

const root = fileURLToPath(new URL('../', import.meta.url));

/** The source file of each subpath of package.json's `exports`. */
function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import: string }>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    const source = target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    entries.set(subpath === '.' ? 'hintgate' : `hintgate/${subpath.slice(2)}`, source);
  }
  return entries;
}

/** Every source file of the package (tests, test helpers and fixtures are not shipped). */
function sourceFiles(): string[] {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.endsWith('.test-helpers.ts') &&
        !/(^|[\\/])fixtures[\\/]/.test(file),
    )
    .map((file) => join(root, 'src', file));
}

function exportedNames(): Record<string, string[]> {
  const entries = entryPoints();
  // Exports are bound, never type-checked: the program is the package's own sources alone,
  // with no default library and no package resolved (a name re-exported from a package is
  // listed all the same), so that it is made in a fraction of the time.
  const program = ts.createProgram({
    rootNames: sourceFiles(),
    options: {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
      noLib: true,
      noResolve: true,
      types: [],
    },
  });
  const checker = program.getTypeChecker();
  const names: Record<string, string[]> = {};
  for (const [name, file] of entries) {
    const source = program.getSourceFile(join(root, file));
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (symbol === undefined) throw new Error(`${file} is not a module`);
    names[name] = checker
      .getExportsOfModule(symbol)
      .map((s) => s.name)
      .sort();
  }
  return names;
}

describe('the entry points', () => {
  it('export exactly these names', { timeout: 120_000 }, () => {
    expect(exportedNames()).toMatchInlineSnapshot(`
      {
        "hintgate": [
          "AUDIT_EVENT_TYPES",
          "ApplyToolSettingsOptions",
          "ApprovalAnswer",
          "ApprovalAnswerer",
          "ApprovalAsk",
          "ApprovalKeyNote",
          "ApprovalKeyResult",
          "ApprovalKeys",
          "ApprovalOutcome",
          "ApprovalRequest",
          "Approver",
          "AuditEvent",
          "AuditEventType",
          "AuditSink",
          "AuditWriteError",
          "Authorizer",
          "BuildSystemPromptOptions",
          "CallDecision",
          "CallErrorCode",
          "CallRequest",
          "CallResult",
          "CallStatus",
          "CallToolResult",
          "CallerIdentity",
          "Clock",
          "CloseOptions",
          "ContentBlock",
          "DEFAULT_MAX_OUTPUT_CHARS",
          "DEFAULT_MODE",
          "DEFAULT_TIMEOUT_MS",
          "DESTRUCTIVE",
          "DecideOptions",
          "Decision",
          "DefineToolOptions",
          "DerivedApprovalKeys",
          "EffectiveHints",
          "ExecuteOptions",
          "FirstAnswerOptions",
          "HINTGATE_ERROR_CODES",
          "HintgateError",
          "HintgateErrorCode",
          "JsonSchemaObject",
          "LockMode",
          "MODES",
          "MemoryAuditSink",
          "Mode",
          "OpaquePart",
          "OriginInfo",
          "OriginOptions",
          "PlanEntry",
          "Policy",
          "PolicyAuthorizer",
          "PolicyOptions",
          "PolicyRule",
          "PromptTool",
          "READ_ONLY",
          "RateLimit",
          "RegisteredTool",
          "RegistryLoader",
          "RegistryOptions",
          "RememberScope",
          "RequiredApproval",
          "RetryOptions",
          "RetryableError",
          "RuleDecision",
          "Runtime",
          "RuntimeOptions",
          "SPEC_DEFAULT_HINTS",
          "SchemaInput",
          "SelectToolsOptions",
          "Tool",
          "ToolAnnotations",
          "ToolCall",
          "ToolChange",
          "ToolClass",
          "ToolConfig",
          "ToolContext",
          "ToolDescription",
          "ToolLayer",
          "ToolListing",
          "ToolRegistry",
          "ToolSettings",
          "TrustOptions",
          "Turn",
          "TurnCallOptions",
          "WRITE",
          "allowAll",
          "applyToolSettings",
          "argumentDigest",
          "buildSystemPrompt",
          "checkPolicy",
          "classify",
          "createMemoryAuditSink",
          "createPolicy",
          "createRegistry",
          "createRuntime",
          "defineTool",
          "deriveApprovalKeys",
          "deriveCallApprovalKeys",
          "effectiveAnnotations",
          "firstAnswer",
          "isRetryable",
          "normalizeResourceKey",
          "parsePolicyText",
          "selectTools",
          "toToolListing",
        ],
        "hintgate/ai-sdk": [
          "AiSdkModelOutput",
          "AiSdkToolApproval",
          "AiSdkToolConfig",
          "AiSdkTools",
          "AiSdkToolsOptions",
          "ApprovalResponseOptions",
          "FromAiSdkToolsOptions",
          "HintgateApprovalResponse",
          "approvalResponse",
          "createAiSdkTools",
          "fromAiSdkTools",
          "toModelOutput",
        ],
        "hintgate/gateway": [
          "AuditSyncPolicy",
          "CreateGatewayOptions",
          "Gateway",
          "GatewayAuditRotate",
          "GatewayConfig",
          "GatewayToolState",
          "LoadGatewayConfigOptions",
          "LoadedGatewayConfig",
          "LoadedGatewayServer",
          "NewToolsPolicy",
          "PinGatewayOptions",
          "PinGatewayResult",
          "PinPlan",
          "ToolPinDetail",
          "createGateway",
          "loadGatewayConfig",
          "parseGatewayConfigText",
          "pinGateway",
          "renderStarterConfig",
        ],
        "hintgate/langchain": [
          "HintgateActionRequest",
          "HintgateApprovalRequest",
          "HintgateApprovalResponse",
          "HintgateDecision",
          "HintgateMiddleware",
          "HintgateReviewConfig",
          "LangChainTool",
          "LangChainToolsOptions",
          "createHintgateMiddleware",
          "createLangChainTools",
        ],
        "hintgate/mcp": [
          "APPROVAL_CHOICES",
          "APPROVAL_INPUT_KEY",
          "ApprovalChannel",
          "ApprovalChoice",
          "ConnectMcpServerCommonOptions",
          "ConnectMcpServerOptions",
          "CreateServerOptions",
          "HttpPrincipal",
          "HttpRateLimit",
          "McpConnectionEvents",
          "McpConnectionStatus",
          "McpEraOption",
          "McpHttpHandler",
          "McpHttpHandlerOptions",
          "McpHttpRequestOptions",
          "McpHttpServer",
          "McpHttpServerOptions",
          "McpHttpTarget",
          "McpLogSource",
          "McpPromptSource",
          "McpResourceEvent",
          "McpResourceSource",
          "McpServerConnection",
          "McpServerEvent",
          "McpServerNotification",
          "McpSourceRequest",
          "McpStatusEvent",
          "McpStdioOptions",
          "McpStdioServer",
          "McpStdioTarget",
          "McpToolProblem",
          "McpToolServer",
          "McpToolServerOptions",
          "McpToolsEvent",
          "RESULT_META",
          "ReconnectOptions",
          "TOOL_META",
          "TransportToolCall",
          "UpstreamUnavailableError",
          "connectMcpServer",
          "createMcpHttpHandler",
          "createMcpToolServer",
          "serveMcpStdio",
          "startMcpHttpServer",
        ],
        "hintgate/node": [
          "ApprovalRecord",
          "ApprovalStore",
          "ApprovalStoreOptions",
          "AuditFileSystem",
          "AuditRotateOptions",
          "DiscoveryStatus",
          "HeldBackProject",
          "JsonlAuditSinkOptions",
          "JsonlSync",
          "LoadPolicyOptions",
          "ToolDiscovery",
          "ToolDiscoveryOptions",
          "ToolModuleApi",
          "ToolModuleContext",
          "TrustAnswer",
          "TrustRequest",
          "TrustStore",
          "createApprovalStore",
          "createJsonlAuditSink",
          "createToolDiscovery",
          "createTrustStore",
          "hintgateHome",
          "loadPolicy",
        ],
        "hintgate/openai-agents": [
          "AgentsTool",
          "AgentsToolOutput",
          "AgentsToolParameters",
          "AgentsToolsOptions",
          "createAgentsTools",
        ],
        "hintgate/terminal": [
          "TerminalApproverOptions",
          "TerminalInput",
          "createTerminalApprover",
        ],
        "hintgate/testing": [
          "ConnectTestClientOptions",
          "ElicitationScript",
          "FakeClock",
          "FakeClockOptions",
          "FixtureAction",
          "FixtureAnswer",
          "FixtureEntryOptions",
          "FixtureHandlerTool",
          "FixtureHttpServer",
          "FixtureHttpServerOptions",
          "FixtureServer",
          "FixtureServerOptions",
          "FixtureTool",
          "NextEventOptions",
          "NodeProcess",
          "ScriptStep",
          "ScriptedCall",
          "ScriptedTool",
          "ScriptedToolOptions",
          "ServeFixtureToolsOptions",
          "StartNodeProcessOptions",
          "TempWorkspace",
          "TempWorkspaceOptions",
          "TestClient",
          "TestClientEra",
          "WaitForOptions",
          "connectTestClient",
          "createFakeClock",
          "createFixtureServer",
          "createTempWorkspace",
          "fixtureServerEntry",
          "nextEvent",
          "nodeScriptArgs",
          "processAlive",
          "scriptedTool",
          "serveFixtureTools",
          "startFixtureHttpServer",
          "startNodeProcess",
          "waitFor",
        ],
        "hintgate/tools": [
          "AliasToolOptions",
          "CommandKeys",
          "CommandSafetyOptions",
          "DelegateContext",
          "DelegateFunction",
          "DelegateOption",
          "DelegateSettings",
          "DelegateTask",
          "EmbedFunction",
          "Embedder",
          "EmbedderOptions",
          "EmbeddingModelLike",
          "Embeddings",
          "FetchAllowList",
          "HtmlText",
          "HttpEmbedderOptions",
          "MAX_COMMAND_LENGTH",
          "MAX_COMMAND_TIMEOUT_MS",
          "MAX_FETCH_CHARS",
          "ResolveHost",
          "ResolvedAddress",
          "SAFE_VARIABLES",
          "WORKSPACE_TOOL_DEFAULTS",
          "WORKSPACE_TOOL_NAMES",
          "WorkspacePath",
          "WorkspaceToolName",
          "WorkspaceToolsOptions",
          "checkCommandSafety",
          "commandApprovalKeys",
          "createAliasTool",
          "createDelegateTaskTool",
          "createEditFileTool",
          "createFetchAllowList",
          "createGlobTool",
          "createGrepSearchTool",
          "createIndexWorkspaceTool",
          "createListDirectoryTool",
          "createPatchFileTool",
          "createReadFileTool",
          "createRunCommandTool",
          "createSemanticSearchTool",
          "createWebFetchTool",
          "createWorkspaceTools",
          "createWriteFileTool",
          "htmlToText",
          "httpEmbedder",
          "resolveInWorkspace",
          "workspaceFileKey",
        ],
      }
    `);
  });

  it('root hintgate loads no Node module that touches files, processes or the network', () => {
    const { builtins, packages } = importGraph('src/index.ts');
    // async_hooks: a call that waited runs in its batch's async context, and a call that
    // waited for its place in the one it arrived in (AsyncResource).
    expect(builtins).toEqual([
      'node:async_hooks (src/runtime/arrival-order.ts)',
      'node:async_hooks (src/runtime/batch-results.ts)',
      'node:crypto (src/audit/argument-digest.ts)',
      'node:crypto (src/runtime/batch-ids.ts)',
      'node:crypto (src/runtime/call-pipeline.ts)',
      'node:path (src/config-problems/parse-yaml-or-json.ts)',
      'node:path (src/runtime/create-runtime.ts)',
      'node:path (src/schedule/resource-key.ts)',
    ]);
    // Portable packages only: none of them touches files, processes or the network.
    expect(packages).toEqual(['ajv', 'ajv-formats', 'minisearch', 'picomatch', 're2js', 'yaml']);
  });
});
