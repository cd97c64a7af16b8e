/** Tasks of one key run in turn, where concurrent calls could mistake each other's results (one listing). */
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
