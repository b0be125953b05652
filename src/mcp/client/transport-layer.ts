import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';

/**
 * A transport the SDK client (or server) connects to that wraps another one: every message
 * passes through unchanged in both directions (the handshake, requests, notifications,
 * closing), and a subclass sees each message the other side sends in `receive` before the
 * SDK does (`StdioCallLayer` is one on the server side).
 * Layers stack: each wraps the one below, so what the upstream layer of hintgate does to
 * the wire is a chain of named classes, not handlers swapped on a transport after it
 * connected.
 */
export abstract class TransportLayer implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    | (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void)
    | undefined;
  /** The transport below this layer. */
  protected readonly inner: Transport;
  #closing: Promise<void> | undefined;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.closed();
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** Closes the transport below; every caller (the client's, its owner's) waits for the same close. */
  close(): Promise<void> {
    this.#closing ??= this.inner.close();
    return this.#closing;
  }

  /** A message from the server; by default handed to the client as it is. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The transport below closed; by default the client is told. */
  protected closed(): void {
    this.onclose?.();
  }
}
