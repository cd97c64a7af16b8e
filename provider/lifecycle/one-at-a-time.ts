/**
 * Runs tasks that share a key one after another in this process, whatever the engine's
 * parallelism. A resource uses it where two concurrent calls could mistake each other's results
 * (two creates of one name reconciled from one listing, two members added to one workspace).
 */
const queues = new Map<string, Promise<unknown>>();

export function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
