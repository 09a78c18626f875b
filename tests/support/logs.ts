/** The app's log lines (pino JSON) among everything a process printed. */
export interface LogLine {
  level: number;
  msg: string;
  component?: string;
  requestId?: string;
  err?: { type: string; message: string; code?: string };
  [key: string]: unknown;
}

export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

/** pino's numeric levels. */
export const LOG_LEVEL = { warn: 40, error: 50, fatal: 60 } as const;
