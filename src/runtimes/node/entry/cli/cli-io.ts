/** Where a CLI command writes: stdout and stderr in the process, captured in tests. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}
