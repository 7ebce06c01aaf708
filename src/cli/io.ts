// What a command may do with the terminal: print its result (stdout), say what happened (stderr), read stdin.
export interface Io {
  out(text: string): void;
  note(text: string): void;
  json: boolean;
  readStdin(): Promise<string>;
}
