/** The value after `--name` on the command line, or the fallback when the flag is absent. */
export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`--${name} needs a value`);
  return value;
}

export function integerOption(name: string, fallback: number, min: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be an integer of at least ${min}`);
  return value;
}
