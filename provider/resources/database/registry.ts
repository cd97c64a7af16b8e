/**
 * What this provider process knows about the stack's databases. The engine starts one provider
 * process per update, so these sets describe the current update only; the provider cannot see
 * the rest of the stack.
 */

/** Ids the stack's resources stand for, as seen in diff, read, create, update or delete. */
const held = new Set<string>();
/** Ids taken over with adoptId in this update. */
const adopted = new Set<string>();

export function noteHeld(id: string): void {
  held.add(id);
}

export function isHeld(id: string): boolean {
  return held.has(id);
}

export function noteAdopted(id: string): void {
  adopted.add(id);
  held.add(id);
}

export function wasAdoptedInThisUpdate(id: string): boolean {
  return adopted.has(id);
}
