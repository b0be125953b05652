import { anySignal } from '../schedule/index.js';
import type { CallToolResult, Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { createFetchAllowList } from './fetch-allow-list.js';
import { fetchText, MAX_BODY_BYTES, parseWebUrl } from './fetch-text.js';
import { resolveWithDns } from './guarded-get.js';
import { htmlToText } from './html-to-text.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type WebFetchArgs = { url: string; max_chars?: number; start_index?: number };

/** Characters of page text one call returns at most: below the runtime's default cap. */
export const MAX_FETCH_CHARS = 24_000;
const DEFAULT_FETCH_CHARS = 20_000;
const ERROR_BODY_CHARS = 2_000;

const inputSchema = {
  type: 'object',
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      description: 'Absolute http:// or https:// URL to fetch.',
    },
    max_chars: {
      type: 'integer',
      minimum: 100,
      maximum: MAX_FETCH_CHARS,
      description: `Most characters of text to return. Default ${DEFAULT_FETCH_CHARS}, at most ${MAX_FETCH_CHARS}.`,
    },
    start_index: {
      type: 'integer',
      minimum: 0,
      description:
        'Character of the text to start at, to read on where a previous call stopped. Default 0.',
    },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

/** `url:<host><path>`: the page, hierarchical on its path; `url:` for what is no URL. */
const urlKey = (input: string): string => {
  try {
    const url = new URL(input);
    return `url:${url.host}${url.pathname}`;
  } catch {
    return 'url:';
  }
};

/** The approval key: the site (`https://example.com`), which is what a person trusts. */
const siteKey = (input: string): string => {
  try {
    const url = new URL(input);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return 'url';
  }
};

/**
 * `web_fetch`: GETs an http(s) URL and returns its text, HTML converted to plain text,
 * `max_chars` at a time from `start_index`; follows up to 5 redirects within the URL's
 * origin (a redirect elsewhere is returned for the model to fetch by a new call), refuses other
 * schemes and non-text content, and gives up after `fetchTimeoutMs`. Reaches only public
 * addresses, and private or special-use ones in `fetchAllow` (checked on every hop and for
 * the address actually connected to; see `guardedGet`). Read-only, idempotent
 * (a GET has no effect on the server, however the page changes between calls), open world. Resource key `url:<host><path>` (only orders it
 * after writes of the same key, which no built-in tool makes); approval key: the site's
 * origin.
 */
export function createWebFetchTool(options: WorkspaceToolsOptions): Tool {
  const resolved = resolveWorkspaceToolsOptions(options);
  const { fetchTimeoutMs } = resolved;
  const guard = {
    allow: createFetchAllowList(resolved.fetchAllow),
    resolveHost: resolved.resolveHost ?? resolveWithDns,
  };
  return defineTool({
    name: 'web_fetch',
    title: 'Fetch web page',
    description:
      'Fetch an http(s) URL and return its content as text: HTML is converted to plain text (scripts, styles and tags removed); plain text, JSON and XML come as they are. Long pages come in parts: the reply says which start_index reads on. Binary content (images, PDFs, archives) is refused, and so are addresses of this machine and of private networks unless the server allows them.',
    annotations: {
      title: 'Fetch web page',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    inputSchema,
    resources: (args) => [urlKey((args as WebFetchArgs).url)],
    approvalKey: (args) => siteKey((args as WebFetchArgs).url),
    execute: async (args, { signal }): Promise<string | CallToolResult> => {
      const {
        url: input,
        max_chars: maxChars = DEFAULT_FETCH_CHARS,
        start_index: start = 0,
      } = args as WebFetchArgs;
      const url = parseWebUrl(input);
      // One signal for the call and the fetch timeout.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error('timed out')), fetchTimeoutMs);
      const combined = anySignal([signal, timeout.signal]);
      let page: Awaited<ReturnType<typeof fetchText>>;
      try {
        page = await fetchText(url, { guard, signal: combined.signal });
      } catch (error) {
        if (timeout.signal.aborted && !signal.aborted) {
          throw new Error(`${url.href} did not answer within ${fetchTimeoutMs} ms.`, {
            cause: error,
          });
        }
        throw error;
      } finally {
        clearTimeout(timer);
        combined.dispose();
      }
      if ('location' in page) {
        const from = page.url === url.href ? '' : ` (redirected from ${url.href})`;
        return [
          `URL: ${page.url}${from}`,
          `Status: ${page.status} ${page.statusText}`.trimEnd(),
          '',
          `Redirected to ${page.location}; call web_fetch with that URL to follow it. Redirects are followed only within one origin (${url.origin}), so that a page on another site is fetched by a call of its own, which policy and approvals see.`,
        ].join('\n');
      }
      const html = page.mediaType === 'text/html' || page.mediaType === 'application/xhtml+xml';
      const converted = html ? htmlToText(page.body) : { text: page.body };
      const header = [
        `URL: ${page.url}${page.url === url.href ? '' : ` (redirected from ${url.href})`}`,
        `Status: ${page.status} ${page.statusText}`.trimEnd(),
        `Content-Type: ${page.mediaType || 'unknown'}`,
        ...('title' in converted && converted.title !== undefined
          ? [`Title: ${converted.title}`]
          : []),
      ].join('\n');
      if (page.status < 200 || page.status > 299) {
        const excerpt = converted.text.slice(0, ERROR_BODY_CHARS);
        return {
          content: [
            {
              type: 'text',
              text: `${header}\n\nThe server answered HTTP ${page.status}.${excerpt === '' ? '' : `\n\n${excerpt}`}`,
            },
          ],
          isError: true,
        };
      }
      const text = converted.text;
      if (start > 0 && start >= text.length) {
        throw new Error(
          `start_index ${start} is past the end of the text (${text.length} characters).`,
        );
      }
      const end = Math.min(text.length, start + maxChars);
      const notes: string[] = [];
      if (start > 0 || end < text.length) {
        notes.push(
          `[Characters ${start}-${end} of ${text.length}.${end < text.length ? ` To read on, call web_fetch with start_index=${end}.` : ''}]`,
        );
      }
      if (page.cut)
        notes.push(
          `[The response was longer than ${MAX_BODY_BYTES} bytes; only its start was read.]`,
        );
      const body = text.slice(start, end) || '(no text content)';
      return `${header}\n\n${body}${notes.length > 0 ? `\n\n${notes.join('\n')}` : ''}`;
    },
  });
}
