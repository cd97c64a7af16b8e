/** The entry of `key`, made by `make` and kept in `map` the first time it is asked for. */
export function entryOf<K, V>(map: Map<K, V> | (K extends object ? WeakMap<K, V> : never), key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
