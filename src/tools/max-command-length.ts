/**
 * Longest command line `run_command` takes, in characters (16 KiB). A longer one is refused
 * before it is read: it is never matched by an allow rule, and its call fails with a message
 * that says to write long scripts to a file first. It bounds the time the grammar spends on
 * one line (linear, some milliseconds) on the main thread.
 */
export const MAX_COMMAND_LENGTH = 16_384;

/** Why `command` is refused for its length, or undefined when it is short enough. */
export function commandTooLong(command: string): string | undefined {
  if (command.length <= MAX_COMMAND_LENGTH) return undefined;
  return `the command is ${command.length} characters long, over the maximum of ${MAX_COMMAND_LENGTH}; write a long script to a file with write_file and run that file`;
}
