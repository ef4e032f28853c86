/** The app's JSON log lines (`logStream`), as an operator's collector would receive them. */
export interface CollectedLogs {
  lines: Record<string, unknown>[];
  raw: string[];
  write(line: string): void;
}

export function collectingLogs(): CollectedLogs {
  const logs: CollectedLogs = {
    lines: [],
    raw: [],
    write(line: string) {
      logs.raw.push(line);
      logs.lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return logs;
}

/**
 * Every text a line holds, keys and string values at any depth: where a secret would be written. Numbers (times,
 * ports, process ids) are left out, so that a 6-digit code cannot be "found" inside a timestamp.
 */
export function textsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, into);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      textsOf(item, into);
    }
  return into;
}
