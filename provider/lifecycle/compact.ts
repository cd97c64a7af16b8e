/** Drops undefined fields: the engine's property maps have no undefined. */
export function compact<T extends object>(props: T): T {
  return Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined)) as T;
}
